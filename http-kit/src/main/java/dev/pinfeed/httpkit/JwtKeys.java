package dev.pinfeed.httpkit;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * JSON Web Key sets of bearer-token signing keys, as text: what an issuer keeps (private keys) and what
 * a verifier is given (their public halves). New keys are RS256 (RSA 2048) unless asked for ES256; a set may
 * hold several, named by {@code kid}, so a new key can be added before tokens signed with it appear and an old
 * one removed after its tokens expired (rotation).
 *
 * <p>Why RS256: a token is signed once and verified by every service instance it reaches, and on the JVM an
 * RSA signature verifies about 15 times faster than a P-256 one (0.16 against 2.4 ms on the 2-core dev box,
 * docs/benchmarks.md): a feed-service instance verifies each new reader's token before his first page.
 */
public final class JwtKeys {

    /** The signature algorithm of a key. */
    public enum Kind {
        RS256(JWSAlgorithm.RS256),
        ES256(JWSAlgorithm.ES256);

        final JWSAlgorithm algorithm;

        Kind(JWSAlgorithm algorithm) {
            this.algorithm = algorithm;
        }
    }

    private JwtKeys() {}

    /** A private set of one new RS256 key named {@code kid}. */
    public static String newPrivateSet(String kid) {
        return newPrivateSet(kid, Kind.RS256);
    }

    /** A private set of one new key of {@code kind} named {@code kid}. */
    public static String newPrivateSet(String kid, Kind kind) {
        return new JWKSet(newKey(kid, kind)).toString(false);
    }

    /** {@code privateSet} with a new RS256 key named {@code kid} appended: the issuer signs with it from now on. */
    public static String withNewKey(String privateSet, String kid) {
        return withNewKey(privateSet, kid, Kind.RS256);
    }

    /** {@code privateSet} with a new key of {@code kind} named {@code kid} appended: the issuer signs with it from now on. */
    public static String withNewKey(String privateSet, String kid, Kind kind) {
        List<JWK> keys = new ArrayList<>(parse(privateSet).getKeys());
        if (keys.stream().anyMatch(k -> kid.equals(k.getKeyID()))) throw new IllegalArgumentException("key id already in the set: " + kid);
        keys.add(newKey(kid, kind));
        return new JWKSet(keys).toString(false);
    }

    /** The key ids of the set, oldest first. */
    public static List<String> keyIds(String set) {
        return parse(set).getKeys().stream().map(JWK::getKeyID).toList();
    }

    /** The kind of the set's newest key: the one an issuer signs with. */
    public static Kind newestKind(String privateSet) {
        List<JWK> keys = parse(privateSet).getKeys();
        if (keys.isEmpty()) throw new IllegalArgumentException("the key set holds no keys");
        return kindOf(keys.get(keys.size() - 1));
    }

    /** The kind of {@code key}: RS256 for an RSA key, ES256 otherwise. */
    static Kind kindOf(JWK key) {
        return key instanceof RSAKey ? Kind.RS256 : Kind.ES256;
    }

    /** The public halves of {@code privateSet}: what verifiers are given. */
    public static String publicSet(String privateSet) {
        return parse(privateSet).toPublicJWKSet().toString(true);
    }

    static JWKSet parse(String set) {
        try {
            return JWKSet.parse(set);
        } catch (ParseException e) {
            throw new IllegalArgumentException("not a JSON Web Key set: " + e.getMessage(), e);
        }
    }

    private static JWK newKey(String kid, Kind kind) {
        try {
            return switch (kind) {
                case RS256 -> new RSAKeyGenerator(2048).keyID(kid).keyUse(KeyUse.SIGNATURE).algorithm(kind.algorithm).generate();
                case ES256 -> new ECKeyGenerator(Curve.P_256).keyID(kid).keyUse(KeyUse.SIGNATURE).algorithm(kind.algorithm).generate();
            };
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot generate an " + kind + " key: " + e.getMessage(), e);
        }
    }
}
