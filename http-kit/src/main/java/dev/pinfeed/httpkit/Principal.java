package dev.pinfeed.httpkit;

import java.util.Objects;
import java.util.Set;

/** The authenticated caller. The scope {@code "*"} allows everything. */
public record Principal(String name, Set<String> scopes) {

    public static final String ALL_SCOPES = "*";

    public Principal {
        Objects.requireNonNull(name, "name");
        scopes = scopes == null ? Set.of() : Set.copyOf(scopes);
    }

    public boolean allows(String scope) {
        return scopes.contains(ALL_SCOPES) || scopes.contains(scope);
    }
}
