package dev.pinfeed.followergraph.sharded;

import java.util.Map;
import java.util.TreeMap;

/**
 * The follow rules, as a pure function of the edge registers between one follower and one owner:
 * the user register (follower → owner) and the board registers (follower → each of the owner's
 * boards the follower ever followed or unfollowed). Every store derives its materialized sets from
 * this; recomputing the whole pair from registers is what makes replays and reordering converge.
 *
 * <ul>
 *   <li>explicit: the owner is followed explicitly iff the user register says follow (score = its time);</li>
 *   <li>board followed explicitly iff its register says follow (score = its time);</li>
 *   <li>exception (board in the follower's "unfollowed boards" and the board's "unfollowers") iff the
 *       board register says unfollow, the owner is followed explicitly, and the unfollow is newer than
 *       that follow — a newer user follow means "all his boards" again;</li>
 *   <li>implicit: the owner is followed implicitly iff he is not followed explicitly and at least one
 *       of his boards is followed explicitly (score = the earliest such board follow). Explicit and
 *       implicit are disjoint, so counts add up exactly.</li>
 * </ul>
 * This equals replaying the pair's events in version order (the README's rules, stated as actions).
 */
final class PairRules {

    private PairRules() {}

    /** Derived state of one board for the pair: {@code followedAt} null when not followed explicitly. */
    record BoardEdge(Long followedAt, boolean exception) {}

    /** Derived state of a pair; scores are null when absent. */
    record PairState(Long explicitAt, Long implicitAt, Map<Long, BoardEdge> boards) {}

    static PairState derive(Register user, Map<Long, Register> boards) {
        Long explicitAt = user != null && user.follow() ? user.at() : null;
        Long earliestBoard = null;
        Map<Long, BoardEdge> edges = new TreeMap<>();
        for (Map.Entry<Long, Register> e : boards.entrySet()) {
            Register b = e.getValue();
            Long followedAt = b.follow() ? b.at() : null;
            boolean exception = !b.follow() && explicitAt != null && b.newerThan(user);
            if (followedAt != null && (earliestBoard == null || followedAt < earliestBoard)) earliestBoard = followedAt;
            edges.put(e.getKey(), new BoardEdge(followedAt, exception));
        }
        return new PairState(explicitAt, explicitAt == null ? earliestBoard : null, edges);
    }
}
