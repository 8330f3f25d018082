package dev.pinfeed.infra.stack;

import dev.pinfeed.config.Sha256;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The local producer token: a random secret kept in {@code .pinfeed/run/dev-token} (mode 600), and
 * the token file ingest-api reads, which holds only its SHA-256 (format: ingest-api's TokenAuthenticator).
 */
final class DevToken {

    private DevToken() {}

    static Path tokenFile(StackLayout layout) {
        return layout.runDir().resolve("dev-token");
    }

    static Path ingestTokensFile(StackLayout layout) {
        return layout.runDir().resolve("ingest-tokens.properties");
    }

    /** The dev token, created on first use; the ingest token file is (re)written to match it. */
    static String ensure(StackLayout layout) {
        Path file = tokenFile(layout);
        try {
            if (!Files.exists(file)) {
                byte[] secret = new byte[32];
                new SecureRandom().nextBytes(secret);
                // Created private: the secret is never readable by others, not even for an instant.
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                Files.writeString(file, "pf_dev_" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret) + "\n");
            }
            String token = Files.readString(file).trim();
            Files.writeString(ingestTokensFile(layout), "# Written by ./pinfeed dev: the dev token may publish every event type.\n"
                    + "token.dev.sha256=" + Sha256.hex(token) + "\ntoken.dev.scopes=*\n");
            return token;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
