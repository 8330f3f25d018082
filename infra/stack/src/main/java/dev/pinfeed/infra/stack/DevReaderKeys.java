package dev.pinfeed.infra.stack;

import dev.pinfeed.httpkit.JwtIssuer;
import dev.pinfeed.httpkit.JwtKeys;
import dev.pinfeed.httpkit.ReaderClaims;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The dev stack's reader-token issuer: an RS256 key created on the first start and kept in
 * {@code .pinfeed/run/reader-keys.private.json} (mode 600); feed-service is given only its public half,
 * {@code reader-keys.json}, as {@code feed.auth.jwks-file}. {@code ./pinfeed token --user|--service}
 * signs with it. A deployment has its own identity provider in its place.
 */
final class DevReaderKeys {

    /** The {@code iss} of dev reader tokens. */
    static final String ISSUER = "pinfeed-dev";
    static final Duration TOKEN_TTL = Duration.ofHours(24);

    private DevReaderKeys() {}

    static Path privateFile(StackLayout layout) {
        return layout.home().resolve("run").resolve("reader-keys.private.json");
    }

    static Path publicFile(StackLayout layout) {
        return layout.home().resolve("run").resolve("reader-keys.json");
    }

    /**
     * Creates the key on first use and (re)writes its public half; safe from several processes at once. A set
     * whose newest key is an ES256 one (created before the dev keys were RS256) gets an RS256 key appended, which
     * signs from then on; tokens signed before stay valid.
     */
    static void ensure(StackLayout layout) {
        Path file = privateFile(layout);
        String keys = AtomicFiles.createPrivateIfAbsent(file, () -> JwtKeys.newPrivateSet("dev-rsa-1"));
        if (JwtKeys.newestKind(keys) != JwtKeys.Kind.RS256) {
            try (AtomicFiles.Lock lock = AtomicFiles.lock(layout.runFile("reader-keys.lock"))) {
                keys = readPrivate(file);
                if (JwtKeys.newestKind(keys) != JwtKeys.Kind.RS256) {
                    List<String> ids = JwtKeys.keyIds(keys);
                    int n = 1;
                    while (ids.contains("dev-rsa-" + n)) n++;
                    keys = JwtKeys.withNewKey(keys, "dev-rsa-" + n);
                    AtomicFiles.writePrivate(file, keys);
                }
            }
        }
        AtomicFiles.writeIfChanged(publicFile(layout), JwtKeys.publicSet(keys) + "\n");
    }

    private static String readPrivate(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** feed-service's settings for these keys. */
    static Map<String, String> feedServiceSettings(StackLayout layout) {
        return Map.of("feed.auth.jwks-file", publicFile(layout).toString(), "feed.auth.issuer", ISSUER);
    }

    static String userToken(StackLayout layout, long userId) {
        return ReaderClaims.userToken(issuer(layout), userId, TOKEN_TTL);
    }

    static String serviceToken(StackLayout layout, String service) {
        return ReaderClaims.serviceToken(issuer(layout), service, TOKEN_TTL);
    }

    private static JwtIssuer issuer(StackLayout layout) {
        ensure(layout);
        return new JwtIssuer(readPrivate(privateFile(layout)), ISSUER, ReaderClaims.AUDIENCE, Clock.systemUTC());
    }
}
