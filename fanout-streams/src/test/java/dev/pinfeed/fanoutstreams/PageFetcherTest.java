package dev.pinfeed.fanoutstreams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.events.FanoutAction;
import dev.pinfeed.feedstore.InMemoryMaterializedFeedStore;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.sharded.InMemoryGraphStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Queue;
import org.junit.jupiter.api.Test;

/** The read-ahead, with fetch "threads" the test runs by hand. */
class PageFetcherTest {

    private final Queue<Runnable> fetchThreads = new ArrayDeque<>();
    private final InMemoryGraphStore graph = new InMemoryGraphStore();
    private boolean down;

    private PageFetcher fetcher() {
        graph.apply(new GraphCommand.CreateBoard(1, 1, 20, 10));
        for (long u = 100; u < 103; u++) graph.apply(new GraphCommand.FollowUser(u, u, u, 10));
        GraphStore failing = (GraphStore) Proxy.newProxyInstance(GraphStore.class.getClassLoader(), new Class<?>[] {GraphStore.class},
                (p, m, args) -> {
                    if (down) throw new StoreUnavailableException("redis002", "Connection refused");
                    try {
                        return m.invoke(graph, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        FanoutStepper stepper = new FanoutStepper(failing, new InMemoryMaterializedFeedStore(), FanoutSettings.defaults(), Clock.systemUTC());
        return new PageFetcher(stepper, fetchThreads::add);
    }

    private static FanoutJob job(long pin) {
        return FanoutJob.start(FanoutAction.ADD, 7, 1, pin, 20, 10, 1, FanoutJob.Origin.UNKNOWN);
    }

    private void runFetches() {
        while (!fetchThreads.isEmpty()) fetchThreads.poll().run();
    }

    @Test
    void aPageIsNullWhileItIsReadAndHandedOverOnceItIsThere() {
        PageFetcher fetcher = fetcher();
        FanoutJob job = job(1);

        assertThat(fetcher.poll(job)).isNull();
        assertThat(fetcher.poll(job)).as("asked once").isNull();
        assertThat(fetchThreads).hasSize(1);
        runFetches();

        FanoutStepper.PageRead page = fetcher.poll(job);
        assertThat(page.receivers()).hasSize(3);
        assertThat(page.cursor()).isNull();
        assertThat(fetcher.size()).as("taken").isZero();
    }

    @Test
    void aFailedReadIsReportedOnceAndAskedAgainNextTime() {
        PageFetcher fetcher = fetcher();
        FanoutJob job = job(2);
        down = true;
        fetcher.request(job);
        runFetches();

        assertThatThrownBy(() -> fetcher.poll(job)).isInstanceOf(StoreUnavailableException.class).hasMessageContaining("redis002");

        down = false;
        assertThat(fetcher.poll(job)).isNull();
        runFetches();
        assertThat(fetcher.poll(job).receivers()).hasSize(3);
    }

    @Test
    void forgettingAPinDropsItsPagesOnly() {
        PageFetcher fetcher = fetcher();
        fetcher.request(job(3));
        fetcher.request(job(4));
        fetcher.forget(3);
        assertThat(fetcher.size()).isEqualTo(1);
        runFetches();
        assertThat(fetcher.poll(job(4))).isNotNull();
    }
}
