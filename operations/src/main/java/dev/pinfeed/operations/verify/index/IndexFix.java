package dev.pinfeed.operations.verify.index;

import java.util.Map;

/**
 * The one write that repairs a difference of the username index, on the claim's shard. Each is
 * conditional on what it found (the name and the user it names), so running it twice, or after
 * someone else fixed it, changes nothing; none ever overwrites a claim naming someone else.
 */
public sealed interface IndexFix {

    int shard();

    String username();

    /** In words, for the report. */
    String describe();

    /**
     * Whether the fix may still run now that {@code currentUsernames} (user id → the username of its
     * row, read again just before the repair) holds: a fix that takes the name from a user the scan found
     * without a row naming it must not run once such a row exists (its UserCreated landed after all).
     */
    boolean safeGiven(Map<Long, String> currentUsernames);

    /** DELETE the claim of {@code username} naming {@code userId} (no other). */
    record DeleteClaim(int shard, String username, long userId, boolean recheck) implements IndexFix {
        @Override
        public String describe() {
            return "delete the claim naming " + userId;
        }

        @Override
        public boolean safeGiven(Map<Long, String> currentUsernames) {
            return !recheck || !username.equals(currentUsernames.get(userId));
        }
    }

    /** INSERT the claim of {@code username} for {@code userId}, keeping any claim that exists by then. */
    record InsertClaim(int shard, String username, long userId) implements IndexFix {
        @Override
        public String describe() {
            return "claim it for " + userId;
        }

        @Override
        public boolean safeGiven(Map<Long, String> currentUsernames) {
            return true;
        }
    }

    /** UPDATE the claim of {@code username} from {@code fromUserId} to {@code toUserId} (only if it still names the former). */
    record MoveClaim(int shard, String username, long fromUserId, long toUserId, boolean recheck) implements IndexFix {
        @Override
        public String describe() {
            return "move the claim from " + fromUserId + " to " + toUserId;
        }

        @Override
        public boolean safeGiven(Map<Long, String> currentUsernames) {
            return !recheck || !username.equals(currentUsernames.get(fromUserId));
        }
    }

    /** The user whose row must be read again before this fix runs, or 0. */
    default long recheckUserId() {
        if (this instanceof DeleteClaim d && d.recheck()) return d.userId();
        if (this instanceof MoveClaim m && m.recheck()) return m.fromUserId();
        return 0;
    }
}
