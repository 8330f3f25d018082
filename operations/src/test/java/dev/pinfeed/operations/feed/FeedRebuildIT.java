package dev.pinfeed.operations.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.contentgenerator.ContentGenerator;
import dev.pinfeed.contentgenerator.GeneratorSettings;
import dev.pinfeed.feedservice.HomeFeedThreads;
import dev.pinfeed.feedservice.homefeed.HomeFeed;
import dev.pinfeed.feedservice.homefeed.HomeFeedSettings;
import dev.pinfeed.feedstore.Chunk;
import dev.pinfeed.feedstore.FeedItem;
import dev.pinfeed.feedstore.GeneratorState;
import dev.pinfeed.feedstore.InMemoryPoolStore;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolRows;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.redis.RedisLastReadStore;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code ./pinfeed feed rebuild --user} against the real stack: a user with junk and damage in his pools, a
 * materialized feed, a pending chunk and a state; afterwards his view is reset (only his last read kept),
 * his pools hold the newest pins of what he follows, and his next first page serves them.
 */
@ExtendWith(StackExtension.class)
class FeedRebuildIT {

    @Test
    void aRebuiltUsersViewIsResetAndHisNextFirstPageServesPinsOfWhatHeFollows(TestStack stack) throws Exception {
        try (HomeFeedStack f = new HomeFeedStack(stack)) {
            long reader = f.user(), author = f.user(), owner = f.user(), stranger = f.user();
            long authorsBoard = f.board(author), ownersBoard = f.board(owner), strangersBoard = f.board(stranger);
            f.follow(reader, author);
            f.followBoard(reader, ownersBoard, owner);
            long now = System.currentTimeMillis();
            long a1 = f.pin(authorsBoard, author, now - 30_000);
            long a2 = f.pin(authorsBoard, author, now - 20_000);
            long a3 = f.pin(authorsBoard, author, now - 10_000);
            long b1 = f.pin(ownersBoard, owner, now - 15_000);
            long junk = f.pin(strangersBoard, stranger, now - 5_000);

            PoolEntry damaged = new PoolEntry(reader, Source.FOLLOWED_USER, 0.5, a1, author, authorsBoard, now - 30_000);
            f.pools.upsert(List.of(new PoolEntry(reader, Source.FOLLOWED_USER, 7.0, junk, stranger, strangersBoard, now - 5_000), damaged));
            f.pools.deleteEntryRows(List.of(damaged));
            f.feeds.materialize(new Chunk(reader, 1_000, List.of(new FeedItem(junk, Source.FOLLOWED_USER, 7.0, stranger, strangersBoard),
                    new FeedItem(a1, Source.FOLLOWED_USER, 0.5, author, authorsBoard))));
            f.feeds.journal(new Chunk(reader, 2_000, List.of(new FeedItem(a2, Source.FOLLOWED_USER, 0.6, author, authorsBoard))));
            long lastRead = now - 3_600_000;
            f.feeds.saveState(reader, new GeneratorState(100, lastRead, 2));
            PoolRows.UserRows before = f.pools.rows(reader);

            HomeFeedStack.Run dry = f.run("feed", "rebuild", "--user", Long.toString(reader), "--dry-run");
            assertThat(dry.code()).as("%s %s", dry.out(), dry.err()).isZero();
            assertThat(dry.out()).contains("user " + reader + ": had 1 pool entries (1 damaged rows), 2 feed items, 1 pending chunks; would regenerate 4");
            assertThat(f.pools.rows(reader)).as("a dry run changes nothing").isEqualTo(before);
            assertThat(f.feeds.all(reader)).hasSize(2);
            assertThat(f.feeds.state(reader)).contains(new GeneratorState(100, lastRead, 2));

            HomeFeedStack.Run run = f.run("feed", "rebuild", "--user", Long.toString(reader));
            assertThat(run.code()).as("%s %s", run.out(), run.err()).isZero();
            assertThat(run.out()).contains("rebuilt 1 users", "4 pool entries regenerated");

            assertThat(f.feeds.all(reader)).as("no item left").isEmpty();
            assertThat(f.feeds.pending(reader)).as("no journaled chunk left").isEmpty();
            assertThat(f.feeds.state(reader)).as("only the last read kept").contains(new GeneratorState(0, lastRead, 0));
            PoolRows.UserRows rows = f.pools.rows(reader);
            assertThat(rows.orphans()).isEmpty();
            assertThat(rows.dangling()).isEmpty();
            Map<Long, Source> pooled = rows.live().stream().collect(Collectors.toMap(PoolEntry::pinId, PoolEntry::source));
            assertThat(pooled).isEqualTo(Map.of(a1, Source.FOLLOWED_USER, a2, Source.FOLLOWED_USER, a3, Source.FOLLOWED_USER, b1, Source.FOLLOWED_BOARD));

            HomeFeedStack.Run verify = f.run("verify", "pools", "--users", Long.toString(reader), "--worker-group", f.group, "--fanout-topic", f.fanout);
            assertThat(verify.code()).as("the rebuilt pools hold only pins he receives; %s %s", verify.out(), verify.err()).isZero();

            InMemoryPoolStore model = new InMemoryPoolStore();
            model.upsert(rows.live());
            List<Long> want = new ContentGenerator(model, GeneratorSettings.from(f.config)).generate(reader, HomeFeedSettings.from(f.config).chunkSize())
                    .items().stream().map(FeedItem::pinId).toList();
            try (HomeFeedThreads threads = new HomeFeedThreads(2, 1000); RedisLastReadStore lastReads = f.lastReads()) {
                HomeFeed feed = f.homeFeed(threads, lastReads);
                HomeFeed.Page page = feed.read(reader, null, 25);
                assertThat(page.items()).extracting(i -> i.pin().id()).as("a new chunk of his followees' pins, and nothing else")
                        .containsExactlyElementsOf(want).containsExactlyInAnyOrder(a1, a2, a3, b1);
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                        assertThat(f.feeds.all(reader)).extracting(p -> p.item().pinId()).containsExactlyElementsOf(want));
            }
        }
    }

    /**
     * A delivery the regeneration leaves out (the author's 11th newest pin: it takes his 10 newest) goes with the
     * rebuild, and verify pools, which expected every applied delivery, no longer expects it.
     */
    @Test
    void verifyPoolsExpectsNothingDeliveredBeforeARebuild(TestStack stack) throws Exception {
        try (HomeFeedStack f = new HomeFeedStack(stack); AutoCloseable worker = f.startWorker()) {
            long reader = f.user(), author = f.user();
            long board = f.board(author);
            f.follow(reader, author);
            long now = System.currentTimeMillis();
            long oldest = f.pin(board, author, now - 60_000);
            for (int i = 10; i > 0; i--) f.pin(board, author, now - i * 1_000L);
            f.deliver(oldest, board, author, now - 60_000, Map.of(reader, Source.FOLLOWED_USER));
            await().atMost(Duration.ofSeconds(60)).until(() -> f.pools.all(reader).size() == 1 && f.workerCaughtUp());

            String[] verify = {"verify", "pools", "--users", Long.toString(reader), "--worker-group", f.group, "--fanout-topic", f.fanout};
            assertThat(f.run(verify).code()).as("the delivery is in his pools").isZero();
            HomeFeedStack.Run run = f.run("feed", "rebuild", "--user", Long.toString(reader));
            assertThat(run.code()).as("%s %s", run.out(), run.err()).isZero();
            assertThat(f.pools.all(reader)).extracting(PoolEntry::pinId).as("his author's 10 newest").hasSize(10).doesNotContain(oldest);

            HomeFeedStack.Run after = f.run(verify);
            assertThat(after.code()).as("%s %s", after.out(), after.err()).isZero();
            assertThat(after.out()).contains("1 before-rebuild");
        }
    }
}
