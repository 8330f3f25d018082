package dev.pinfeed.httpkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Signed tokens in, principals or 401 problems out: signature, issuer, audience, expiry and key rotation. */
class JwtAuthenticatorTest {

    private static final String ISSUER = "pinfeed-test";
    private static final String AUDIENCE = "pinfeed-feed";
    /** One RSA key for the class: generating one takes a while on a small box. */
    private static final String KEYS = JwtKeys.newPrivateSet("k1");

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-28T12:00:00Z"));
    private final String keys = KEYS;
    private final JwtIssuer issuer = new JwtIssuer(keys, ISSUER, AUDIENCE, clock);
    private final JwtAuthenticator readers = JwtAuthenticator.of(JwtKeys.publicSet(keys), ISSUER, AUDIENCE, clock);

    @Test
    void aValidTokenNamesItsSubjectAndScopes() {
        Principal p = readers.authenticate(issuer.sign("42", Set.of("feed:self", "extra"), Duration.ofMinutes(5)));
        assertThat(p.name()).isEqualTo("42");
        assertThat(p.scopes()).containsExactlyInAnyOrder("feed:self", "extra");
    }

    @Test
    void aTokenNeverGrantsEveryScope() {
        Principal p = readers.authenticate(issuer.sign("svc", Set.of("*", "feed:read"), Duration.ofMinutes(5)));
        assertThat(p.scopes()).containsExactly("feed:read");
        assertThat(p.allows("events:write")).isFalse();
    }

    @Test
    void newKeysSignRs256AndAnEs256KeySetIsAcceptedToo() {
        assertThat(JwtKeys.newestKind(keys)).isEqualTo(JwtKeys.Kind.RS256);
        assertThat(header(issuer.sign("42", Set.of(), Duration.ofMinutes(5)))).contains("\"RS256\"");

        String ecKeys = JwtKeys.newPrivateSet("e1", JwtKeys.Kind.ES256); // an identity provider's P-256 keys
        String ecToken = new JwtIssuer(ecKeys, ISSUER, AUDIENCE, clock).sign("43", Set.of(), Duration.ofMinutes(5));
        assertThat(header(ecToken)).contains("\"ES256\"");
        assertThat(JwtAuthenticator.of(JwtKeys.publicSet(ecKeys), ISSUER, AUDIENCE, clock).authenticate(ecToken).name()).isEqualTo("43");
        assertRefused(ecToken, ""); // not a key of this set
    }

    @Test
    void aTokenArrivingOnSeveralRequestsAtOnceIsCheckedOnce() throws Exception {
        String token = issuer.sign("42", Set.of("feed:self"), Duration.ofMinutes(5));
        String forged = token.substring(0, token.length() - 4) + (token.endsWith("AAAA") ? "BBBB" : "AAAA");

        ConcurrentArrivals accepted = arriveAtOnce(token, 8);
        assertThat(accepted.checks()).as("signature checks of the token").isEqualTo(1);
        for (Future<Principal> f : accepted.answers()) assertThat(f.get(10, TimeUnit.SECONDS).name()).isEqualTo("42");

        ConcurrentArrivals refused = arriveAtOnce(forged, 8);
        assertThat(refused.checks()).as("signature checks of the forged token").isEqualTo(1);
        for (Future<Principal> f : refused.answers()) {
            assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(ProblemException.class);
        }
    }

    private record ConcurrentArrivals(int checks, List<Future<Principal>> answers) {}

