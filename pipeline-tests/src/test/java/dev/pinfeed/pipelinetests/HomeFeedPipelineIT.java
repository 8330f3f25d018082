package dev.pinfeed.pipelinetests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.Source;
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
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The home feed end to end: every write goes through ingest, every processor runs
 * in this JVM on fresh topics ({@link Pipeline}), and what a user sees is read from
 * {@code GET /v1/users/{id}/feed}. Where a test claims something did <em>not</em> happen, it first
 * waits for proof that the pipeline processed the event that could have made it happen (the same pin
 * reaching a witness, a purge visible in the store), so no assertion depends on a sleep.
 *
 * <p>Covered elsewhere, not repeated here: a failing generator still serves the materialized feed and
 * doubles the next chunk (feed-service's HomeFeedHttpIT, over real HBase and MySQL); kill -9 of the
 * streams app and of the worker mid-batch (fanout-streams' FanoutCrashRestartIT, feed-worker's
 * FeedWorkerCrashIT).
 */
@ExtendWith(StackExtension.class)
class HomeFeedPipelineIT {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    static Path fanoutState;

    private static Pipeline p;

    @BeforeAll
    static void start(TestStack stack) throws Exception {
        p = new Pipeline(stack, fanoutState);
    }

    @AfterAll
    static void stop() {
        if (p != null) p.close();
    }

    @Test
    void aFollowedUsersNewPinReachesTheFollowersFeedHydrated() throws Exception {
        long author = p.user("author");
        long board = p.board(author, "Sunsets");
        long reader = p.user("reader");
        follow(reader, author, p.pin(board, author, "backfilled"));

        long pin = p.pin(board, author, "golden_hour");
        awaitPooled(reader, pin);

        JsonNode item = Pipeline.itemsById(p.feed(reader)).get(pin);
        assertThat(item).as("the new pin in the follower's feed").isNotNull();
        assertThat(item.path("source").asText()).isEqualTo("followed_user");
        assertThat(item.path("score").asDouble()).isPositive();
        JsonNode pinJson = item.path("pin");
        assertThat(pinJson.path("id").asText()).isEqualTo(Long.toString(pin));
        assertThat(pinJson.path("boardId").isTextual()).isTrue();
        assertThat(pinJson.path("boardId").asText()).isEqualTo(Long.toString(board));
        assertThat(pinJson.path("authorId").isTextual()).isTrue();
        assertThat(pinJson.path("authorId").asText()).isEqualTo(Long.toString(author));
        assertThat(pinJson.path("details").asText()).isEqualTo("golden_hour");
        assertThat(pinJson.path("link").asText()).isEqualTo("https://example.com/golden_hour");

        // Served once, it lives on in the materialized feed: gone from the pools, still in the next view.
        drain();
        assertThat(p.pooled(reader)).doesNotContain(pin);
        assertThat(Pipeline.itemsById(p.feed(reader))).containsKey(pin);
    }

    /** The quiet pools end to end: a reader's first pages stop reading his emptied pools, and the fan-out's next pin ends that. */
    @Test
    void aReaderWhosePoolsWereMarkedQuietGetsAFollowedUsersNextPinOnHisNextFirstPage() throws Exception {
        long author = p.user("author");
        long board = p.board(author, "Harbours");
        long reader = p.user("reader");
        long backfilled = p.pin(board, author, "backfilled");
        follow(reader, author, backfilled);
        assertThat(Pipeline.itemsById(p.feed(reader))).containsKey(backfilled);
        drain();
        assertThat(p.pooled(reader)).isEmpty();
        Pipeline.itemsById(p.feed(reader)); // finds nothing new: marks his pools quiet
        drain();
        assertThat(p.quietPools.look(reader).quiet()).as("marked quiet by the empty generation").isTrue();

        long pin = p.pin(board, author, "lighthouse");
        awaitPooled(reader, pin);
        assertThat(Pipeline.itemsById(p.feed(reader))).as("the worker's write ended the quiet").containsKeys(pin, backfilled);
    }

    @Test
    void aFollowedBoardsPinsArriveAsFollowedBoardForAUserWhoFollowsOnlyTheBoard() throws Exception {
        long author = p.user("author");
        long followed = p.board(author, "Kitchens");
        long other = p.board(author, "Cars");
        long reader = p.user("reader");
        long witness = p.user("witness");
        follow(witness, author, p.pin(other, author, "anchor"));
        follow(new IngestCommand.FollowBoard(reader, followed), () -> p.graph.store().followsBoard(reader, followed), reader,
                p.pin(followed, author, "board_anchor"));

        long onFollowed = p.pin(followed, author, "marble");
        long onOther = p.pin(other, author, "roadster");
        awaitPooled(witness, onFollowed, onOther); // both fanned out and written: the reader's share is decided
        awaitPooled(reader, onFollowed);
        assertThat(p.pooled(reader)).doesNotContain(onOther);

        Map<Long, JsonNode> feed = Pipeline.itemsById(p.feed(reader));
        assertThat(feed).containsKey(onFollowed).doesNotContainKey(onOther);
        assertThat(feed.get(onFollowed).path("source").asText()).isEqualTo("followed_board");
        assertThat(feed.values()).allSatisfy(i -> assertThat(i.path("source").asText()).isEqualTo("followed_board"));
        assertThat(feed.get(onFollowed).path("pin").path("boardId").asText()).isEqualTo(Long.toString(followed));
    }

    @Test
    void unfollowingOneBoardOfAFollowedUserStopsThatBoardAndPurgesItsPinsWhileTheOtherBoardKeepsArriving() throws Exception {
        long author = p.user("author");
        long dropped = p.board(author, "Memes");
        long kept = p.board(author, "Hiking");
        long reader = p.user("reader");
        long witness = p.user("witness");
        long anchor = p.pin(kept, author, "anchor");
        follow(reader, author, anchor);
        follow(witness, author, anchor);

        Served before = serveOneKeepOne(reader, dropped, author);
        p.send(new IngestCommand.UnfollowBoard(reader, dropped));
        awaitGraph(() -> !p.graph.store().followsBoard(reader, dropped));
        awaitGone(reader, before);

        long afterOnDropped = p.pin(dropped, author, "meme_after");
        long afterOnKept = p.pin(kept, author, "trail_after");
        awaitPooled(witness, afterOnDropped, afterOnKept);
        awaitPooled(reader, afterOnKept);
        assertThat(p.pooled(reader)).doesNotContain(afterOnDropped);

        Map<Long, JsonNode> feed = Pipeline.itemsById(p.feed(reader));
        assertThat(feed).containsKeys(anchor, afterOnKept).doesNotContainKeys(before.served(), before.pooled(), afterOnDropped);
        assertThat(feed.get(afterOnKept).path("source").asText()).isEqualTo("followed_user");
    }

    @Test
    void aDeletedPinIsGoneFromPoolsMaterializedFeedAndFeed() throws Exception {
        long author = p.user("author");
        long board = p.board(author, "Ephemera");
        long reader = p.user("reader");
        long anchor = p.pin(board, author, "anchor");
        follow(reader, author, anchor);
        Served pins = serveOneKeepOne(reader, board, author);

        p.send(new IngestCommand.DeletePin(pins.served()));
        p.send(new IngestCommand.DeletePin(pins.pooled()));
        awaitGone(reader, pins); // the worker's purge (the fan-out's REMOVE chunks), seen before any read could hydrate them away

        await().atMost(PATIENCE).until(() -> p.reads.pin(pins.served()).isEmpty() && p.reads.pin(pins.pooled()).isEmpty());
        Map<Long, JsonNode> feed = Pipeline.itemsById(p.feed(reader));
        assertThat(feed).containsKey(anchor).doesNotContainKeys(pins.served(), pins.pooled());
    }

    @Test
    void unfollowingAUserTakesHisPinsOutOfTheFollowersPoolsAndFeed() throws Exception {
        long author = p.user("author");
        long board = p.board(author, "Gardens");
        long reader = p.user("reader");
        long anchor = p.pin(board, author, "anchor");
        follow(reader, author, anchor);
        Served pins = serveOneKeepOne(reader, board, author);

        p.send(new IngestCommand.UnfollowUser(reader, author));
        awaitGraph(() -> p.graph.store().relation(reader, author) == UserRelation.NONE);
        awaitGone(reader, pins);
        assertThat(p.pooled(reader)).doesNotContain(anchor);
        assertThat(materialized(reader)).doesNotContain(anchor);

        assertThat(Pipeline.itemsById(p.feed(reader))).doesNotContainKeys(anchor, pins.served(), pins.pooled());
    }

    @Test
    void aFollowedUsersRepinArrivesAsRepinsNamingItsParentWhichCountsItAndASiblingRepinIsNotShownAgain() throws Exception {
        long author = p.user("author");
        long authorsBoard = p.board(author, "Originals");
        long saver = p.user("saver");
        long saversBoard = p.board(saver, "Saved");
        long other = p.user("other_saver");
        long othersBoard = p.board(other, "Also saved");
        long reader = p.user("reader"); // follows the savers, not the author
        long parent = p.pin(authorsBoard, author, "original");
        follow(reader, saver, p.pin(saversBoard, saver, "saver_anchor"));
        follow(reader, other, p.pin(othersBoard, other, "other_anchor"));
        await().atMost(PATIENCE).until(() -> p.reads.pin(parent).isPresent()); // ingest copies the parent's content from it

        long repin = p.send(new IngestCommand.RepinPin(parent, saversBoard, saver));
        awaitPooled(reader, repin);
        assertThat(p.pools.all(reader)).filteredOn(e -> e.pinId() == repin).singleElement()
                .satisfies(e -> assertThat(e.source()).isEqualTo(Source.REPINS));

        JsonNode item = Pipeline.itemsById(p.feed(reader)).get(repin);
        assertThat(item).as("the repin in the follower's feed").isNotNull();
        assertThat(item.path("source").asText()).isEqualTo("repins");
        assertThat(item.path("pin").path("parentPinId").asText()).isEqualTo(Long.toString(parent));
        assertThat(item.path("pin").path("boardId").asText()).isEqualTo(Long.toString(saversBoard));
        assertThat(item.path("pin").path("authorId").asText()).isEqualTo(Long.toString(saver));
        assertThat(item.path("pin").path("details").asText()).as("copied from the parent").isEqualTo("original");
        assertThat(item.path("pin").path("link").asText()).isEqualTo("https://example.com/original");
        await().atMost(PATIENCE).until(() -> p.reads.pin(parent).orElseThrow().repins() == 1);
        drain();

        // Another followed user saves the same parent: it reaches the reader's pool, but he saw that parent already.
        long sibling = p.send(new IngestCommand.RepinPin(parent, othersBoard, other));
        awaitPooled(reader, sibling);
        await().atMost(PATIENCE).until(() -> p.reads.pin(parent).orElseThrow().repins() == 2);
        Map<Long, JsonNode> feed = Pipeline.itemsById(p.feed(reader));
        assertThat(feed).containsKey(repin).doesNotContainKeys(sibling, parent);
        drain();
        assertThat(p.pooled(reader)).as("dropped from the pools").doesNotContain(sibling);
        assertThat(materialized(reader)).contains(repin).doesNotContain(sibling);
        assertThat(Pipeline.itemsById(p.feed(reader))).doesNotContainKey(sibling);
    }

    // ---- steps ----

    /** Two pins of {@code board}: one already served (in the materialized feed), one still in the reader's pool. */
    private record Served(long served, long pooled) {}

    private Served serveOneKeepOne(long reader, long board, long author) throws Exception {
        long served = p.pin(board, author, "served");
        awaitPooled(reader, served);
        assertThat(Pipeline.itemsById(p.feed(reader))).containsKey(served);
        drain();
        assertThat(materialized(reader)).contains(served);
        long pooled = p.pin(board, author, "pooled");
        awaitPooled(reader, pooled);
        return new Served(served, pooled);
    }

    /**
     * {@code follower} follows {@code author}; returns once the graph shows it and the worker has applied it:
     * {@code earlierPin} (an existing pin of the author) arrived in his pool through the follow's backfill.
     */
    private void follow(long follower, long author, long earlierPin) {
        follow(new IngestCommand.FollowUser(follower, author), () -> p.graph.store().relation(follower, author) == UserRelation.EXPLICIT,
                follower, earlierPin);
    }

    /** {@link #follow(long, long, long)} for any follow: {@code graphShows} tells when the graph has it. */
    private void follow(IngestCommand follow, BooleanSupplier graphShows, long follower, long earlierPin) {
        await().atMost(PATIENCE).until(() -> p.reads.pin(earlierPin).isPresent()); // the backfill reads the canonical store
        p.send(follow);
        awaitGraph(graphShows);
        awaitPooled(follower, earlierPin);
    }

    /** Until the follower graph shows the edge change: the fan-out reads receivers from it. */
    private static void awaitGraph(BooleanSupplier applied) {
        await().atMost(PATIENCE).until(applied::getAsBoolean);
    }

    /** Until every pin is in the user's pools and in the canonical store (so a feed read can hydrate it, not drop it). */
    private static void awaitPooled(long user, long... pins) {
        List<Long> wanted = java.util.Arrays.stream(pins).boxed().toList();
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(p.pooled(user)).containsAll(wanted));
        await().atMost(PATIENCE).until(() -> wanted.stream().allMatch(pin -> p.reads.pin(pin).isPresent()));
    }

    /** Until the served pin left the materialized feed and the pooled one the pools, read in the stores. */
    private static void awaitGone(long user, Served pins) {
        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(p.pooled(user)).doesNotContain(pins.pooled(), pins.served());
            assertThat(materialized(user)).doesNotContain(pins.pooled(), pins.served());
        });
    }

    private static void drain() throws InterruptedException {
        assertThat(p.threads.drain(30_000)).as("post-answer work done").isTrue();
    }


    private static Set<Long> materialized(long user) {
        return p.feeds.all(user).stream().map(i -> i.item().pinId()).collect(Collectors.toSet());
    }

}
