package dev.pinfeed.operations.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedservice.HomeFeedThreads;
import dev.pinfeed.feedservice.homefeed.HomeFeed;
import dev.pinfeed.feedstore.FeedPage;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.redis.RedisLastReadStore;
import dev.pinfeed.feedworker.process.FeedWorkerMain;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.operations.CliRun;
import dev.pinfeed.operations.InProcessProcessor;
import dev.pinfeed.operations.feed.HomeFeedStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code ./pinfeed replay pools --from beginning} after a reader was shown part of his pools: the feed worker
 * applies every chunk again, yet no pin he was shown comes back into his pools or his feed (the pools remember
 * what he was shown), what he was not shown is still there, and his pools verify clean.
 */
@ExtendWith(StackExtension.class)
class ReplayPoolsIT {

    @Test
    void aReplayOfThePoolsNeverShowsAReaderAPinTwice(TestStack stack) throws Exception {
        try (HomeFeedStack w = new HomeFeedStack(stack);
             InProcessProcessor worker = new InProcessProcessor(FeedWorkerMain.NAME, w::startWorker).start()) {
            long reader = w.user(), author = w.user();
            long board = w.board(author);
            w.follow(reader, author);
            long now = System.currentTimeMillis();
            List<Long> pins = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                long pin = w.pin(board, author, now - i * 1_000L);
                pins.add(pin);
                w.deliver(pin, board, author, now - i * 1_000L, Map.of(reader, Source.FOLLOWED_USER));
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> w.pools.all(reader).size() == pins.size());

            Set<Long> shown = new HashSet<>();
            try (HomeFeedThreads threads = new HomeFeedThreads(2, 1000); RedisLastReadStore lastReads = w.lastReads()) {
                HomeFeed feed = w.homeFeed(threads, lastReads);
                feed.read(reader, null, 25).items().forEach(i -> shown.add(i.pin().id()));
                assertThat(shown).as("a first page of his pins").isNotEmpty();
                await().atMost(Duration.ofSeconds(30)).until(() -> inFeed(w, reader).containsAll(shown));
                assertThat(pinsOf(w.pools.all(reader))).as("what he was shown left his pools").doesNotContainAnyElementsOf(shown);
                int unshown = pins.size() - shown.size();

                PinfeedConfig config = w.config.withOverrides(Map.of("feed.worker.topics", w.fanout, "feed.worker.group", w.group));
                // The shared HBase holds other tests' pools: verify this reader, not --all as the replay itself would.
                CliRun replay = CliRun.of(config, worker, "replay", "pools", "--from", "beginning", "--no-verify");
                assertThat(replay.code()).as(replay.out() + replay.err()).isZero();
                assertThat(replay.err()).contains("caught up");
                CliRun verify = CliRun.of(config, worker, "verify", "pools", "--users", Long.toString(reader));
                assertThat(verify.code()).as(verify.out()).isZero();

                assertThat(pinsOf(w.pools.all(reader))).as("replayed, but nothing shown came back").doesNotContainAnyElementsOf(shown)
                        .hasSize(unshown);
                List<Long> next = new ArrayList<>();
                feed.read(reader, null, 25).items().forEach(i -> next.add(i.pin().id()));
                assertThat(next).as("his next first page: the new chunk, then what he saw before").doesNotHaveDuplicates();
                await().atMost(Duration.ofSeconds(30)).until(() -> w.pools.all(reader).isEmpty());
                List<Long> everything = new ArrayList<>();
                for (FeedPage.Positioned p : w.feeds.all(reader)) everything.add(p.item().pinId());
                assertThat(everything).as("his whole feed: every pin once").doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(pins);
            }
        }
    }

    private static Set<Long> inFeed(HomeFeedStack w, long user) {
        Set<Long> out = new HashSet<>();
        for (FeedPage.Positioned p : w.feeds.all(user)) out.add(p.item().pinId());
        return out;
    }

    private static List<Long> pinsOf(List<PoolEntry> entries) {
        return entries.stream().map(PoolEntry::pinId).toList();
    }
}
