package dev.pinfeed.httpkit;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.time.Clock;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Signs bearer tokens that {@link JwtAuthenticator} accepts: with the newest key of a private {@link JwtKeys}
 * set (RS256 for an RSA key, ES256 for a P-256 one; its {@code kid} in the header), claims {@code iss}, {@code aud}, {@code sub},
 * {@code scope} (space-separated), {@code iat} and {@code exp}. Production tokens come from the
 * deployment's identity provider; this issuer serves the dev stack and tests.
 */
public final class JwtIssuer {

    private final JWK key;
    private final JWSAlgorithm algorithm;
    private final JWSSigner signer;
    private final String issuer;
    private final String audience;
    private final Clock clock;

    public JwtIssuer(String privateSet, String issuer, String audience, Clock clock) {
        List<JWK> keys = JwtKeys.parse(privateSet).getKeys();
        JWK newest = keys.isEmpty() ? null : keys.get(keys.size() - 1);
        if (newest == null || !newest.isPrivate() || !(newest instanceof RSAKey || newest instanceof ECKey)) {
            throw new IllegalArgumentException("the key set's newest key is not a private RSA or EC key");
        }
        this.key = newest;
        try {
            this.algorithm = JwtKeys.kindOf(newest).algorithm;
            this.signer = newest instanceof RSAKey rsa ? new RSASSASigner(rsa) : new ECDSASigner((ECKey) newest);
        } catch (JOSEException e) {
            throw new IllegalArgumentException("cannot sign with key " + newest.getKeyID() + ": " + e.getMessage(), e);
        }
        this.issuer = Objects.requireNonNull(issuer, "issuer");
        this.audience = Objects.requireNonNull(audience, "audience");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** A token for {@code subject} with {@code scopes}, valid from now for {@code ttl}. */
    public String sign(String subject, Set<String> scopes, Duration ttl) {
        long now = clock.millis();
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(issuer).audience(audience).subject(subject)
                .claim(JwtAuthenticator.SCOPE_CLAIM, String.join(" ", new TreeSet<>(scopes)))
                .issueTime(new Date(now)).expirationTime(new Date(now + ttl.toMillis()))
                .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(algorithm).keyID(key.getKeyID()).build(), claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign a token: " + e.getMessage(), e);
        }
        return jwt.serialize();
    }
}
