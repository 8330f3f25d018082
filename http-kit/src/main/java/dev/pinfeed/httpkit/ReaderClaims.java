package dev.pinfeed.httpkit;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What pinfeed's reader tokens say (feed-service's bearer tokens, {@link JwtAuthenticator}): a user's
 * token has the user's 64-bit id as {@code sub} and the scope {@value #SELF_SCOPE} (that user's own
 * private reads); a service's token has {@code sub} {@code service:NAME} and the scope
 * {@value #READ_SCOPE} (any user's private reads, without a reader's side effects). An identity
 * provider issuing tokens for pinfeed issues these claims; the dev stack's {@code ./pinfeed token} does.
 */
public final class ReaderClaims {

    /** The audience feed-service expects unless configured otherwise. */
    public static final String AUDIENCE = "pinfeed-feed";
    public static final String SELF_SCOPE = "feed:self";
    public static final String READ_SCOPE = "feed:read";
    private static final String SERVICE_PREFIX = "service:";

    private ReaderClaims() {}

    public static String userToken(JwtIssuer issuer, long userId, Duration ttl) {
        return issuer.sign(Long.toString(userId), Set.of(SELF_SCOPE), ttl);
    }

    public static String serviceToken(JwtIssuer issuer, String service, Duration ttl) {
        if (service == null || !service.matches("[A-Za-z0-9._-]{1,64}")) {
            throw new IllegalArgumentException("a service name is 1-64 of A-Z, a-z, 0-9, '.', '_' and '-': " + service);
        }
        return issuer.sign(SERVICE_PREFIX + service, Set.of(READ_SCOPE), ttl);
    }

    /** The user whose own reads {@code p} may make, if it is a user's token. */
    public static OptionalLong userOf(Principal p) {
        Objects.requireNonNull(p, "principal");
        if (!p.allows(SELF_SCOPE) || p.scopes().contains(Principal.ALL_SCOPES)) return OptionalLong.empty();
        try {
            return OptionalLong.of(Long.parseLong(p.name()));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** Whether {@code p} is a service that may read any user's private reads. */
    public static boolean isServiceReader(Principal p) {
        return p.name().startsWith(SERVICE_PREFIX) && p.allows(READ_SCOPE);
    }
}