    /** {@code requests} calls with {@code token} on a new authenticator, all of them made while the first one's check is under way. */
    private ConcurrentArrivals arriveAtOnce(String token, int requests) throws Exception {
        AtomicInteger checks = new AtomicInteger();
        CountDownLatch checking = new CountDownLatch(1);
        CountDownLatch othersArrived = new CountDownLatch(1);
        JwtAuthenticator counted = JwtAuthenticator.of(JwtKeys.publicSet(keys), ISSUER, AUDIENCE, clock, check -> t -> {
            checks.incrementAndGet();
            checking.countDown();
            try {
                othersArrived.await(10, TimeUnit.SECONDS); // the check lasts until every other request has arrived
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return check.check(t);
        });
        ExecutorService pool = Executors.newFixedThreadPool(requests);
        try {
            List<Future<Principal>> answers = new ArrayList<>();
            answers.add(pool.submit(() -> counted.authenticate(token)));
            assertThat(checking.await(10, TimeUnit.SECONDS)).isTrue();
            CountDownLatch calling = new CountDownLatch(requests - 1);
            for (int i = 1; i < requests; i++) {
                answers.add(pool.submit(() -> {
                    calling.countDown();
                    return counted.authenticate(token);
                }));
            }
            assertThat(calling.await(10, TimeUnit.SECONDS)).isTrue();
            Thread.sleep(500); // from their call to the check under way: a few instructions, with a wide margin for a loaded box
            othersArrived.countDown();
            for (Future<Principal> f : answers) {
                try {
                    f.get(10, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException refused) {
                    // judged by the caller
                }
            }
            return new ConcurrentArrivals(checks.get(), answers);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anExpiredTokenIsRefused() {
        String token = issuer.sign("42", Set.of(), Duration.ofMinutes(5));
        clock.advance(Duration.ofMinutes(5).plusSeconds(61)); // past the minute of clock skew
        assertRefused(token, "Expired");
    }

    @Test
    void anAcceptedTokenIsNotAcceptedPastItsExpiry() {
        String token = issuer.sign("42", Set.of(), Duration.ofSeconds(30));
        assertThat(readers.authenticate(token).name()).isEqualTo("42");
        clock.advance(Duration.ofSeconds(20));
        assertThat(readers.authenticate(token).name()).as("still valid").isEqualTo("42");
        clock.advance(Duration.ofSeconds(20 + 61));
        assertRefused(token, "Expired");
    }

    @Test
    void anotherIssuerOrAudienceIsRefused() {
        assertRefused(new JwtIssuer(keys, "someone-else", AUDIENCE, clock).sign("42", Set.of(), Duration.ofMinutes(5)), "iss");
        assertRefused(new JwtIssuer(keys, ISSUER, "ingest", clock).sign("42", Set.of(), Duration.ofMinutes(5)), "aud");
    }

    @Test
    void aForeignKeyOrATamperedTokenIsRefused() {
        assertRefused(new JwtIssuer(JwtKeys.newPrivateSet("k1"), ISSUER, AUDIENCE, clock).sign("42", Set.of(), Duration.ofMinutes(5)), "");
        String token = issuer.sign("42", Set.of(), Duration.ofMinutes(5));
        String[] parts = token.split("\\.");
        String otherClaims = issuer.sign("43", Set.of(), Duration.ofMinutes(5)).split("\\.")[1];
        assertRefused(parts[0] + "." + otherClaims + "." + parts[2], "");
        assertRefused("not-a-jwt", "not a JWT");
    }

    @Test
    void eachKeyOfASetChecksItsOwnTokensOnceItsJavaKeyIsKept() {
        String twoKeys = JwtKeys.withNewKey(keys, "k2");
        JwtAuthenticator both = JwtAuthenticator.of(JwtKeys.publicSet(twoKeys), ISSUER, AUDIENCE, clock);
        JwtIssuer byK2 = new JwtIssuer(twoKeys, ISSUER, AUDIENCE, clock);
        for (int reader = 0; reader < 3; reader++) { // new readers: each token checked, its header's key taken from the kept ones
            assertThat(both.authenticate(issuer.sign("k1-" + reader, Set.of(), Duration.ofMinutes(5))).name()).isEqualTo("k1-" + reader);
            assertThat(both.authenticate(byK2.sign("k2-" + reader, Set.of(), Duration.ofMinutes(5))).name()).isEqualTo("k2-" + reader);
        }
        String[] k1 = issuer.sign("44", Set.of(), Duration.ofMinutes(5)).split("\\.");
        String[] k2 = byK2.sign("44", Set.of(), Duration.ofMinutes(5)).split("\\.");
        assertThat(header(issuer.sign("1", Set.of(), Duration.ofMinutes(1)))).contains("\"k1\"");
        assertRefused(both, k2[0] + "." + k2[1] + "." + k1[2]); // k2's header, k1's signature
        assertRefused(both, k1[0] + "." + k1[1] + "." + k2[2]);
        for (int made = 0; made < 100; made++) { // headers naming keys the set does not hold select none, kept or not
            String madeUp = java.util.Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(("{\"kid\":\"x" + made + "\",\"alg\":\"RS256\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertRefused(both, madeUp + "." + k1[1] + "." + k1[2]);
        }
        assertThat(both.authenticate(issuer.sign("45", Set.of(), Duration.ofMinutes(5))).name()).isEqualTo("45");
    }

    @Test
    void theWarmUpsTokensPassEveryCheckAtTheCallersTime() {
        assertThat(JwtAuthenticator.warmUp(3, clock)).isPositive(); // a refused warm-up token throws
        clock.advance(Duration.ofDays(400));
        assertThat(JwtAuthenticator.warmUp(1, clock)).isPositive();
    }

    @Test
    void anUnsignedTokenIsRefused() {
        String token = issuer.sign("42", Set.of(), Duration.ofMinutes(5));
        String[] parts = token.split("\\.");
        String none = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"none\"}".getBytes());
        assertRefused(none + "." + parts[1] + ".", "");
    }

    @Test
    void aRotatedKeyFileIsReadAgain(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("keys.json");
        Files.writeString(file, JwtKeys.publicSet(keys));
        JwtAuthenticator fromFile = JwtAuthenticator.fromFile(file, ISSUER, AUDIENCE, clock);
        assertThat(fromFile.authenticate(issuer.sign("42", Set.of(), Duration.ofMinutes(5))).name()).isEqualTo("42");

        // Rotation: k2 is added and signs new tokens; tokens of k1 still pass until k1 is removed.
        String rotated = JwtKeys.withNewKey(keys, "k2");
        JwtIssuer newIssuer = new JwtIssuer(rotated, ISSUER, AUDIENCE, clock);
        String byK2 = newIssuer.sign("43", Set.of(), Duration.ofMinutes(5));
        assertRefused(fromFile, byK2);
        write(file, JwtKeys.publicSet(rotated), 1);
        clock.advance(Duration.ofSeconds(2));
        assertThat(fromFile.authenticate(byK2).name()).isEqualTo("43");
        String byK1 = issuer.sign("42", Set.of(), Duration.ofMinutes(5));
        assertThat(fromFile.authenticate(byK1).name()).isEqualTo("42");

        write(file, JwtKeys.publicSet(JwtKeys.newPrivateSet("k3")), 2);
        clock.advance(Duration.ofSeconds(2));
        assertRefused(fromFile, byK1);
    }

    private static String header(String token) {
        return new String(java.util.Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))), java.nio.charset.StandardCharsets.UTF_8);
    }

    private static void write(Path file, String text, int generation) throws Exception {
        Files.writeString(file, text);
        Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2030-01-01T00:00:00Z").plusSeconds(generation)));
    }

    private void assertRefused(String token, String detailPart) {
        assertThatThrownBy(() -> readers.authenticate(token)).isInstanceOfSatisfying(ProblemException.class, e -> {
            assertThat(e.problem().status()).isEqualTo(401);
            assertThat(e.problem().detail()).contains(detailPart).doesNotContain(token);
        });
    }

    private static void assertRefused(JwtAuthenticator authenticator, String token) {
        assertThatThrownBy(() -> authenticator.authenticate(token)).isInstanceOfSatisfying(ProblemException.class,
                e -> assertThat(e.problem().status()).isEqualTo(401));
    }

    static final class MutableClock extends Clock {
        private Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override public ZoneOffset getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(java.time.ZoneId zone) { return this; }
        @Override public Instant instant() { return now; }
    }
}
