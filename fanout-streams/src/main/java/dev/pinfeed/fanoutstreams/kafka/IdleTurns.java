package dev.pinfeed.fanoutstreams.kafka;

/**
 * Whether a punctuation walks the jobs' store. With no job pending it does not, but for one turn in
 * {@code checkEvery}: finding the first job starts with a seek over the tombstones every finished job left in
 * RocksDB until compaction, and at a turn every 20 ms that seek alone kept a fifth of a core busy on an idle
 * stack after the demo's 12 000 fan-outs. The odd turn that looks anyway bounds what a wrong count could
 * cost (a job it missed waits {@code checkEvery} turns, a second at the defaults), never a stalled job.
 */
final class IdleTurns {

    /** At the default 20 ms punctuation, one look a second while idle. */
    static final int CHECK_EVERY = 50;

    private final int checkEvery;
    private long idleTurns;

    IdleTurns(int checkEvery) {
        if (checkEvery < 1) throw new IllegalArgumentException("checkEvery must be >= 1: " + checkEvery);
        this.checkEvery = checkEvery;
    }

    /** Whether this turn walks the store, {@code pending} being the jobs this task counts. */
    boolean scan(long pending) {
        if (pending > 0) {
            idleTurns = 0;
            return true;
        }
        return idleTurns++ % checkEvery == 0;
    }
}
