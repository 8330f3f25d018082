package dev.pinfeed.ingestapi.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.ingestapi.core.ObjectDirectory.Entry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What every {@link ObjectDirectory} must do; run against the in-memory fake and real MySQL. */
public abstract class ObjectDirectoryContract {

    protected abstract ObjectDirectory directory();

    /** A local id no earlier run used (tests share persistent stores). */
    protected abstract long freshLocalId();

    private long id(int shard, ObjectType type) {
        return ShardedId.compose(shard, type, freshLocalId());
    }

    @Test
    void findsWhatWasRegisteredOnEveryShardAndNothingElse() {
        long user = id(5, ObjectType.USER);
        long board = id(5, ObjectType.BOARD);
        long pin = id(3000, ObjectType.PIN);
        long unknown = id(3001, ObjectType.PIN);
        directory().register(List.of(new Entry(user, user, 0), new Entry(board, user, 0), new Entry(pin, user, board)));

        Map<Long, Entry> found = directory().find(List.of(user, board, pin, unknown));

        assertThat(found).containsOnlyKeys(user, board, pin);
        assertThat(found.get(pin)).isEqualTo(new Entry(pin, user, board));
        assertThat(found.get(board).ownerId()).isEqualTo(user);
    }

    @Test
    void registeringAgainIsANoOp() {
        long user = id(7, ObjectType.USER);
        directory().register(List.of(new Entry(user, user, 0)));
        directory().register(List.of(new Entry(user, user, 0)));

        assertThat(directory().find(List.of(user))).containsEntry(user, new Entry(user, user, 0));
    }

    @Test
    void removedEntriesAreGone() {
        long a = id(9, ObjectType.BOARD);
        long b = id(2049, ObjectType.BOARD);
        long owner = id(9, ObjectType.USER);
        directory().register(List.of(new Entry(a, owner, 0), new Entry(b, owner, 0)));

        directory().remove(List.of(new Entry(a, owner, 0)));

        assertThat(directory().find(List.of(a, b))).containsOnlyKeys(b);
    }

    @Test
    void aDeletedEntryIsFoundDeletedWithItsOwnerAndBoardAndOthersStayLive() {
        long author = id(11, ObjectType.USER);
        long board = id(11, ObjectType.BOARD);
        long pin = id(11, ObjectType.PIN);
        long other = id(11, ObjectType.PIN);
        long elsewhere = id(3500, ObjectType.PIN);
        directory().register(List.of(new Entry(pin, author, board), new Entry(other, author, board), new Entry(elsewhere, author, board)));

        directory().markDeleted(List.of(new Entry(pin, author, board), new Entry(elsewhere, author, board)));

        Map<Long, Entry> found = directory().find(List.of(pin, other, elsewhere));
        assertThat(found.get(pin)).isEqualTo(new Entry(pin, author, board, true));
        assertThat(found.get(elsewhere)).isEqualTo(new Entry(elsewhere, author, board, true));
        assertThat(found.get(other)).isEqualTo(new Entry(other, author, board));
    }

    @Test
    void markingDeletedAgainIsANoOp() {
        long author = id(13, ObjectType.USER);
        long pin = id(13, ObjectType.PIN);
        long board = id(13, ObjectType.BOARD);
        directory().register(List.of(new Entry(pin, author, board)));
        directory().markDeleted(List.of(new Entry(pin, author, board)));
        directory().markDeleted(List.of(new Entry(pin, author, board).asDeleted()));
        directory().register(List.of(new Entry(pin, author, board)));

        assertThat(directory().find(List.of(pin))).containsOnly(Map.entry(pin, new Entry(pin, author, board, true)));
    }

    @Test
    void concurrentRegistrationsAreEachFoundOnceRegisterReturned() throws Exception {
        // Concurrent callers may share a commit (MysqlObjectDirectory groups them); each must find its own entries.
        int callers = 8;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(callers);
        try {
            java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
            List<java.util.concurrent.Future<List<Long>>> calls = new java.util.ArrayList<>();
            for (int c = 0; c < callers; c++) {
                calls.add(pool.submit(() -> {
                    long owner = id(17, ObjectType.USER);
                    List<Entry> mine = List.of(new Entry(id(17, ObjectType.BOARD), owner, 0), new Entry(id(2100, ObjectType.BOARD), owner, 0),
                            new Entry(id(3900, ObjectType.BOARD), owner, 0));
                    start.await();
                    directory().register(mine);
                    List<Long> ids = mine.stream().map(Entry::id).toList();
                    assertThat(directory().find(ids)).containsOnlyKeys(ids);
                    return ids;
                }));
            }
            start.countDown();
            List<Long> all = new java.util.ArrayList<>();
            for (var call : calls) all.addAll(call.get(60, java.util.concurrent.TimeUnit.SECONDS));
            assertThat(directory().find(all)).hasSize(callers * 3);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void emptyInputsAreFine() {
        directory().register(List.of());
        directory().remove(List.of());
        directory().markDeleted(List.of());
        assertThat(directory().find(List.of())).isEmpty();
    }
}
