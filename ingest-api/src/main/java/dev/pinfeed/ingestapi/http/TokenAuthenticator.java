package dev.pinfeed.ingestapi.http;

import dev.pinfeed.config.Sha256;
import dev.pinfeed.httpkit.Authenticator;
import dev.pinfeed.httpkit.Principal;
import dev.pinfeed.httpkit.Problem;
import dev.pinfeed.httpkit.ProblemException;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * Producer tokens from a properties file that holds only SHA-256 hashes of the secrets:
 * <pre>
 * token.search-indexer.sha256 = 9f86d0...
 * token.search-indexer.scopes = PinCreated,PinDeleted      (or * for every event type)
 * </pre>
 * A leaked file does not leak tokens; a token is revoked by deleting its lines and restarting.
 */
public final class TokenAuthenticator implements Authenticator {

    private final Map<String, Principal> byHash;

    public TokenAuthenticator(Map<String, Principal> byHash) {
        this.byHash = Map.copyOf(byHash);
    }

    public static TokenAuthenticator load(Path file, Set<String> knownScopes) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the token file " + file + ": " + e.getMessage(), e);
        }
        Map<String, Principal> byHash = new HashMap<>();
        for (String key : p.stringPropertyNames()) {
            if (!key.startsWith("token.") || !key.endsWith(".sha256")) continue;
            String name = key.substring("token.".length(), key.length() - ".sha256".length());
            String hash = p.getProperty(key).trim().toLowerCase();
            if (!hash.matches("[0-9a-f]{64}")) throw new IllegalStateException(file + ": " + key + " is not a hex SHA-256");
            String scopeList = p.getProperty("token." + name + ".scopes");
            if (scopeList == null) throw new IllegalStateException(file + ": token " + name + " has no .scopes line");
            Set<String> scopes = new LinkedHashSet<>();
            for (String s : scopeList.split(",")) {
                String scope = s.trim();
                if (scope.isEmpty()) continue;
                if (!scope.equals("*") && !knownScopes.contains(scope)) {
                    throw new IllegalStateException(file + ": token " + name + " names unknown event type '" + scope
                            + "'; known: " + knownScopes);
                }
                scopes.add(scope);
            }
            byHash.put(hash, new Principal(name, scopes));
        }
        if (byHash.isEmpty()) throw new IllegalStateException(file + " defines no tokens");
        return new TokenAuthenticator(byHash);
    }

    /** The hash the token file holds for {@code token}. */
    public static String sha256Hex(String token) {
        return Sha256.hex(token);
    }

    @Override
    public Principal authenticate(String bearerToken) {
        // Looked up by hash, so response time does not depend on how much of a secret matched.
        Principal p = byHash.get(sha256Hex(bearerToken));
        if (p == null) throw new ProblemException(Problem.unauthorized("unknown or revoked token"));
        return p;
    }

    /** Used in tests and tooling: the hash map form of a single token. */
    public static TokenAuthenticator of(String token, String name, String... scopes) {
        return new TokenAuthenticator(Map.of(sha256Hex(token), new Principal(name, new LinkedHashSet<>(Arrays.asList(scopes)))));
    }
}
