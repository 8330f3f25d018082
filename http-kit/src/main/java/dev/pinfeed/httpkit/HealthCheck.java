package dev.pinfeed.httpkit;

import java.util.Objects;

/**
 * One dependency probe for {@code GET /health}: return normally when the dependency is usable, throw otherwise
 * (the exception message, flattened to one line, is the reported reason).
 */
@FunctionalInterface
public interface HealthCheck {

    void check() throws Exception;

    /**
     * The name reported under {@code "checks"}; {@code null} (the default) lets
     * {@link HttpApp.Builder#health(HealthCheck...)} number it ({@code check-1}, ...).
     * Prefer {@link HttpApp.Builder#healthCheck(String, HealthCheck)} or {@link #named(String, HealthCheck)}.
     */
    default String name() {
        return null;
    }

    static HealthCheck named(String name, HealthCheck check) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(check, "check");
        return new HealthCheck() {
            @Override
            public void check() throws Exception {
                check.check();
            }

            @Override
            public String name() {
                return name;
            }
        };
    }
}
