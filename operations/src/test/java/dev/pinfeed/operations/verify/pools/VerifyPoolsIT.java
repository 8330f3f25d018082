package dev.pinfeed.operations.verify.pools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.canonicalstore.reads.CanonicalPin;
import dev.pinfeed.contentgenerator.ContentGenerator;
import dev.pinfeed.contentgenerator.GeneratorSettings;
import dev.pinfeed.feedservice.HomeFeedThreads;
import dev.pinfeed.feedservice.homefeed.HomeFeed;
import dev.pinfeed.feedservice.homefeed.HomeFeedSettings;
import dev.pinfeed.feedstore.FeedItem;
import dev.pinfeed.feedstore.InMemoryPoolStore;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolRows;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.redis.RedisLastReadStore;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.operations.feed.HomeFeedStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code ./pinfeed verify pools} against the real stack: pools built by the feed worker from fan-out chunks on a
 * fresh topic, checked clean; then damaged by hand (an entry row, an index row, an entry for a user who does not
 * follow, an entry of a deleted pin, a delivered pin lost whole): the check names exactly that, {@code --repair}
 * fixes it, the check is clean again, and the reader's home feed answers as the undamaged pools would have.
 */
@ExtendWith(StackExtension.class)
class VerifyPoolsIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** (kind, user, pin) of each difference the JSON result lists. */
    private static Set<String> differences(JsonNode result, String pass) {
        Set<String> out = new TreeSet<>();
        result.get(pass).get("first").forEach(d -> out.add(d.get("kind").asText() + " " + d.get("user").asLong() + " " + d.get("pin").asLong()));
        return out;
    }

    private static JsonNode result(HomeFeedStack.Run run) throws Exception {
        List<String> lines = run.out().lines().filter(l -> l.contains("\"task\":\"verify pools\"") && l.contains("\"differences\"")).toList();
        assertThat(lines).as("the JSON result line; stdout: %s stderr: %s", run.out(), run.err()).hasSize(1);
        return JSON.readTree(lines.get(0));
    }

    @Test
    void damageIsNamedExactlyRepairedAndTheFeedAnswersAsTheUndamagedPoolsWould(TestStack stack) throws Exception {
        try (HomeFeedStack f = new HomeFeedStack(stack); AutoCloseable worker = f.startWorker()) {
            long reader = f.user(), lonely = f.user(), other = f.user();
            long author = f.user(), owner = f.user(), stranger = f.user();
            long authorsBoard = f.board(author), ownersBoard = f.board(owner), strangersBoard = f.board(stranger);
            f.follow(reader, author);
            f.followBoard(reader, ownersBoard, owner);
            f.follow(other, author);
            long now = System.currentTimeMillis();
            List<Long> byAuthor = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                long createdAt = now - (5 - i) * 60_000L;
                long p = f.pin(authorsBoard, author, createdAt);
                byAuthor.add(p);
                f.deliver(p, authorsBoard, author, createdAt, Map.of(reader, Source.FOLLOWED_USER, other, Source.FOLLOWED_USER));
            }
            List<Long> byOwner = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                long createdAt = now - (3 - i) * 10_000L;
                long p = f.pin(ownersBoard, owner, createdAt);
                byOwner.add(p);
                f.deliver(p, ownersBoard, owner, createdAt, Map.of(reader, Source.FOLLOWED_BOARD));
            }
            long strangersPin = f.pin(strangersBoard, stranger, now - 10_000);

            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).until(() -> f.pools.all(reader).size() == 7
                    && f.pools.all(other).size() == 5 && f.workerCaughtUp());
            List<PoolEntry> undamaged = f.pools.rows(reader).live();
            String users = reader + "," + lonely + "," + other;

            HomeFeedStack.Run clean = f.run("verify", "pools", "--users", users, "--worker-group", f.group, "--fanout-topic", f.fanout, "--json");
            assertThat(clean.code()).as("a clean check exits 0; %s %s", clean.out(), clean.err()).isZero();
            JsonNode cleanResult = result(clean);
            assertThat(cleanResult.get("differences").get("total").asLong()).isZero();
            assertThat(cleanResult.get("counts").get("deliveries").asLong()).isEqualTo(12);
            assertThat(cleanResult.get("counts").get("in-pools").asLong()).isEqualTo(12);

            // The damage.
            PoolEntry lostRow = entryOf(undamaged, byAuthor.get(0));
            PoolEntry lostIndex = entryOf(undamaged, byOwner.get(0));
            f.pools.deleteEntryRows(List.of(lostRow));
            f.pools.deleteIndexRows(reader, List.of(lostIndex.pinId()));
            f.pools.upsert(List.of(new PoolEntry(reader, Source.FOLLOWED_USER, 9.0, strangersPin, stranger, strangersBoard, now - 10_000),
                    new PoolEntry(lonely, Source.FOLLOWED_USER, 1.0, byAuthor.get(1), author, authorsBoard, now)));
            long deleted = byAuthor.get(4);
            f.canonical.deletePin(deleted); // deleted without its REMOVE chunk: the entries stay behind
            long lostWhole = byAuthor.get(2);
            PoolEntry otherLost = entryOf(f.pools.rows(other).live(), lostWhole);
            f.pools.deleteEntryRows(List.of(otherLost));
            f.pools.deleteIndexRows(other, List.of(lostWhole));

            HomeFeedStack.Run damaged = f.run("verify", "pools", "--users", users, "--worker-group", f.group, "--fanout-topic", f.fanout, "--json");
            assertThat(damaged.code()).as("differences exit 1; %s", damaged.err()).isEqualTo(1);
            assertThat(differences(result(damaged), "differences")).containsExactlyInAnyOrder(
                    "dangling-index " + reader + " " + byAuthor.get(0),
                    "missing " + reader + " " + byOwner.get(0), // its index row lost: its row is an orphan, no entry
                    "extra " + reader + " " + strangersPin,
                    "deleted-pin " + reader + " " + deleted,
                    "extra " + lonely + " " + byAuthor.get(1),
                    "deleted-pin " + other + " " + deleted,
                    "missing " + other + " " + lostWhole);
            HomeFeedStack.Run human = f.run("verify", "pools", "--users", users, "--worker-group", f.group, "--fanout-topic", f.fanout);
            assertThat(human.code()).isEqualTo(1);
            assertThat(human.out()).contains("dangling-index: 1", "extra: 2", "deleted-pin: 2", "missing: 2", "7 differences", "and 1 orphan rows");

            HomeFeedStack.Run repaired = f.run("verify", "pools", "--users", users, "--worker-group", f.group, "--fanout-topic", f.fanout,
                    "--repair", "--json");
            assertThat(repaired.code()).as("nothing left after the repair; %s %s", repaired.out(), repaired.err()).isZero();
            JsonNode repairResult = result(repaired);
            assertThat(repairResult.get("differences").get("total").asLong()).isEqualTo(7);
            assertThat(repairResult.get("afterRepair").get("total").asLong()).isZero();

            HomeFeedStack.Run again = f.run("verify", "pools", "--users", users, "--worker-group", f.group, "--fanout-topic", f.fanout, "--json");
            assertThat(again.code()).as("%s %s", again.out(), again.err()).isZero();
            assertThat(result(again).get("differences").get("total").asLong()).isZero();
            HomeFeedStack.Run secondRepair = f.run("verify", "pools", "--users", users, "--worker-group", f.group, "--fanout-topic", f.fanout,
                    "--repair", "--json");
            assertThat(result(secondRepair).get("usersRepaired").asLong()).as("a repair of clean pools does nothing").isZero();

            List<PoolEntry> expected = undamaged.stream().filter(e -> e.pinId() != deleted).toList();
            PoolRows.UserRows after = f.pools.rows(reader);
            assertThat(after.live()).as("the reader's entries as the worker wrote them, scores included; the missing one rescored")
                    .filteredOn(e -> e.pinId() != lostIndex.pinId())
                    .containsExactlyInAnyOrderElementsOf(expected.stream().filter(e -> e.pinId() != lostIndex.pinId()).toList());
            assertThat(after.live()).extracting(PoolEntry::pinId, PoolEntry::source)
                    .containsExactlyInAnyOrderElementsOf(expected.stream().map(e -> tuple(e.pinId(), e.source())).toList());
            assertThat(after.orphans()).isEmpty();
            assertThat(after.dangling()).isEmpty();
            assertThat(f.pools.rows(lonely).isEmpty()).isTrue();
            assertThat(f.pools.all(other)).extracting(PoolEntry::pinId).contains(lostWhole).doesNotContain(deleted);

            // The home feed: what the content generator makes of the repaired pools (the deleted pin never shows).
            InMemoryPoolStore model = new InMemoryPoolStore();
            model.upsert(after.live());
            int chunk = HomeFeedSettings.from(f.config).chunkSize();
            List<Long> want = new ContentGenerator(model, GeneratorSettings.from(f.config)).generate(reader, chunk).items().stream()
                    .map(FeedItem::pinId).toList();
            try (HomeFeedThreads threads = new HomeFeedThreads(2, 1000); RedisLastReadStore lastReads = f.lastReads()) {
                HomeFeed feed = f.homeFeed(threads, lastReads);
                List<Long> served = feed.read(reader, null, 25).items().stream().map(HomeFeed.Item::pin).map(CanonicalPin::id).toList();
                assertThat(served).containsExactlyElementsOf(want);
                assertThat(served).hasSize(6).doesNotContain(deleted, strangersPin);
            }
        }
    }

    private static PoolEntry entryOf(List<PoolEntry> entries, long pin) {
        return entries.stream().filter(e -> e.pinId() == pin).findFirst().orElseThrow();
    }
}
