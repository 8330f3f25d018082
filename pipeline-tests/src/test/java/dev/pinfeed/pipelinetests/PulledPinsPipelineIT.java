package dev.pinfeed.pipelinetests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pinfeed.feedstore.CelebrityPins.RecentPin;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.followergraph.UserRelation;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.ingestapi.core.IngestCommand;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins pulled at read time instead of fanned out, end to end ({@link Pipeline}, every processor in this JVM on fresh
 * topics). Celebrities: with
 * {@code fanout.celebrity-followers} lowered to 3, an author's pin is recorded once in the celebrity-pins
 * store (Redis) and written to no follower's pool; a follower's next feed read pulls it and serves it as
 * {@code followed_user}. After an unfollow a new pin of his is not pulled for that reader (another follower
 * still gets it), and a deleted pin is pulled by nobody. "Not happened" claims wait first for the proof that
 * the pipeline processed the event (the pin recorded, the follow in the graph, another reader seeing it). Popular
 * interests: with {@code fanout.popular-interest-followers} at 3, a pin carrying one is recorded under it and written to
 * none of its followers' pools; a follower's read pulls it as {@code interests}, a follower who gets it through the board
 * keeps {@code followed_user}, and a deleted one is pulled by nobody.
 */
@ExtendWith(StackExtension.class)
class PulledPinsPipelineIT {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    static Path fanoutState;

    private static Pipeline p;
    private static TestStack stack;

    @BeforeAll
    static void start(TestStack stack) throws Exception {
        // The celebrity and popular sets are read on every pull here, so a test never waits out their cache.
        p = new Pipeline(stack, fanoutState, Map.of("fanout.celebrity-followers", "3", "fanout.popular-interest-followers", "3",
                "feed.celebrity.set-cache-ms", "0"));
        PulledPinsPipelineIT.stack = stack;
    }

    @AfterAll
    static void stop() {
        if (p != null) p.close();
    }

    @Test
    void aCelebritysPinIsPulledAtReadTimeWithoutPoolWritesAndNeitherAnUnfollowerNorADeletionGetsOne() throws Exception {
        long star = p.user("star");
        long board = p.board(star, "Stage");
        long reader = p.user("reader");
        List<Long> others = List.of(p.user("fan"), p.user("fan"), p.user("fan"));
        List<Long> followers = List.of(reader, others.get(0), others.get(1), others.get(2));
        // An earlier pin (no followers yet: no fan-out), so each follow's backfill proves the worker applied it
        // before the celebrity's pin exists: a backfill running later would pool that pin too.
        long anchor = p.pin(board, star, "anchor");
        await().atMost(PATIENCE).until(() -> p.reads.pin(anchor).isPresent());
        for (long f : followers) p.send(new IngestCommand.FollowUser(f, star));
        await().atMost(PATIENCE).until(() -> p.graph.store().counts(star).followers() == 4); // a celebrity from 3
        for (long f : followers) await().atMost(PATIENCE).until(() -> p.pooled(f).contains(anchor));

        long pin = p.pin(board, star, "encore");
        awaitRecorded(star, pin);
        await().atMost(PATIENCE).until(() -> p.reads.pin(pin).isPresent());
        // Recorded means its fan-out is over (it ended there): no follower's pool has an entry of it.
        for (long f : followers) assertThat(p.pooled(f)).as("pool of follower %d", f).containsExactly(anchor);
        // One entry for the pin (the anchor may have one too: its fan-out may have started after the follows).
        assertThat(p.celebrityPins.recent(List.of(star), 0).get(star)).as("one entry per pin").filteredOn(r -> r.pinId() == pin).hasSize(1);
        assertThat(p.celebrityPins.celebrities()).containsExactly(star);

        JsonNode item = Pipeline.itemsById(p.feed(reader)).get(pin);
        assertThat(item).as("the pulled pin in the follower's feed").isNotNull();
        assertThat(item.path("source").asText()).isEqualTo("followed_user");
        assertThat(item.path("score").asDouble()).isPositive();
        assertThat(item.path("pin").path("authorId").asText()).isEqualTo(Long.toString(star));
        assertThat(p.threads.drain(30_000)).isTrue();
        assertThat(Pipeline.itemsById(p.feed(reader))).as("shown once: in the materialized feed, not pulled again").containsOnlyKeys(pin, anchor);
        assertThat(p.pooled(reader)).isEmpty();

        // The reader unfollows: still a celebrity (3 followers), his next pin reaches the others, not him.
        p.send(new IngestCommand.UnfollowUser(reader, star));
        await().atMost(PATIENCE).until(() -> p.graph.store().relation(reader, star) == UserRelation.NONE);
        long afterUnfollow = p.pin(board, star, "after_unfollow");
        awaitRecorded(star, afterUnfollow);
        await().atMost(PATIENCE).until(() -> p.reads.pin(afterUnfollow).isPresent());
        assertThat(Pipeline.itemsById(p.feed(others.get(0)))).containsKey(afterUnfollow);
        assertThat(Pipeline.itemsById(p.feed(reader))).doesNotContainKey(afterUnfollow);

        // A deleted pin leaves the store, and no follower's read pulls it.
        long deleted = p.pin(board, star, "withdrawn");
        awaitRecorded(star, deleted);
        p.send(new IngestCommand.DeletePin(deleted));
        await().atMost(PATIENCE).until(() -> p.celebrityPins.recent(List.of(star), 0).get(star).stream().noneMatch(r -> r.pinId() == deleted));
        assertThat(Pipeline.itemsById(p.feed(others.get(1)))).containsKey(afterUnfollow).doesNotContainKey(deleted);
        assertThat(p.pools.all(others.get(1))).noneMatch(e -> e.pinId() == deleted);
    }

