package dev.pinfeed.ingestapi.core;

import dev.pinfeed.ingestapi.core.IngestRejection.Reason;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The ingest side's record of which users, boards, pins and comments exist, and the immutable facts
 * events need but requests do not carry: a board's owner (for BoardFollowed), a pin's board and author
 * (for PinDeleted), a comment's pin and author (for CommentDeleted). Written before an object's create
 * event is published, removed again if the publish fails. A deleted pin stays known, marked deleted
 * (seed 002's soft delete), so a repeated delete still finds its board and author while new likes,
 * comments and reorders of it are refused.
 */
public interface ObjectDirectory extends AutoCloseable {

    /**
     * A known object: {@code ownerId} is a board's owner or a pin's or comment's author; {@code parentId} a pin's board or a
     * comment's pin, else 0;
     * {@code deleted} once its delete event was acknowledged (final: nothing undeletes).
     */
    record Entry(long id, long ownerId, long parentId, boolean deleted) {

        /** A live entry. */
        public Entry(long id, long ownerId, long parentId) {
            this(id, ownerId, parentId, false);
        }

        public Entry asDeleted() {
            return new Entry(id, ownerId, parentId, true);
        }

        /**
         * The check every write that acts on an existing object makes (likes and reorders now, repins and
         * comments next: they declare their pin with {@link IngestCommand.Reference#live}): refuses a
         * deleted object with a DELETED rejection naming {@code field} (HTTP 409 {@code pin-deleted}).
         */
        public void requireLive(String field) {
            if (deleted) throw new IngestRejection(Reason.DELETED, field, field + " " + id + " names a deleted pin");
        }
    }

    /** Records entries; recording one again is a no-op (replays are safe). */
    void register(List<Entry> entries);

    /** The entries of those ids that are known, deleted ones marked; unknown ids are absent from the map. */
    Map<Long, Entry> find(Collection<Long> ids);

    /** Forgets entries whose create event could not be published. */
    void remove(List<Entry> entries);

    /** Marks entries deleted; marking one again is a no-op. Called only once their delete event is acknowledged. */
    void markDeleted(List<Entry> entries);

    @Override
    default void close() {}
}
