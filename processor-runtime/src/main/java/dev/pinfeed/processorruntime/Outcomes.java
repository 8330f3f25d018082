package dev.pinfeed.processorruntime;

import dev.pinfeed.config.StoreUnavailableException;
import java.util.IdentityHashMap;
import java.util.Map;

/** The fate of each record of a batch that did not apply; filled by a {@link BatchHandler}. */
public final class Outcomes {

    sealed interface Fate {
        record Rejected(String reason, String detail) implements Fate {}

        record Unavailable(String store, String detail) implements Fate {}

        /** Not applicable yet (e.g. its parent has not arrived): retried, and dead-lettered with {@code reason} after the grace period. */
        record Waiting(String reason, String detail) implements Fate {}

        /** Left for a later turn (the handler's time for one poll ran out): retried, never dead-lettered for it, not an outage. */
        record Deferred(String detail) implements Fate {}

        /** An unexpected exception: a bug, retried a few times, then dead-lettered. */
        record Failed(Throwable error) implements Fate {}
    }

    private final Map<InputRecord, Fate> fates = new IdentityHashMap<>();

    /** {@code record} can never apply: it goes to the dead-letter topic with {@code reason}. */
    public void reject(InputRecord record, String reason, String detail) {
        fates.put(record, new Fate.Rejected(reason, detail));
    }

    /** {@code record} could not apply because a store is down: it is parked and retried later. */
    public void unavailable(InputRecord record, StoreUnavailableException cause) {
        fates.put(record, new Fate.Unavailable(cause.store(), cause.getMessage()));
    }

    /**
     * {@code record} cannot apply yet — it refers to something another topic has not delivered yet
     * (topics are not ordered with each other). It is retried like a parked record; if it still
     * cannot apply after the loop's grace period it goes to the dead-letter topic with {@code reason}.
     */
    public void waitFor(InputRecord record, String reason, String detail) {
        fates.put(record, new Fate.Waiting(reason, detail));
    }

    /**
     * {@code record} was not handled: the handler spent its time for this poll on the records before it (its stores slow
     * under load). It is parked and retried with the parked records on a later turn, so no poll's work outlasts the
     * loop's stall limit or the group's poll interval; it is never dead-lettered for it.
     */
    public void defer(InputRecord record, String detail) {
        fates.put(record, new Fate.Deferred(detail));
    }

    Fate fateOf(InputRecord record) {
        return fates.get(record);
    }
}
