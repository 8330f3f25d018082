package dev.pinfeed.feedstore;

/**
 * What the feed service remembers per user between views: the size of the next chunk (grows after a
 * failed or timed-out generation, seed 002), when he last read his feed (the active-receiver policy
 * of the fan-out, and regeneration on return), and how many items his materialized feed holds, so a
 * view trims the feed only when it has grown past its maximum instead of scanning it every time.
 *
 * @param materializedItems an estimate that errs high ({@link #UNKNOWN_ITEMS}: not known, trim to learn
 *                          it): chunks shown add to it, trims set it exactly, purges do not subtract. Two
 *                          views saving at once, or a late chunk, can leave it a chunk low until the next trim.
 */
public record GeneratorState(int nextChunkSize, long lastReadMillis, int materializedItems) {

    public static final int UNKNOWN_ITEMS = -1;

    public GeneratorState {
        if (materializedItems < UNKNOWN_ITEMS) throw new IllegalArgumentException("materializedItems must be >= -1: " + materializedItems);
    }

    /** A state whose feed size is not known. */
    public GeneratorState(int nextChunkSize, long lastReadMillis) {
        this(nextChunkSize, lastReadMillis, UNKNOWN_ITEMS);
    }

    /** This state with {@code n} more items materialized (unknown stays unknown). */
    public GeneratorState plusItems(int n) {
        return materializedItems == UNKNOWN_ITEMS ? this : new GeneratorState(nextChunkSize, lastReadMillis, materializedItems + n);
    }

    /** A user without a saved state: his feed may still hold items (written before states were), so its size is not known. */
    public static GeneratorState initial(int chunkSize) {
        return new GeneratorState(chunkSize, 0);
    }
}
