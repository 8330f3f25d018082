package dev.pinfeed.infra.stack;

import dev.pinfeed.config.Sha256;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The local producer token: a random secret kept in {@code .pinfeed/run/dev-token} (mode 600), and
 * the token file ingest-api reads, which holds only its SHA-256 (format: ingest-api's TokenAuthenticator).
 * Safe to call from any number of threads and processes at once: all get the same token.
 */
final class DevToken {

    private DevToken() {}

    static Path tokenFile(StackLayout layout) {
        return layout.home().resolve("run").resolve("dev-token");
    }

    static Path ingestTokensFile(StackLayout layout) {
        return layout.home().resolve("run").resolve("ingest-tokens.properties");
    }

    /** The dev token, created on first use; the ingest token file is (re)written to match it. */
    static String ensure(StackLayout layout) {
        String token = AtomicFiles.createPrivateIfAbsent(tokenFile(layout), DevToken::newToken).trim();
        AtomicFiles.writeIfChanged(ingestTokensFile(layout), "# Written by ./pinfeed dev: the dev token may publish every event type.\n"
                + "token.dev.sha256=" + Sha256.hex(token) + "\ntoken.dev.scopes=*\n");
        return token;
    }

    private static String newToken() {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        return "pf_dev_" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret) + "\n";
    }
}
