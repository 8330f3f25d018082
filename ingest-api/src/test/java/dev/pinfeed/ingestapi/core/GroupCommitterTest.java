package dev.pinfeed.ingestapi.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.StoreUnavailableException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

/** The group committer on a hand-driven executor: which callers share a commit, and what a failure does. */
class GroupCommitterTest {

    /** Runs queued tasks only when told. */
    private static final class ManualExecutor implements Executor {
        final Queue<Runnable> tasks = new ArrayDeque<>();

        @Override
        public void execute(Runnable task) {
            tasks.add(task);
        }

        void runAll() {
            for (Runnable t; (t = tasks.poll()) != null; ) t.run();
        }
    }

    /** An all-or-nothing store: a commit writes every item or, when told to fail, none. */
    private static final class Store implements GroupCommitter.Commit<String, Integer> {
        final List<String> commits = new ArrayList<>();
        final Set<Integer> written = new HashSet<>();
        RuntimeException failNext;
        Runnable during = () -> {};

        @Override
        public void commit(String lane, List<Integer> items) {
            commits.add(lane + items);
            during.run();
            during = () -> {};
            if (failNext != null) {
                RuntimeException e = failNext;
                failNext = null;
                throw e;
            }
            written.addAll(items);
        }
    }

    private final ManualExecutor executor = new ManualExecutor();
    private final Store store = new Store();
    private final GroupCommitter<String, Integer> committer = new GroupCommitter<>(executor, 100, store);

    @Test
    void concurrentCallersOfALaneShareOneCommitAndAreReleasedWhenItReturns() {
        CompletableFuture<Void> a = committer.submit("host1", List.of(1, 2));
        CompletableFuture<Void> b = committer.submit("host1", List.of(3));
        CompletableFuture<Void> c = committer.submit("host1", List.of(4, 5));

        assertThat(executor.tasks).hasSize(1); // one commit task for the lane, not one per caller
        assertThat(a).isNotDone();
        assertThat(store.written).isEmpty();

        executor.runAll();

        assertThat(store.commits).containsExactly("host1[1, 2, 3, 4, 5]");
        assertThat(List.of(a, b, c)).allSatisfy(f -> assertThat(f).isCompleted());
        assertThat(store.written).containsExactlyInAnyOrder(1, 2, 3, 4, 5);
        assertThat(committer.pendingItems()).isZero();
    }

    @Test
    void lanesCommitSeparately() {
        CompletableFuture<Void> a = committer.submit("host1", List.of(1));
        CompletableFuture<Void> b = committer.submit("host2", List.of(2));
        executor.runAll();

        assertThat(store.commits).containsExactlyInAnyOrder("host1[1]", "host2[2]");
        assertThat(a).isCompleted();
        assertThat(b).isCompleted();
    }

    @Test
    void aFailedCommitFailsEveryWaiterWithItsExceptionAndWritesNoneOfTheirItems() {
        StoreUnavailableException down = new StoreUnavailableException("mysql001", "master does not answer");
        store.failNext = down;
        CompletableFuture<Void> a = committer.submit("host1", List.of(1, 2));
        CompletableFuture<Void> b = committer.submit("host1", List.of(3));
        executor.runAll();

        for (CompletableFuture<Void> f : List.of(a, b)) {
            assertThatThrownBy(f::get).isInstanceOf(ExecutionException.class).cause().isSameAs(down);
        }
        assertThat(store.written).isEmpty();

        // The lane goes on: the next caller gets a commit of its own, without the failed items.
        CompletableFuture<Void> c = committer.submit("host1", List.of(4));
        executor.runAll();
        assertThat(c).isCompleted();
        assertThat(store.commits).containsExactly("host1[1, 2, 3]", "host1[4]");
        assertThat(store.written).containsExactly(4);
    }

