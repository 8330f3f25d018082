package dev.pinfeed.feedservice;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.httpkit.Authenticator;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.JwtAuthenticator;
import dev.pinfeed.httpkit.JwtIssuer;
import dev.pinfeed.httpkit.JwtKeys;
import dev.pinfeed.httpkit.Principal;
import dev.pinfeed.httpkit.PrincipalRateLimiter;
import dev.pinfeed.httpkit.Problem;
import dev.pinfeed.httpkit.ProblemException;
import dev.pinfeed.httpkit.ReaderClaims;
import dev.pinfeed.httpkit.Request;
import dev.pinfeed.httpkit.RouteOptions;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * Who may read what on feed-service. A user's private reads — the home feed, likes and
 * {@code /following/*} — need a bearer token ({@link ReaderClaims}): that user's (403 for another
 * user's, 401 without) or a service's with the read scope. Public objects (users, boards, pins,
 * counts, followers) need none unless {@code feed.auth.public-reads=token}. Each token is held to
 * {@code feed.auth.rate-per-second} requests a second (bursts of {@code feed.auth.rate-burst}); 429
 * with Retry-After beyond.
 *
 * <p>Keys: {@code feed.auth.jwks-file} (the verifying JSON Web Key set, public keys; read again when it
 * changes, so keys rotate), {@code feed.auth.issuer}, {@code feed.auth.audience} ({@value ReaderClaims#AUDIENCE}),
 * {@code feed.auth.public-reads} ({@code open} | {@code token}; open), {@code feed.auth.rate-per-second} (100),
 * {@code feed.auth.rate-burst} (200).
 */
public final class ReaderAuth {

    /** How a token may read a user's private reads. */
    public enum Access {
        /** The user himself: his reads have their side effects (journal, last read, regeneration, active mark). */
        OWNER,
        /** An internal caller: reads without side effects. */
        SERVICE
    }

    private final Authenticator authenticator;
    private final PrincipalRateLimiter limiter;
    private final boolean publicReadsNeedToken;

    public ReaderAuth(Authenticator authenticator, PrincipalRateLimiter limiter, boolean publicReadsNeedToken) {
        this.authenticator = authenticator;
        this.limiter = limiter;
        this.publicReadsNeedToken = publicReadsNeedToken;
    }

    /** The deployment's settings (keys above). */
    public static ReaderAuth from(PinfeedConfig config, Clock clock) {
        Path keys = Path.of(config.require("feed.auth.jwks-file"));
        JwtAuthenticator jwt = JwtAuthenticator.fromFile(keys, config.require("feed.auth.issuer"),
                config.get("feed.auth.audience", ReaderClaims.AUDIENCE), clock);
        return new ReaderAuth(jwt, limiter(config), publicReadsNeedToken(config));
    }

    /**
     * A key of its own and its issuer: for a process that serves and reads in one (tests, benchmarks); {@code privateKeys}
     * is the key set (a {@link JwtKeys} private set) for another signer such as the console's dev sign-in.
     */
    public record SelfIssued(ReaderAuth auth, JwtIssuer issuer, String issuerName, String privateKeys) {}

    public static SelfIssued selfIssued(PinfeedConfig config, Clock clock) {
        String keys = JwtKeys.newPrivateSet("self");
        String issuer = "pinfeed-self";
        return new SelfIssued(new ReaderAuth(JwtAuthenticator.of(JwtKeys.publicSet(keys), issuer, ReaderClaims.AUDIENCE, clock),
                limiter(config), publicReadsNeedToken(config)), new JwtIssuer(keys, issuer, ReaderClaims.AUDIENCE, clock), issuer, keys);
    }

    private static boolean publicReadsNeedToken(PinfeedConfig config) {
        String publicReads = config.get("feed.auth.public-reads", "open").toLowerCase(Locale.ROOT);
        if (!publicReads.equals("open") && !publicReads.equals("token")) {
            throw new IllegalStateException("configuration key 'feed.auth.public-reads' must be open or token: " + publicReads);
        }
        return publicReads.equals("token");
    }

    private static PrincipalRateLimiter limiter(PinfeedConfig config) {
        return new PrincipalRateLimiter(config.getInt("feed.auth.rate-per-second", 100), config.getInt("feed.auth.rate-burst", 200), System::nanoTime);
    }

    void applyTo(HttpApp.Builder app) {
        app.authenticator(authenticator).rateLimit(limiter);
    }

    /** Options of a public GET: open, or a token of anyone when so configured. */
    RouteOptions publicRead() {
        return publicReadsNeedToken ? new RouteOptions(true, 0, false) : RouteOptions.publicRead();
    }

    /** Options of a private read: a token, and a body up to {@code maxBodyBytes} (0 for a GET). */
    RouteOptions privateRead(long maxBodyBytes) {
        return new RouteOptions(true, maxBodyBytes, false);
    }

    /** The user of a private read's path and how the caller may read him: 400 for a bad id, 403 before 404. */
    record Reader(long userId, Access access) {}

    static Reader reader(Request r, KnownObjects known) {
        Access access = access(r, Params.id(r, "userId", ObjectType.USER));
        return new Reader(known.userId(r, "userId"), access);
    }

    /** How the request's token may read {@code userId}'s private reads; 403 when it may not. */
    static Access access(Request r, long userId) {
        Principal p = r.principal();
        OptionalLong user = ReaderClaims.userOf(p);
        if (user.isPresent() && user.getAsLong() == userId) return Access.OWNER;
        if (ReaderClaims.isServiceReader(p)) return Access.SERVICE;
        throw new ProblemException(Problem.forbidden(user.isPresent()
                ? "this token reads only user " + user.getAsLong() + "'s own feed, likes and follows"
                : "this token may not read users' feeds, likes or follows"));
    }
}
