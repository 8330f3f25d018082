package dev.pinfeed.fanoutstreams.related;

/**
 * What the related-pins application's stages tell each other, through its repartition topics: facts about a pin
 * (keyed by that pin, for the pin stage) and about a board (keyed by that board, for the board stage). Bytes:
 * {@code dev.pinfeed.fanoutstreams.kafka.RelatedCodec}.
 */
public sealed interface RelatedMessage {

    /** The partition key: the pin for the pin stage, the board for the board stage. */
    long key();

    // ---- to the pin stage (key = pin) ----

    /** A pin was created on its own board; {@code parentPinId} 0 unless it is a repin. */
    record Created(long pinId, long boardId, long authorId, long createdAt, long parentPinId) implements RelatedMessage {
        public long key() { return pinId; }
    }

    /** {@code userId} saved (repinned) {@code pinId} onto {@code boardId}, in the event {@code eventId}. */
    record Saved(long pinId, long boardId, long userId, long eventId, long occurredAt) implements RelatedMessage {
        public long key() { return pinId; }
    }

    /** The pin was deleted. */
    record Deleted(long pinId) implements RelatedMessage {
        public long key() { return pinId; }
    }

    /** {@code userId} liked {@code pinId}, in the event {@code eventId}. */
    record Liked(long pinId, long userId, long eventId, long occurredAt) implements RelatedMessage {
        public long key() { return pinId; }
    }

    // ---- to the board stage (key = board) ----

    /** {@code pin} is on {@code boardId} now (its own board, or one it was saved onto). */
    record Joined(long boardId, Member pin) implements RelatedMessage {
        public long key() { return boardId; }
    }

    /** {@code pinId} is no longer on {@code boardId} (deleted). */
    record Left(long boardId, long pinId) implements RelatedMessage {
        public long key() { return boardId; }
    }

    /**
     * {@code userId}'s action on {@code subjectPinId} (event {@code eventId}) asks {@code boardId} for up to {@code limit}
     * of its newest pins, other than the subject and {@code alsoExcluded} (the subject's parent, 0: none) and not
     * authored by the user.
     */
    record Asked(long boardId, long subjectPinId, long alsoExcluded, long userId, long eventId, long occurredAt, int limit)
            implements RelatedMessage {
        public long key() { return boardId; }
    }

    /** A pin as a board lists it: its id, its own board, its author and creation time (what a FanoutChunk carries). */
    record Member(long pinId, long boardId, long authorId, long createdAt) {}
}
