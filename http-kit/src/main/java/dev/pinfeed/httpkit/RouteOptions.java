package dev.pinfeed.httpkit;

/**
 * Per-route pipeline settings.
 *
 * <p>The first component is {@code authRequired}, not {@code authenticated}: a record component named
 * {@code authenticated} would generate an instance accessor {@code authenticated()} that clashes with the static
 * factory {@link #authenticated()} (Java forbids both). The canonical constructor's order is unchanged.
 *
 * @param authRequired  require {@code Authorization: Bearer <token>} accepted by the app's {@link Authenticator}
 * @param maxBodyBytes  largest accepted request body; larger bodies get 413 (0 = no body allowed)
 * @param shed          reject with 429 when the app already has {@code maxInFlight} requests in flight
 */
public record RouteOptions(boolean authRequired, long maxBodyBytes, boolean shed) {

    /** 64 KiB: the default body limit of write routes. */
    public static final long DEFAULT_MAX_BODY_BYTES = 64 * 1024;

    public RouteOptions {
        if (maxBodyBytes < 0) {
            throw new IllegalArgumentException("maxBodyBytes must be >= 0: " + maxBodyBytes);
        }
    }

    /** No auth, no body, never shed: the default for GET routes. */
    public static RouteOptions publicRead() {
        return new RouteOptions(false, 0, false);
    }

    /** Auth, a body of at most {@code maxBodyBytes}, shed under load. */
    public static RouteOptions authenticatedWrite(long maxBodyBytes) {
        return new RouteOptions(true, maxBodyBytes, true);
    }

    /** Auth, a body of at most 64 KiB, shed under load: the default for non-GET routes. */
    public static RouteOptions authenticated() {
        return authenticatedWrite(DEFAULT_MAX_BODY_BYTES);
    }

    static RouteOptions defaultFor(String method) {
        return "GET".equals(method) ? publicRead() : authenticated();
    }
}
