package dev.pinfeed.infra.schemaregistry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Optional;

/**
 * What the HTTP server demands of a request before the API sees it: a body of at most
 * {@code maxBodyBytes} (413 otherwise, read no further), and, when {@code basicAuth} is set, HTTP basic
 * auth as that one user (401 otherwise).
 */
record RequestRules(int maxBodyBytes, Optional<BasicCredentials> basicAuth) {

    /**
     * 1 MiB: about 550 times the largest pinfeed schema (FanoutChunk.avsc, 1 885 bytes, about 2.3 KB as a
     * request body), so a realistic schema always fits and a flood never fills the 128 MB heap (4 handler threads).
     */
    static final int DEFAULT_MAX_BODY_BYTES = 1 << 20;
    static final RequestRules DEFAULTS = new RequestRules(DEFAULT_MAX_BODY_BYTES, Optional.empty());

    RequestRules {
        if (maxBodyBytes < 1) throw new IllegalArgumentException("the body limit must be at least 1 byte: " + maxBodyBytes);
    }

    /** Whether an {@code Authorization} header value (null when absent) lets the request in. */
    boolean admits(String authorization) {
        return basicAuth.map(c -> c.matches(authorization)).orElse(true);
    }

    /** The one user allowed in; the file holds {@code user:password} on its first line (the password may contain ':'). */
    record BasicCredentials(String user, String password) {

        BasicCredentials {
            if (user.isEmpty() || user.contains(":") || password.isEmpty()) {
                throw new IllegalArgumentException("basic auth needs a user without ':' and a non-empty password");
            }
        }

        static BasicCredentials read(Path file) {
            try {
                String line = Files.readAllLines(file, StandardCharsets.UTF_8).stream().findFirst().orElse("").strip();
                int colon = line.indexOf(':');
                if (colon < 0) throw new IllegalArgumentException(file + " must hold user:password on its first line");
                return new BasicCredentials(line.substring(0, colon), line.substring(colon + 1));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
            }
        }

        boolean matches(String authorization) {
            byte[] expected = ("Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)))
                    .getBytes(StandardCharsets.UTF_8);
            byte[] given = authorization == null ? new byte[0] : authorization.strip().getBytes(StandardCharsets.UTF_8);
            return MessageDigest.isEqual(expected, given); // constant time: no timing hint of the password
        }

        @Override
        public String toString() {
            return "BasicCredentials[user=" + user + "]"; // never the password in a log line
        }
    }
}