    @Test
    void aPopularInterestsPinIsPulledAsInterestsWithoutPoolWritesTheBoardsReceiverKeepsHisSourceAndADeletionReachesNobody() throws Exception {
        long wood = p.send(new IngestCommand.CreateInterest("woodworking-" + Long.toString(stack.freshId(), 36)));
        long author = p.user("maker");
        long board = p.board(author, "Workshop");
        List<Long> readers = List.of(p.user("reader"), p.user("reader"), p.user("reader"));
        long fan = p.user("fan"); // follows the interest and the author: gets the pin pushed, as followed_user
        for (long r : readers) p.send(new IngestCommand.FollowInterest(r, wood));
        p.send(new IngestCommand.FollowInterest(fan, wood));
        p.send(new IngestCommand.FollowUser(fan, author));
        await().atMost(PATIENCE).until(() -> p.graph.store().interestFollowerCount(wood) == 4
                && p.graph.store().relation(fan, author) == UserRelation.EXPLICIT); // popular from 3

        long pin = p.send(new IngestCommand.CreatePin(board, author, "dovetail", null, null, List.of(wood)));
        awaitRecordedUnder(wood, pin);
        await().atMost(PATIENCE).until(() -> p.pooled(fan).contains(pin) && p.reads.pin(pin).isPresent());
        // Recorded means the interest's part of the walk is over: none of its followers' pools has an entry of it.
        for (long r : readers) assertThat(p.pooled(r)).as("pool of follower %d", r).doesNotContain(pin);
        assertThat(p.interestPins.popular()).contains(wood);
        RecentPin recorded = p.interestPins.recent(List.of(wood), 0, 200).get(wood).get(0);
        assertThat(recorded.authorId()).isEqualTo(author);
        assertThat(recorded.boardId()).isEqualTo(board);

        JsonNode item = Pipeline.itemsById(p.feed(readers.get(0))).get(pin);
        assertThat(item).as("the pulled pin in the follower's feed").isNotNull();
        assertThat(item.path("source").asText()).isEqualTo("interests");
        assertThat(item.path("score").asDouble()).isPositive();
        JsonNode fans = Pipeline.itemsById(p.feed(fan)).get(pin);
        assertThat(fans.path("source").asText()).as("the board's receiver keeps his source").isEqualTo("followed_user");

        long deleted = p.send(new IngestCommand.CreatePin(board, author, "withdrawn", null, null, List.of(wood)));
        awaitRecordedUnder(wood, deleted);
        p.send(new IngestCommand.DeletePin(deleted));
        await().atMost(PATIENCE).until(() -> p.interestPins.recent(List.of(wood), 0, 200).get(wood).stream().noneMatch(r -> r.pinId() == deleted));
        assertThat(Pipeline.itemsById(p.feed(readers.get(1)))).containsKey(pin).doesNotContainKey(deleted);
        assertThat(p.pools.all(readers.get(1))).noneMatch(e -> e.pinId() == deleted);
    }

    private static void awaitRecordedUnder(long interest, long pin) {
        await().atMost(PATIENCE).until(() -> p.interestPins.recent(List.of(interest), 0, 200).getOrDefault(interest, List.of()).stream()
                .map(RecentPin::pinId).anyMatch(id -> id == pin));
    }

    private static void awaitRecorded(long author, long pin) {
        await().atMost(PATIENCE).until(() -> p.celebrityPins.recent(List.of(author), 0).getOrDefault(author, List.of()).stream()
                .map(RecentPin::pinId).anyMatch(id -> id == pin));
    }


}
