package dev.pinfeed.processorruntime;

import java.util.List;

/**
 * What a processor does with a poll's records. Records of one partition arrive in offset order;
 * records may arrive again (after a crash, a rebalance or a retry), so applying must be idempotent.
 */
@FunctionalInterface
public interface BatchHandler {

    /**
     * Applies {@code records}. A record the handler cannot apply is marked on {@code outcomes}:
     * {@link Outcomes#reject} (it will never apply: dead letter), {@link Outcomes#unavailable} (a
     * store is down: parked and retried later, while records for healthy stores go on), {@link Outcomes#waitFor} (what
     * it refers to has not arrived yet) or {@link Outcomes#defer} (not handled in this poll's time: retried on a later
     * turn). Unmarked
     * records count as applied. Throwing {@link dev.pinfeed.config.StoreUnavailableException} marks
     * the whole batch unavailable; any other exception is treated as a bug (see {@link ConsumerLoop}).
     */
    void apply(List<InputRecord> records, Outcomes outcomes);

    /** A handler that applies one record at a time: a per-record rejection or outage stays that record's. */
    static BatchHandler perRecord(RecordHandler handler) {
        return (records, outcomes) -> {
            for (InputRecord r : records) {
                try {
                    handler.apply(r);
                } catch (RejectedRecordException e) {
                    outcomes.reject(r, e.reason(), e.getMessage());
                } catch (dev.pinfeed.config.StoreUnavailableException e) {
                    outcomes.unavailable(r, e);
                }
            }
        };
    }

    /** One record's work. */
    @FunctionalInterface
    interface RecordHandler {
        /** @throws RejectedRecordException when the record can never apply */
        void apply(InputRecord record);
    }
}
