package dev.pinfeed.feedservice;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class HomeFeedThreadsTest {

    @Test
    void theAfterAnswerQueueIsExportedSoItsBacklogCanBeWatched() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        try (HomeFeedThreads threads = new HomeFeedThreads(1, 10).bindTo(registry)) {
            threads.afterAnswer().execute(() -> {
                running.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();
            threads.afterAnswer().execute(() -> { });
            threads.afterAnswer().execute(() -> { });

            assertThat(registry.get("executor.queued").tag("name", "feed-after-answer").gauge().value()).isEqualTo(2);
            assertThat(registry.get("executor.active").tag("name", "feed-after-answer").gauge().value()).isEqualTo(1);
            assertThat(registry.get("executor.pool.max").tag("name", "feed-generator").gauge().value()).isPositive();

            release.countDown();
            assertThat(threads.drain(5_000)).isTrue();
            assertThat(registry.get("executor.queued").tag("name", "feed-after-answer").gauge().value()).isZero();
        }
    }
}
