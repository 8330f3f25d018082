package dev.pinfeed.ingestapi.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
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
}
