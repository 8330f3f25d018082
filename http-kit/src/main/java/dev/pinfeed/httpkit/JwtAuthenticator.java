package dev.pinfeed.httpkit;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSKeySelector;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Accepts signed JWT bearer tokens: the signature by a key of a JSON Web Key set ({@link JwtKeys}; RSA and
 * EC public keys, chosen by the token's {@code kid}), the configured {@code iss} and {@code aud}, and
 * {@code exp} (required) and {@code nbf} with a small clock skew. The caller is a {@link Principal} named
 * by {@code sub} with the scopes of the {@code scope} claim. A key set read from a file is read again when
 * the file changes (checked at most once a second), so keys rotate without a restart. Every refusal is a
 * 401 whose detail says why, never echoing the token. A token arriving on several requests at once is
 * verified once: the others wait for that check (a new reader's first pages come in bursts, and an ES256
 * check costs milliseconds).
 */
public final class JwtAuthenticator implements Authenticator {

    /** The claim holding the token's space-separated scopes (RFC 8693 / OAuth 2.0 style). */
    public static final String SCOPE_CLAIM = "scope";
    static final Set<JWSAlgorithm> ALGORITHMS = Set.of(JWSAlgorithm.ES256, JWSAlgorithm.ES384, JWSAlgorithm.RS256, JWSAlgorithm.PS256);
    private static final int CLOCK_SKEW_SECONDS = 60;
    private static final long RECHECK_MILLIS = 1_000;
    private static final long ACCEPTED_FOR_MILLIS = 60_000;
    private static final int ACCEPTED_MAX = 100_000;

    private final KeySource keys;
    private final String issuer;
    private final String audience;
    private final Clock clock;
    private final UnaryOperator<TokenCheck> around;
    private volatile Verifier verifier;

    private JwtAuthenticator(KeySource keys, String issuer, String audience, Clock clock, UnaryOperator<TokenCheck> around) {
        this.keys = keys;
        this.issuer = Objects.requireNonNull(issuer, "issuer");
        this.audience = Objects.requireNonNull(audience, "audience");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.around = around;
    }

    /** Over the key set in {@code jwksFile} (public keys), read again when it changes. */
    public static JwtAuthenticator fromFile(Path jwksFile, String issuer, String audience, Clock clock) {
        return new JwtAuthenticator(new FileKeys(jwksFile, clock), issuer, audience, clock, UnaryOperator.identity());
    }

    /** Over a fixed key set (its text). */
    public static JwtAuthenticator of(String jwks, String issuer, String audience, Clock clock) {
        return of(jwks, issuer, audience, clock, UnaryOperator.identity());
    }

    /** {@link #of}, its signature checks made through {@code around} (tests count them). */
    static JwtAuthenticator of(String jwks, String issuer, String audience, Clock clock, UnaryOperator<TokenCheck> around) {
        JWKSet set = JwtKeys.parse(jwks).toPublicJWKSet();
        return new JwtAuthenticator(() -> set, issuer, audience, clock, around);
    }

    @Override
    public Principal authenticate(String bearerToken) {
        JWKSet set = keys.current();
        Verifier v = verifier;
        if (v == null || v.keys() != set) {
            DefaultJWTProcessor<SecurityContext> processor = processor(set);
            verifier = v = new Verifier(set, around.apply(token -> processor.process(token, null)), new ConcurrentHashMap<>(), new ConcurrentHashMap<>());
        }
        Accepted seen = v.accepted().get(bearerToken);
        if (seen != null && clock.millis() < seen.until()) return seen.principal();
        CompletableFuture<Principal> mine = new CompletableFuture<>();
        CompletableFuture<Principal> other = v.verifying().putIfAbsent(bearerToken, mine);
        if (other != null) return outcomeOf(other);
        try {
            Principal principal = verify(v, bearerToken);
            mine.complete(principal);
            return principal;
        } catch (RuntimeException e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            v.verifying().remove(bearerToken, mine);
        }
    }

    /** Checks the token's signature and claims, and remembers it as accepted. */
    private Principal verify(Verifier v, String bearerToken) {
        JWTClaimsSet verified;
        try {
            verified = v.processor().check(bearerToken);
        } catch (ParseException e) {
            throw refused("the bearer token is not a JWT");
        } catch (BadJOSEException e) {
            throw refused("the bearer token was refused: " + Json.oneLine(e.getMessage(), 120));
        } catch (JOSEException e) {
            throw refused("the bearer token cannot be verified: " + Json.oneLine(e.getMessage(), 120));
        }
        Principal principal = new Principal(verified.getSubject(), scopes(verified));
        long now = clock.millis();
        if (v.accepted().size() >= ACCEPTED_MAX) v.accepted().clear();
        v.accepted().put(bearerToken, new Accepted(principal, Math.min(verified.getExpirationTime().getTime(), now + ACCEPTED_FOR_MILLIS)));
        return principal;
    }

    /** Another request's check of the same token: its principal, or its refusal. */
    private static Principal outcomeOf(CompletableFuture<Principal> check) {
        try {
            return check.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException refusal) throw refusal;
            throw e;
        }
    }

    /**
     * The processor for one key set (thread-safe once configured), and the tokens it accepted lately: a reader's
     * token comes with every page, and a signature check costs more than the page's own work on a small box. An
     * entry lasts a minute at most and never past the token's {@code exp}; a new key set starts with none, so a
     * removed key's tokens are refused at once. {@code verifying}: the checks under way, by token.
     */
    private record Verifier(JWKSet keys, TokenCheck processor, Map<String, Accepted> accepted,
                            Map<String, CompletableFuture<Principal>> verifying) {}

    private record Accepted(Principal principal, long until) {}

    /** A token's signature and claims checked: its claims, or why not. */
    @FunctionalInterface
    interface TokenCheck {
        JWTClaimsSet check(String token) throws ParseException, BadJOSEException, JOSEException;
    }

    private DefaultJWTProcessor<SecurityContext> processor(JWKSet set) {
        DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
        processor.setJWSKeySelector(new KeptKeys(new JWSVerificationKeySelector<>(ALGORITHMS, new ImmutableJWKSet<>(set))));
        DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(audience,
                new JWTClaimsSet.Builder().issuer(issuer).build(), Set.of("sub", "exp")) {
            @Override
            protected Date currentTime() {
                return new Date(clock.millis());
            }
        };
        claims.setMaxClockSkew(CLOCK_SKEW_SECONDS);
        processor.setJWTClaimsSetVerifier(claims);
        return processor;
    }

    /**
     * The Java keys a token header selects, kept by the header's encoded form: nimbus's selector converts the matching
     * JWKs to Java keys (decoding the RSA modulus into a {@code BigInteger}) on every check, a quarter of an RS256 check.
     * One key set's tokens carry a handful of distinct headers; past {@value #HEADERS_KEPT} (headers made up by a caller)
     * the selection runs each time and nothing more is kept.
     */
    private static final class KeptKeys implements JWSKeySelector<SecurityContext> {
        private static final int HEADERS_KEPT = 64;
        private final JWSKeySelector<SecurityContext> selector;
        private final Map<String, List<? extends Key>> byHeader = new ConcurrentHashMap<>();

        KeptKeys(JWSKeySelector<SecurityContext> selector) {
            this.selector = selector;
        }

        @Override
        public List<? extends Key> selectJWSKeys(JWSHeader header, SecurityContext context) throws KeySourceException {
            String encoded = header.toBase64URL().toString();
            List<? extends Key> kept = byHeader.get(encoded);
            if (kept != null) return kept;
            List<? extends Key> keys = List.copyOf(selector.selectJWSKeys(header, context));
            if (byHeader.size() < HEADERS_KEPT) byHeader.putIfAbsent(encoded, keys);
            return keys;
        }
    }

    /**
     * Runs {@code checks} signature and claim checks of a token of a throwaway RS256 key, so that a process's first readers
     * do not pay for a JIT-cold RSA path: after a restart every reader's token is new, and its check ran interpreted
     * ({@code BigInteger} arithmetic) for the first hundreds of them, most of the feed-service's CPU in its first seconds.
     * Returns how long it took.
     */
    public static Duration warmUp(int checks, Clock clock) {
        long start = System.nanoTime();
        String keys = JwtKeys.newPrivateSet("warm-up");
        String token = new JwtIssuer(keys, "warm-up", "warm-up", clock).sign("0", Set.of(), Duration.ofMinutes(10));
        JwtAuthenticator authenticator = of(JwtKeys.publicSet(keys), "warm-up", "warm-up", clock);
        DefaultJWTProcessor<SecurityContext> processor = authenticator.processor(authenticator.keys.current());
        try {
            for (int i = 0; i < checks; i++) processor.process(token, null);
        } catch (ParseException | BadJOSEException | JOSEException e) {
            throw new IllegalStateException("the warm-up token was refused: " + e.getMessage(), e);
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private static Set<String> scopes(JWTClaimsSet claims) {
        Object scope = claims.getClaim(SCOPE_CLAIM);
        if (!(scope instanceof String s) || s.isBlank()) return Set.of();
        Set<String> scopes = Arrays.stream(s.trim().split("\\s+")).collect(Collectors.toCollection(HashSet::new));
        scopes.remove(Principal.ALL_SCOPES); // a token never grants everything: "*" is for the configured producer tokens
        return scopes;
    }

    private static ProblemException refused(String detail) {
        return new ProblemException(Problem.unauthorized(detail));
    }

    @FunctionalInterface
    private interface KeySource {
        JWKSet current();
    }

    /** The key set of a file, read again once its modification time or size changes. */
    private static final class FileKeys implements KeySource {
        private final Path file;
        private final Clock clock;
        private volatile Loaded loaded;

        private record Loaded(JWKSet set, long modified, long size, long checkedAt) {}

        FileKeys(Path file, Clock clock) {
            this.file = file;
            this.clock = clock;
            this.loaded = load(clock.millis());
        }

        @Override
        public JWKSet current() {
            Loaded l = loaded;
            long now = clock.millis();
            if (now - l.checkedAt() < RECHECK_MILLIS) return l.set();
            try {
                long modified = Files.getLastModifiedTime(file).toMillis();
                long size = Files.size(file);
                loaded = modified == l.modified() && size == l.size() ? new Loaded(l.set(), modified, size, now) : load(now);
            } catch (IOException | RuntimeException e) {
                // A rotation half-written or a file briefly gone keeps the keys already read.
                loaded = new Loaded(l.set(), l.modified(), l.size(), now);
            }
            return loaded.set();
        }

        private Loaded load(long now) {
            try {
                long modified = Files.getLastModifiedTime(file).toMillis();
                long size = Files.size(file);
                JWKSet set = JwtKeys.parse(Files.readString(file)).toPublicJWKSet();
                if (set.getKeys().isEmpty()) throw new IllegalArgumentException("the key set in " + file + " holds no keys");
                return new Loaded(set, modified, size, now);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the key set " + file + ": " + e.getMessage(), e);
            }
        }
    }
}
