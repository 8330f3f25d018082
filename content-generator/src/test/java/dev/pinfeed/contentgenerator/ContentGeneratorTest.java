package dev.pinfeed.contentgenerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.feedstore.FeedItem;
import dev.pinfeed.feedstore.InMemoryPoolStore;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.Source;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ContentGeneratorTest {

    private static final long U = 7;
    private final InMemoryPoolStore pools = new InMemoryPoolStore();

    private void pool(Source source, double... scores) {
        long base = source == Source.FOLLOWED_USER ? 100 : 200;
        for (int i = 0; i < scores.length; i++) {
            pools.upsert(List.of(new PoolEntry(U, source, scores[i], base + i, 1, 2, 0)));
        }
    }

    private static List<Long> pins(List<FeedItem> items) {
        return items.stream().map(FeedItem::pinId).toList();
    }

    @Test
    void sourcesAreMixedAtTheirRatesEachBestFirst() {
        pool(Source.FOLLOWED_USER, 9, 8, 7, 6, 5, 4, 3);
        pool(Source.FOLLOWED_BOARD, 90, 80, 70, 60);
        ContentGenerator g = new ContentGenerator(pools, GeneratorSettings.defaults()); // 60/40
        List<FeedItem> chunk = g.generate(U, 5).items();
        assertThat(pins(chunk)).containsExactly(100L, 200L, 101L, 201L, 102L);
        assertThat(chunk.stream().filter(i -> i.source() == Source.FOLLOWED_USER).count()).isEqualTo(3);
    }

    @Test
    void aSourceThatRunsDryLeavesItsSlotsToTheOthers() {
        pool(Source.FOLLOWED_USER, 3, 2, 1);
        pool(Source.FOLLOWED_BOARD, 5);
        List<FeedItem> chunk = new ContentGenerator(pools, GeneratorSettings.defaults()).generate(U, 10).items();
        assertThat(pins(chunk)).containsExactly(100L, 200L, 101L, 102L);
    }

    @Test
    void lowScoresAreDeferredOrDroppedPerSource() {
        pool(Source.FOLLOWED_USER, 9, 0.5, 0.05);
        GeneratorSettings s = new GeneratorSettings(Map.of(Source.FOLLOWED_USER, 1.0),
                Map.of(Source.FOLLOWED_USER, 1.0), Map.of(Source.FOLLOWED_USER, 0.1));
        ContentGenerator.Result r = new ContentGenerator(pools, s).generate(U, 10);
        assertThat(pins(r.items())).containsExactly(100L);
        assertThat(r.dropped()).containsExactly(102L);
        assertThat(pools.all(U)).as("the generator removes nothing itself").hasSize(3);
    }

    @Test
    void anEmptyPoolGivesAnEmptyChunk() {
        assertThat(new ContentGenerator(pools, GeneratorSettings.defaults()).generate(U, 25).items()).isEmpty();
        assertThat(new ContentGenerator(pools, GeneratorSettings.defaults()).generate(U, 0).items()).isEmpty();
    }

    @Test
    void settingsComeFromTheConfigurationWithTheDefaultsWhenUnset() {
        java.util.Properties p = new java.util.Properties();
        p.setProperty("feed.mix.followed_board", "3");
        p.setProperty("feed.defer-below.followed_user", "0.5");
        p.setProperty("feed.drop-below.followed_user", "0.25");
        GeneratorSettings s = GeneratorSettings.from(dev.pinfeed.config.PinfeedConfig.of(p));
        assertThat(s.mix()).isEqualTo(Map.of(Source.FOLLOWED_USER, 0.6, Source.FOLLOWED_BOARD, 3.0));
        assertThat(s.deferBelow()).containsEntry(Source.FOLLOWED_USER, 0.5).containsEntry(Source.FOLLOWED_BOARD, 0.0);
        assertThat(s.dropBelow()).containsEntry(Source.FOLLOWED_USER, 0.25);
        assertThat(GeneratorSettings.from(dev.pinfeed.config.PinfeedConfig.of(new java.util.Properties())).share(Source.FOLLOWED_USER))
                .isEqualTo(GeneratorSettings.defaults().share(Source.FOLLOWED_USER));
    }

    /** {@link #pools}, except that {@code best} first runs {@code beforeBest} (with the source asked). */
    private PoolStore poolsThat(java.util.function.Consumer<Source> beforeBest) {
        return (PoolStore) Proxy.newProxyInstance(PoolStore.class.getClassLoader(), new Class<?>[] {PoolStore.class}, (proxy, method, args) -> {
            if (method.getName().equals("best")) beforeBest.accept((Source) args[1]);
            try {
                return method.invoke(pools, args);
            } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    @Test
    void theSourcesArePoolsReadAtTheSameTime() throws Exception {
        pool(Source.FOLLOWED_USER, 9, 8);
        pool(Source.FOLLOWED_BOARD, 90);
        // Each read waits for the other to have started: read one after the other, the first would time out.
        CountDownLatch bothAsked = new CountDownLatch(2);
        Set<Source> sawTheOther = ConcurrentHashMap.newKeySet();
        PoolStore meeting = poolsThat(source -> {
            bothAsked.countDown();
            try {
                if (bothAsked.await(5, TimeUnit.SECONDS)) sawTheOther.add(source);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        ExecutorService reads = Executors.newCachedThreadPool();
        try {
            List<FeedItem> chunk = new ContentGenerator(meeting, GeneratorSettings.defaults(), reads).generate(U, 3).items();
            assertThat(sawTheOther).containsExactlyInAnyOrder(Source.values());
            assertThat(pins(chunk)).containsExactly(100L, 200L, 101L);
        } finally {
            reads.shutdownNow();
        }
    }

    @Test
    void aSourceReadOffTheCallingThreadFailsTheGenerationAsItFailed() {
        pool(Source.FOLLOWED_USER, 9);
        PoolStore boardsDown = poolsThat(source -> {
            if (source == Source.FOLLOWED_BOARD) throw new StoreUnavailableException("hbase-primary", "connection refused");
        });
        ExecutorService reads = Executors.newCachedThreadPool();
        try {
            assertThatThrownBy(() -> new ContentGenerator(boardsDown, GeneratorSettings.defaults(), reads).generate(U, 3))
                    .isInstanceOf(StoreUnavailableException.class).hasMessageContaining("connection refused");
        } finally {
            reads.shutdownNow();
        }
    }
}
