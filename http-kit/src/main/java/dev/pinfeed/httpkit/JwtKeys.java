package dev.pinfeed.httpkit;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * JSON Web Key sets of bearer-token signing keys, as text: what an issuer keeps (private keys) and what
 * a verifier is given (their public halves). Keys are ES256 (P-256); a set may hold several, named by
 * {@code kid}, so a new key can be added before tokens signed with it appear and an old one removed after
 * its tokens expired (rotation).
 */
public final class JwtKeys {

    private JwtKeys() {}

    /** A private set of one new ES256 key named {@code kid}. */
    public static String newPrivateSet(String kid) {
        return new JWKSet(newKey(kid)).toString(false);
    }

    /** {@code privateSet} with a new ES256 key named {@code kid} appended: the issuer signs with it from now on. */
    public static String withNewKey(String privateSet, String kid) {
        List<JWK> keys = new ArrayList<>(parse(privateSet).getKeys());
        if (keys.stream().anyMatch(k -> kid.equals(k.getKeyID()))) throw new IllegalArgumentException("key id already in the set: " + kid);
        keys.add(newKey(kid));
        return new JWKSet(keys).toString(false);
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

    private static JWK newKey(String kid) {
        try {
            return new ECKeyGenerator(Curve.P_256).keyID(kid).keyUse(KeyUse.SIGNATURE).algorithm(JWSAlgorithm.ES256).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot generate a P-256 key: " + e.getMessage(), e);
        }
    }
}
