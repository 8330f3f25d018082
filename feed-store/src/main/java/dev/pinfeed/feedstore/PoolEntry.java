package dev.pinfeed.feedstore;

/**
 * One pin waiting in a user's pool: scored for that user (seed 002: the same pin scores differently
 * for different receivers), with what purges and hydration need (author, board, creation time).
 * Scores are finite and non-negative; higher is better.
 */
public record PoolEntry(long userId, Source source, double score, long pinId, long authorId, long boardId, long createdAtMillis) {

    public PoolEntry {
        if (!(score >= 0) || Double.isInfinite(score)) throw new IllegalArgumentException("score must be finite and >= 0: " + score);
    }
}
