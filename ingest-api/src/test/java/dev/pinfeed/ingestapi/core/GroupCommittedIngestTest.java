package dev.pinfeed.ingestapi.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.idallocator.InMemorySequenceStore;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.OpenShards;
import dev.pinfeed.idallocator.ShardPlacement;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.idallocator.ShardedIdAllocator;
import dev.pinfeed.idallocator.TimeSortableIdGenerator;
import dev.pinfeed.idallocator.TimeSortableLayout;
import dev.pinfeed.events.BoardCreated;
import dev.pinfeed.ingestapi.core.IngestCommand.CreateBoard;
import dev.pinfeed.ingestapi.core.IngestRejection.Reason;
import dev.pinfeed.ingestapi.core.IngestService.Outcome;
import dev.pinfeed.ingestapi.fakes.InMemoryObjectDirectory;
import dev.pinfeed.ingestapi.fakes.InMemoryUsernameIndex;
import dev.pinfeed.ingestapi.fakes.RecordingEventPublisher;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two requests whose directory rows share one group commit (the way {@code MysqlObjectDirectory} registers):
 * both are released by it, or both fail with it and leave nothing registered or published.
 */
class GroupCommittedIngestTest {

    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");

    /** Holds the commit task until the test runs it. */
    private final Queue<Runnable> held = new ArrayDeque<>();
    private final InMemoryObjectDirectory store = new InMemoryObjectDirectory();
    private final List<List<ObjectDirectory.Entry>> commits = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile RuntimeException failCommit;
    private final GroupCommitter<String, ObjectDirectory.Entry> committer = new GroupCommitter<>(task -> {
        synchronized (held) {
            held.add(task);
        }
    }, 100, (host, entries) -> {
        commits.add(entries);
        if (failCommit != null) throw failCommit;
        store.register(entries);
    });

    /** The in-memory directory, with registrations group-committed on one host ("mysql001"). */
    private final ObjectDirectory grouped = new ObjectDirectory() {
        @Override
        public void register(List<Entry> entries) {
            try {
                committer.submit("mysql001", entries).join();
            } catch (java.util.concurrent.CompletionException e) { // as MysqlObjectDirectory does: the commit's own exception
                throw e.getCause() instanceof RuntimeException r ? r : e;
            }
        }

        @Override
        public Map<Long, Entry> find(Collection<Long> ids) {
            return store.find(ids);
        }

        @Override
        public void remove(List<Entry> entries) {
            store.remove(entries);
        }

        @Override
        public void markDeleted(List<Entry> entries) {
            store.markDeleted(entries);
        }
    };
    private final RecordingEventPublisher publisher = new RecordingEventPublisher();
    private final IngestService service = new IngestService(
            new IdSource(new ShardedIdAllocator(new InMemorySequenceStore(), 100),
                    new ShardPlacement(OpenShards.parse("0-15"), new SplittableRandom(1)),
                    TimeSortableIdGenerator.systemClock(new TimeSortableLayout(TimeSortableLayout.DEFAULT_EPOCH), Duration.ZERO), 1),
            new CachingObjectDirectory(grouped, 1000, Duration.ofSeconds(5), InstantSource.fixed(NOW)), new InMemoryUsernameIndex(),
            publisher, InstantSource.fixed(NOW), Duration.ofSeconds(5), 4096);
    private final ExecutorService requests = Executors.newFixedThreadPool(2);

    @AfterEach
    void stop() {
        requests.shutdownNow();
    }

    private final long ana = ShardedId.compose(3, ObjectType.USER, 1);
    private final long ben = ShardedId.compose(7, ObjectType.USER, 2);

    /** Starts both requests, waits until both wait for the same commit, then runs it. */
    private List<Outcome> twoRequestsInOneCommit() throws Exception {
        store.register(List.of(new ObjectDirectory.Entry(ana, ana, 0), new ObjectDirectory.Entry(ben, ben, 0)));
        Future<Outcome> a = requests.submit(() -> service.submit(new CreateBoard(ana, "Ana's", null)));
        Future<Outcome> b = requests.submit(() -> service.submit(new CreateBoard(ben, "Ben's", null)));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (committer.pendingItems() < 2) {
            assertThat(System.nanoTime()).as("both requests registering").isLessThan(deadline);
            Thread.sleep(5);
        }
        assertThat(publisher.published()).as("nothing published before the directory commit").isEmpty();
        Runnable commit;
        synchronized (held) {
            assertThat(held).hasSize(1);
            commit = held.poll();
        }
        commit.run();
        return List.of(a.get(30, TimeUnit.SECONDS), b.get(30, TimeUnit.SECONDS));
    }

    @Test
    void bothRequestsAreReleasedByTheOneCommitAndThenPublished() throws Exception {
        List<Outcome> outcomes = twoRequestsInOneCommit();

        assertThat(outcomes).allSatisfy(o -> assertThat(o.accepted()).isTrue());
        assertThat(commits).hasSize(1);
        assertThat(commits.get(0)).extracting(ObjectDirectory.Entry::id)
                .containsExactlyInAnyOrder(outcomes.get(0).createdId(), outcomes.get(1).createdId());
        assertThat(publisher.published(BoardCreated.class)).extracting(BoardCreated::getBoardId)
                .containsExactlyInAnyOrder(outcomes.get(0).createdId(), outcomes.get(1).createdId());
    }

    @Test
    void aFailedCommitMakesBothRequestsUnavailableNamingTheHostWithNothingRegisteredOrPublished() throws Exception {
        failCommit = new StoreUnavailableException("mysql001", "master does not answer");

        List<Outcome> outcomes = twoRequestsInOneCommit();

        assertThat(outcomes).allSatisfy(o -> {
            assertThat(o.rejection().reason()).isEqualTo(Reason.UNAVAILABLE);
            assertThat(o.rejection().store()).isEqualTo("mysql001");
        });
        assertThat(commits).hasSize(1);
        assertThat(store.size()).as("only the two users").isEqualTo(2);
        assertThat(publisher.published()).isEmpty();
    }
}