    @Test
    void callersArrivingDuringACommitWaitForTheNextOneTogether() {
        List<CompletableFuture<Void>> late = new ArrayList<>();
        store.during = () -> {
            late.add(committer.submit("host1", List.of(10)));
            late.add(committer.submit("host1", List.of(11)));
        };
        CompletableFuture<Void> first = committer.submit("host1", List.of(1));
        executor.runAll();

        assertThat(store.commits).containsExactly("host1[1]", "host1[10, 11]");
        assertThat(first).isCompleted();
        assertThat(late).allSatisfy(f -> assertThat(f).isCompleted());
    }

    @Test
    void aLateCallerIsNotReleasedByTheCommitInFlightWhenItArrived() {
        @SuppressWarnings("unchecked")
        CompletableFuture<Void>[] late = new CompletableFuture[1];
        committer.submit("host1", List.of(1));
        // One drain: its first commit is under way when the late caller arrives; check in between.
        Runnable drain = executor.tasks.poll();
        store.during = () -> {
            late[0] = committer.submit("host1", List.of(2));
            assertThat(late[0]).isNotDone();
            assertThat(executor.tasks).isEmpty(); // the running drain takes it, no second task
        };
        drain.run();
        assertThat(late[0]).isCompleted();
        assertThat(store.commits).containsExactly("host1[1]", "host1[2]");
    }

    @Test
    void withTwoInFlightACallerArrivingDuringACommitStartsTheNextAtOnceAndTheThirdWaits() {
        GroupCommitter<String, Integer> two = new GroupCommitter<>(executor, 100, 2, store);
        List<CompletableFuture<Void>> during = new ArrayList<>();
        CompletableFuture<Void> a = two.submit("h", List.of(1));
        Runnable first = executor.tasks.poll();
        store.during = () -> {
            // Commit [1] is running: a new caller gets the second commit slot and is committed before [1] returns.
            CompletableFuture<Void> b = two.submit("h", List.of(2));
            during.add(b);
            Runnable second = executor.tasks.poll();
            assertThat(second).isNotNull();
            store.during = () -> {
                // Both slots busy: this caller queues without a task of its own.
                during.add(two.submit("h", List.of(3)));
                assertThat(executor.tasks).isEmpty();
            };
            second.run();
            assertThat(b).isCompleted();
            assertThat(a).isNotDone();
        };
        first.run();

        assertThat(a).isCompleted();
        assertThat(during).allSatisfy(f -> assertThat(f).isCompleted());
        assertThat(store.commits).containsExactly("h[1]", "h[2]", "h[3]");
        assertThat(two.pendingItems()).isZero();
        assertThat(executor.tasks).isEmpty();
    }

    @Test
    void aCommitHoldsAtMostTheLimitButNeverSplitsACaller() {
        GroupCommitter<String, Integer> small = new GroupCommitter<>(executor, 3, store);
        CompletableFuture<Void> a = small.submit("h", List.of(1, 2));
        CompletableFuture<Void> b = small.submit("h", List.of(3, 4));
        CompletableFuture<Void> c = small.submit("h", List.of(5, 6, 7, 8));
        executor.runAll();

        assertThat(store.commits).containsExactly("h[1, 2]", "h[3, 4]", "h[5, 6, 7, 8]");
        assertThat(List.of(a, b, c)).allSatisfy(f -> assertThat(f).isCompleted());
    }

    @Test
    void nothingToWriteCompletesAtOnce() {
        assertThat(committer.submit("h", List.of())).isCompleted();
        assertThat(executor.tasks).isEmpty();
    }

    @Test
    void aRejectingExecutorFailsTheCallersAndTheLaneStartsAfresh() {
        boolean[] reject = {true};
        ManualExecutor later = new ManualExecutor();
        GroupCommitter<String, Integer> g = new GroupCommitter<>(task -> {
            if (reject[0]) throw new RejectedExecutionException("shut down");
            later.execute(task);
        }, 100, store);

        CompletableFuture<Void> a = g.submit("h", List.of(1));
        assertThatThrownBy(a::get).cause().isInstanceOf(RejectedExecutionException.class);
        assertThat(g.pendingItems()).isZero();

        reject[0] = false;
        CompletableFuture<Void> b = g.submit("h", List.of(2));
        later.runAll();
        assertThat(b).isCompleted();
        assertThat(store.written).containsExactly(2);
    }
}
