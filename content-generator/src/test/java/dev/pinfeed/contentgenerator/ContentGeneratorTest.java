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
        ContentGenerator g = new ContentGenerator(pools, new GeneratorSettings(
                Map.of(Source.FOLLOWED_USER, 0.5, Source.FOLLOWED_BOARD, 0.35, Source.REPINS, 0.15), Map.of(), Map.of()));
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

    // ---- repins: one parent per feed

    private static final long PARENT = 900;
    private static final long OTHER_PARENT = 901;

    private void entry(Source source, long pin, double score) {
        pools.upsert(List.of(new PoolEntry(U, source, score, pin, 1, 2, 0)));
    }

    /** Repins 300.. of the parents given, in order. */
    private RepinParents parents(Map<Long, Long> parentOf) {
        return ids -> {
            Map<Long, Long> out = new java.util.HashMap<>();
            for (long id : ids) if (parentOf.containsKey(id)) out.put(id, parentOf.get(id));
            return out;
        };
    }

    @Test
    void allFivePoolsAreMixedAtTheirDefaultSharesEachBestFirst() {
        long base = 100;
        for (Source s : Source.values()) {
            for (int i = 0; i < 20; i++) entry(s, base + i, 20 - i);
            base += 100;
        }
        List<FeedItem> chunk = new ContentGenerator(pools, GeneratorSettings.defaults()).generate(U, 20).items();
        Map<Source, Long> counts = chunk.stream().collect(java.util.stream.Collectors.groupingBy(FeedItem::source, java.util.stream.Collectors.counting()));
        assertThat(counts).isEqualTo(Map.of(Source.FOLLOWED_USER, 8L, Source.FOLLOWED_BOARD, 5L, Source.INTERESTS, 3L,
                Source.REPINS, 2L, Source.RELATED, 2L)); // 40/25/15/10/10 % of 20
        for (Source s : Source.values()) {
            List<Long> ofSource = chunk.stream().filter(i -> i.source() == s).map(FeedItem::pinId).toList();
            assertThat(ofSource).as(s + " best first").isSorted();
        }
        assertThat(chunk.get(0).source()).as("the biggest share leads").isEqualTo(Source.FOLLOWED_USER);
    }

    @Test
    void repinsAreMixedInAtTheirShare() {
        for (int i = 0; i < 10; i++) entry(Source.FOLLOWED_USER, 100 + i, 10 - i);
        for (int i = 0; i < 10; i++) entry(Source.FOLLOWED_BOARD, 200 + i, 10 - i);
        for (int i = 0; i < 10; i++) entry(Source.REPINS, 300 + i, 10 - i);
        GeneratorSettings s = new GeneratorSettings(
                Map.of(Source.FOLLOWED_USER, 0.5, Source.FOLLOWED_BOARD, 0.35, Source.REPINS, 0.15), Map.of(), Map.of());
        List<FeedItem> chunk = new ContentGenerator(pools, s).generate(U, 20).items();
        assertThat(chunk.stream().filter(i -> i.source() == Source.REPINS).count()).isEqualTo(3); // 15 % of 20
        assertThat(chunk.stream().filter(i -> i.source() == Source.FOLLOWED_USER).count()).isEqualTo(10);
        assertThat(chunk.stream().filter(i -> i.source() == Source.FOLLOWED_BOARD).count()).isEqualTo(7);
    }

    @Test
    void aChunkHoldsOneRepinPerParentAndNoRepinOfAPinItHolds() {
        entry(Source.FOLLOWED_USER, PARENT, 9); // the parent itself, from a followed user
        entry(Source.FOLLOWED_USER, 101, 8);
        entry(Source.REPINS, 300, 7);  // repin of PARENT: the parent is in the chunk
        entry(Source.REPINS, 301, 6);  // repin of OTHER_PARENT
        entry(Source.REPINS, 302, 5);  // its sibling
        entry(Source.REPINS, 303, 4);  // a repin of a third parent
        GeneratorSettings repinsFirst = new GeneratorSettings(Map.of(Source.FOLLOWED_USER, 1.0, Source.REPINS, 1.0), Map.of(), Map.of());
        ContentGenerator g = new ContentGenerator(pools, repinsFirst,
                parents(Map.of(300L, PARENT, 301L, OTHER_PARENT, 302L, OTHER_PARENT, 303L, 902L)));

        ContentGenerator.Result r = g.generate(U, 10);

        assertThat(pins(r.items())).containsExactlyInAnyOrder(PARENT, 101L, 301L, 303L);
        assertThat(r.dropped()).containsExactlyInAnyOrder(300L, 302L);
        assertThat(r.seenParents()).containsExactlyInAnyOrder(OTHER_PARENT, 902L);
    }

    @Test
    void aRepinComesBeforeItsParentAndTheParentIsDropped() {
        entry(Source.REPINS, 300, 9);
        entry(Source.FOLLOWED_BOARD, PARENT, 1);
        GeneratorSettings even = new GeneratorSettings(Map.of(Source.FOLLOWED_BOARD, 1.0, Source.REPINS, 1.0), Map.of(), Map.of());

        ContentGenerator.Result r = new ContentGenerator(pools, even, parents(Map.of(300L, PARENT))).generate(U, 10);

        assertThat(pins(r.items())).containsExactly(300L);
        assertThat(r.dropped()).containsExactly(PARENT);
        assertThat(r.seenParents()).containsExactly(PARENT);
    }

    @Test
    void aRepinWhoseParentTheUserWasShownIsDropped() {
        pools.removeShown(U, List.of(PARENT)); // an earlier chunk showed the parent, or a sibling repin of it
        entry(Source.REPINS, 300, 9);
        entry(Source.REPINS, 301, 8);

        ContentGenerator.Result r = new ContentGenerator(pools, GeneratorSettings.defaults(),
                parents(Map.of(300L, PARENT, 301L, OTHER_PARENT))).generate(U, 10);

        assertThat(pins(r.items())).containsExactly(301L);
        assertThat(r.dropped()).containsExactly(300L);
    }

    @Test
    void withoutKnownParentsRepinsAreMixedLikeAnyPin() {
        entry(Source.REPINS, 300, 9);
        entry(Source.REPINS, 301, 8);
        ContentGenerator.Result r = new ContentGenerator(pools, GeneratorSettings.defaults()).generate(U, 10);
        assertThat(pins(r.items())).containsExactly(300L, 301L);
        assertThat(r.seenParents()).isEmpty();
    }

    @Test
    void settingsComeFromTheConfigurationWithTheDefaultsWhenUnset() {
        java.util.Properties p = new java.util.Properties();
        p.setProperty("feed.mix.followed_board", "3");
        p.setProperty("feed.defer-below.followed_user", "0.5");
        p.setProperty("feed.drop-below.followed_user", "0.25");
        GeneratorSettings s = GeneratorSettings.from(dev.pinfeed.config.PinfeedConfig.of(p));
        assertThat(s.mix()).isEqualTo(Map.of(Source.FOLLOWED_USER, 0.4, Source.FOLLOWED_BOARD, 3.0, Source.REPINS, 0.1,
                Source.RELATED, 0.1, Source.INTERESTS, 0.15));
        assertThat(s.deferBelow()).containsEntry(Source.FOLLOWED_USER, 0.5).containsEntry(Source.FOLLOWED_BOARD, 0.0);
        assertThat(s.dropBelow()).containsEntry(Source.FOLLOWED_USER, 0.25);
        assertThat(GeneratorSettings.from(dev.pinfeed.config.PinfeedConfig.of(new java.util.Properties())).share(Source.FOLLOWED_USER))
                .isEqualTo(GeneratorSettings.defaults().share(Source.FOLLOWED_USER));
    }

    /**
     * {@link #pools}, except that {@code best} first runs {@code beforeBest} (with the source asked), and the one read of all
     * pools settles none of them (as for large pools), so every pool is read on its own.
     */
    private PoolStore poolsThat(java.util.function.Consumer<Source> beforeBest) {
        return (PoolStore) Proxy.newProxyInstance(PoolStore.class.getClassLoader(), new Class<?>[] {PoolStore.class}, (proxy, method, args) -> {
            if (method.getName().equals("bestOfEach")) return java.util.Map.of();
            if (method.getName().equals("best")) beforeBest.accept((Source) args[1]);
            try {
                return method.invoke(pools, args);
            } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    /** Pools one read settles are not read again on their own; the ones it leaves are. */
    @Test
    void poolsTheOneReadSettlesAreNotReadAgain() {
        pool(Source.FOLLOWED_USER, 9, 8);
        pool(Source.FOLLOWED_BOARD, 90);
        Set<Source> readAlone = ConcurrentHashMap.newKeySet();
        PoolStore settlesUsers = (PoolStore) Proxy.newProxyInstance(PoolStore.class.getClassLoader(), new Class<?>[] {PoolStore.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("bestOfEach")) {
                        return java.util.Map.of(Source.FOLLOWED_USER, pools.best(U, Source.FOLLOWED_USER, (int) args[2]));
                    }
                    if (method.getName().equals("best")) readAlone.add((Source) args[1]);
                    return method.invoke(pools, args);
                });
        List<FeedItem> chunk = new ContentGenerator(settlesUsers, GeneratorSettings.defaults(), Runnable::run).generate(U, 3).items();
        assertThat(pins(chunk)).containsExactly(100L, 200L, 101L);
        assertThat(readAlone).doesNotContain(Source.FOLLOWED_USER).contains(Source.FOLLOWED_BOARD);
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
