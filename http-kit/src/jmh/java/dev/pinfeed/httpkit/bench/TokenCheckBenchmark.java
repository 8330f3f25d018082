package dev.pinfeed.httpkit.bench;

import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.factories.DefaultJWSVerifierFactory;
import com.nimbusds.jose.jwk.AsymmetricJWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jwt.SignedJWT;
import dev.pinfeed.httpkit.JwtAuthenticator;
import dev.pinfeed.httpkit.JwtIssuer;
import dev.pinfeed.httpkit.JwtKeys;
import dev.pinfeed.httpkit.Principal;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What feed-service pays for a reader's token it has not seen (a new reader, or the same one a minute later):
 * {@code firstSight} is {@link JwtAuthenticator#authenticate} of a token its authenticator has not accepted yet
 * (a fresh authenticator per call, made outside the timing: the first token after a start or a key rotation);
 * {@code firstSightOfAKeptKey} the same for an authenticator that checked other tokens of the key before (a pool of
 * {@value #POOL} tokens of distinct readers, the authenticator made anew once per pool, outside the timing);
 * {@code seenBefore} the same call once accepted;
 * {@code rawVerify} the baseline, nimbus's bare signature check of the same token. Per key kind.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
public class TokenCheckBenchmark {

    private static final String ISSUER = "bench";
    private static final String AUDIENCE = "pinfeed-feed";

    @Param({"RS256", "ES256"})
    public String kind;

    private String publicSet;
    private String token;
    private JWSVerifier verifier;
    private JwtAuthenticator seen;
    private JwtAuthenticator fresh;

    private static final int POOL = 4_096;
    private String[] pool;
    private int next;
    private JwtAuthenticator keptKey;

    @Setup(Level.Trial)
    public void keys() throws Exception {
        String keys = JwtKeys.newPrivateSet("k", JwtKeys.Kind.valueOf(kind));
        publicSet = JwtKeys.publicSet(keys);
        token = new JwtIssuer(keys, ISSUER, AUDIENCE, Clock.systemUTC()).sign("42", Set.of("feed:self"), Duration.ofHours(1));
        SignedJWT parsed = SignedJWT.parse(token);
        verifier = new DefaultJWSVerifierFactory().createJWSVerifier(parsed.getHeader(),
                ((AsymmetricJWK) JWKSet.parse(publicSet).getKeys().get(0)).toPublicKey());
        seen = JwtAuthenticator.of(publicSet, ISSUER, AUDIENCE, Clock.systemUTC());
        seen.authenticate(token);
        JwtIssuer issuer = new JwtIssuer(keys, ISSUER, AUDIENCE, Clock.systemUTC());
        pool = new String[POOL];
        for (int i = 0; i < POOL; i++) pool[i] = issuer.sign(Integer.toString(1_000 + i), Set.of("feed:self"), Duration.ofHours(1));
    }

    @Setup(Level.Invocation)
    public void freshAuthenticator() {
        fresh = JwtAuthenticator.of(publicSet, ISSUER, AUDIENCE, Clock.systemUTC());
        if (next % POOL == 0) {
            keptKey = JwtAuthenticator.of(publicSet, ISSUER, AUDIENCE, Clock.systemUTC());
            keptKey.authenticate(token);
        }
    }

    @Benchmark
    public Principal firstSightOfAKeptKey() {
        return keptKey.authenticate(pool[next++ % POOL]);
    }

    @Benchmark
    public Principal firstSight() {
        return fresh.authenticate(token);
    }

    @Benchmark
    public Principal seenBefore() {
        return seen.authenticate(token);
    }

    @Benchmark
    public boolean rawVerify() throws Exception {
        return SignedJWT.parse(token).verify(verifier);
    }
}
