package dev.pinfeed.fanoutstreams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.events.FanoutAction;
import dev.pinfeed.feedstore.InMemoryLastReadStore;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.sharded.InMemoryGraphStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import org.junit.jupiter.api.Test;

/** The read-ahead, with fetch "threads" the test runs by hand. */
class PageFetcherTest {

    private final Queue<Runnable> fetchThreads = new ArrayDeque<>();
    private final InMemoryGraphStore graph = new InMemoryGraphStore();
    private boolean down;

    private PageFetcher fetcher() {
        return fetcher(3, FanoutSettings.defaults(), 1);
    }

    /** A board of {@code followers}, pages of {@code settings}' chunk size, {@code depth} pages ahead per job. */
    private PageFetcher fetcher(int followers, FanoutSettings settings, int depth) {
        graph.apply(new GraphCommand.CreateBoard(1, 1, 20, 10));
        for (long u = 100; u < 100 + followers; u++) graph.apply(new GraphCommand.FollowUser(u, u, u, 10));
        GraphStore failing = (GraphStore) Proxy.newProxyInstance(GraphStore.class.getClassLoader(), new Class<?>[] {GraphStore.class},
                (p, m, args) -> {
                    if (down) throw new StoreUnavailableException("redis002", "Connection refused");
                    try {
                        return m.invoke(graph, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        FanoutStepper stepper = new FanoutStepper(failing, new InMemoryLastReadStore(), settings, Clock.systemUTC());
        return new PageFetcher(stepper, fetchThreads::add, depth);
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

    @Test
    void aJobsNextPagesAreReadAheadUpToTheDepthAndRefilledAsTheyAreTaken() {
        PageFetcher fetcher = fetcher(50, FanoutSettings.defaults().withChunkSize(10), 2); // 5 pages of 10
        FanoutJob job = job(3);

        fetcher.request(job);
        runFetches();
        assertThat(fetcher.size()).as("the first page and the one after it, no more").isEqualTo(2);

        FanoutStepper.PageRead first = fetcher.poll(job);
        assertThat(first.receivers()).hasSize(10);
        runFetches();
        assertThat(fetcher.size()).as("taking one page starts the next missing one").isEqualTo(2);

        List<Long> walked = new ArrayList<>(first.receivers().stream().map(r -> r.userId()).toList());
        FanoutJob at = job.advanced(1, first.nextCursor(), false, List.of());
        for (int page = 1; at.cursor() != null; page++) { // until the graph says the walk is done
            FanoutStepper.PageRead read = fetcher.poll(at);
            assertThat(read).as("page %d read ahead", page).isNotNull();
            walked.addAll(read.receivers().stream().map(r -> r.userId()).toList());
            at = at.advanced(page + 1, read.nextCursor(), read.nextCursor() == null, List.of());
            runFetches();
        }
        assertThat(walked).as("every receiver once, in the walk's order").doesNotHaveDuplicates().hasSize(50);
        assertThat(fetcher.size()).isZero();
    }

    @Test
    void aForgottenJobStopsReadingAhead() {
        PageFetcher fetcher = fetcher(50, FanoutSettings.defaults().withChunkSize(10), 3);
        FanoutJob job = job(4);
        fetcher.request(job);
        fetchThreads.poll().run(); // the first graph page only: its completion queues the next page's read
        fetcher.forget(4);
        runFetches();
        assertThat(fetcher.size()).as("nothing read ahead for a forgotten job").isZero();
    }
}
