package dev.pinfeed.httpkit;

/**
 * Turns the token of an {@code Authorization: Bearer <token>} header into a {@link Principal}.
 * Only called when the header is present and uses the Bearer scheme; rejects with a
 * {@link ProblemException} (normally {@link Problem#unauthorized(String)}). Returning {@code null} is treated
 * as a 401 "invalid bearer token".
 */
@FunctionalInterface
public interface Authenticator {
    Principal authenticate(String bearerToken) throws ProblemException;
}
