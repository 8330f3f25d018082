package dev.pinfeed.ingestapi.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** What every {@link UsernameIndex} must do; run against the in-memory fake and real MySQL. */
public abstract class UsernameIndexContract {

    protected abstract UsernameIndex index();

    /** A username no earlier run used. */
    protected abstract String freshUsername();

    @Test
    void aNameBelongsToItsFirstClaimant() {
        String name = freshUsername();
        assertThat(index().find(name)).isEmpty();

        assertThat(index().claim(name, 11)).isTrue();
        assertThat(index().claim(name, 12)).isFalse();
        assertThat(index().claim(name, 11)).as("claiming again for the same user").isTrue();
        assertThat(index().find(name)).hasValue(11);
    }

    @Test
    void onlyTheHolderReleases() {
        String name = freshUsername();
        index().claim(name, 21);

        index().release(name, 22);
        assertThat(index().find(name)).hasValue(21);

        index().release(name, 21);
        assertThat(index().find(name)).isEmpty();
        assertThat(index().claim(name, 22)).isTrue();
    }

    @Test
    void ofConcurrentClaimsExactlyOneWins() throws Exception {
        String name = freshUsername();
        int contenders = 8;
        ExecutorService pool = Executors.newFixedThreadPool(contenders);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < contenders; i++) {
                long userId = 100 + i;
                Callable<Boolean> claim = () -> {
                    start.await();
                    return index().claim(name, userId);
                };
                results.add(pool.submit(claim));
            }
            start.countDown();
            int winners = 0;
            for (Future<Boolean> r : results) if (r.get()) winners++;
            assertThat(winners).isEqualTo(1);
            assertThat(index().find(name)).isPresent();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void claimAllClaimsEveryFreeNameAndNoTakenOne() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 40; i++) names.add(freshUsername()); // spread over the index's shards and hosts
        index().claim(names.get(0), 1);
        Map<String, Long> claims = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) claims.put(names.get(i), 1000L + i);

        Set<String> claimed = index().claimAll(claims);

        assertThat(claimed).containsExactlyInAnyOrderElementsOf(names.subList(1, names.size()));
        assertThat(index().find(names.get(0))).as("taken before").hasValue(1);
        for (int i = 1; i < names.size(); i++) assertThat(index().find(names.get(i))).hasValue(1000L + i);
        assertThat(index().claimAll(Map.of(names.get(1), 1001L, names.get(2), 7L)))
                .as("again for the same user, and for another").containsExactly(names.get(1));
        assertThat(index().claimAll(Map.of())).isEmpty();
    }

    @Test
    void ofConcurrentClaimAllsNamingTheSameNamesInOtherOrdersEachNameHasOneHolder() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 10; round++) {
                List<String> names = new ArrayList<>();
                for (int i = 0; i < 12; i++) names.add(freshUsername());
                Map<String, Long> forward = new LinkedHashMap<>();
                Map<String, Long> backward = new LinkedHashMap<>();
                for (int i = 0; i < names.size(); i++) {
                    forward.put(names.get(i), 10_000L + i);
                    backward.put(names.get(names.size() - 1 - i), 20_000L + i);
                }
                CountDownLatch start = new CountDownLatch(1);
                Future<Set<String>> a = pool.submit(() -> {
                    start.await();
                    return index().claimAll(forward);
                });
                Future<Set<String>> b = pool.submit(() -> {
                    start.await();
                    return index().claimAll(backward);
                });
                start.countDown();
                Set<String> wonByA = a.get();
                Set<String> wonByB = b.get();
                for (String name : names) {
                    assertThat(wonByA.contains(name) ^ wonByB.contains(name)).as(name + ": exactly one holder").isTrue();
                    assertThat(index().find(name)).hasValue(wonByA.contains(name) ? forward.get(name) : backward.get(name));
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
