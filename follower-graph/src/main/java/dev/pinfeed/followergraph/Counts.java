package dev.pinfeed.followergraph;

/**
 * Exact counts of a user's lists. Explicit and implicit are disjoint (implicit means "only through
 * boards"), so the totals are plain sums.
 */
public record Counts(long explicitFollowers, long implicitFollowers, long explicitFollowing, long implicitFollowing,
                     long followingBoards) {

    /** Users who follow him or at least one of his boards. */
    public long followers() {
        return explicitFollowers + implicitFollowers;
    }

    /** Users he follows explicitly or through at least one board. */
    public long followingUsers() {
        return explicitFollowing + implicitFollowing;
    }
}
