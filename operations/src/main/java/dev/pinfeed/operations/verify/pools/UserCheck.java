package dev.pinfeed.operations.verify.pools;

import dev.pinfeed.feedstore.PoolEntry;
import java.util.List;
import java.util.Map;

/**
 * One user's pools checked: the differences found, what was counted on the way, and the exact repair.
 *
 * @param counts      what the check met, by name ({@link PoolVerifier}'s counters: entries, deliveries by fate)
 * @param restore     entries whose rows are damaged but whose pin belongs in his pools: written again where they were
 * @param deleteRows  entry rows to delete alone: orphan rows, and rows of pins that do not belong
 * @param remove      pins to take out of his pools (their entry and index rows): deleted pins, pins he does not
 *                    receive, index rows pointing at nothing for such pins
 * @param add         missing deliveries, scored as the worker scores them, to write within the worker's bounds
 */
public record UserCheck(long userId, List<PoolDifference> differences, Map<String, Long> counts, List<PoolEntry> restore,
                        List<PoolEntry> deleteRows, List<Long> remove, List<PoolEntry> add) {

    public UserCheck {
        differences = List.copyOf(differences);
        counts = Map.copyOf(counts);
        restore = List.copyOf(restore);
        deleteRows = List.copyOf(deleteRows);
        remove = List.copyOf(remove);
        add = List.copyOf(add);
    }

    /** Whether a repair would write anything: the differences' fixes, or orphan rows to delete. */
    public boolean repairable() {
        return !restore.isEmpty() || !deleteRows.isEmpty() || !remove.isEmpty() || !add.isEmpty();
    }
}
