package dev.pinfeed.feedstore;

/**
 * What the feed service remembers per user between views: the size of the next chunk (grows after a
 * failed or timed-out generation, seed 002) and when he last read his feed (the active-receiver
 * policy of the fan-out, and regeneration on return).
 */
public record GeneratorState(int nextChunkSize, long lastReadMillis) {

    public static GeneratorState initial(int chunkSize) {
        return new GeneratorState(chunkSize, 0);
    }
}
