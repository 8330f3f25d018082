package dev.pinfeed.operations.verify.pools;

/** One way a user's pools differ from what they should hold. */
public record PoolDifference(Kind kind, long userId, long pinId, String detail) {

    /** The kinds, in the order they are reported; {@link #label} is how the report and {@code --json} name them. */
    public enum Kind {
        /** An index row pointing at no entry row. */
        DANGLING_INDEX("dangling-index"),
        /** An entry of a pin the canonical store does not hold live (deleted, or unknown). */
        DELETED_PIN("deleted-pin"),
        /** An entry of a live pin the user does not receive (he follows neither its board nor, for that board, its author). */
        EXTRA("extra"),
        /** A delivery the user should still hold, in neither his pools nor his feed, and not trimmed or dropped. */
        MISSING("missing");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    @Override
    public String toString() {
        return kind.label + " user " + userId + " pin " + pinId + ": " + detail;
    }
}
