package dev.pinfeed.operations.verify.pools;

import dev.pinfeed.feedstore.PoolRows;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableSet;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every user {@code --all} checks, in ascending id order after a starting id: each user with a row in the
 * pools (read a page of users at a time) and each receiver of a delivery, who may have no row at all.
 * The order makes {@code --after ID} an exact resume point.
 */
final class UsersInOrder implements Iterator<PoolRows.UserRows> {

    private final PoolRows rows;
    private final NavigableSet<Long> receivers;
    private final int pageSize;
    private final Deque<PoolRows.UserRows> page = new ArrayDeque<>();
    private long tableAfter;
    private boolean tableDone;

    UsersInOrder(PoolRows rows, NavigableSet<Long> receivers, long after, int pageSize) {
        this.rows = rows;
        this.receivers = new TreeSet<>(receivers.tailSet(after, false));
        this.pageSize = pageSize;
        this.tableAfter = after;
    }

    @Override
    public boolean hasNext() {
        fill();
        return !page.isEmpty() || !receivers.isEmpty();
    }

    @Override
    public PoolRows.UserRows next() {
        if (!hasNext()) throw new NoSuchElementException();
        PoolRows.UserRows fromTable = page.peekFirst();
        Long receiver = receivers.isEmpty() ? null : receivers.first();
        if (fromTable == null || (receiver != null && receiver < fromTable.userId())) {
            receivers.pollFirst(); // before the next user with rows: he has none
            return new PoolRows.UserRows(receiver, List.of(), List.of(), List.of(), Set.of());
        }
        page.pollFirst();
        receivers.remove(fromTable.userId());
        return fromTable;
    }

    private void fill() {
        if (!page.isEmpty() || tableDone) return;
        List<PoolRows.UserRows> next = rows.rowsAfter(tableAfter, pageSize);
        if (next.isEmpty()) {
            tableDone = true;
            return;
        }
        page.addAll(next);
        tableAfter = next.get(next.size() - 1).userId();
    }
}
