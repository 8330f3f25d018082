package dev.pinfeed.ingestapi.core;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The ingest side's record of which users, boards, pins and comments exist, and the immutable facts
 * events need but requests do not carry: a board's owner (for BoardFollowed), a pin's board and author
 * (for PinDeleted), a comment's pin and author (for CommentDeleted). Written before an object's create event is published, removed again if the
 * publish fails.
 */
public interface ObjectDirectory extends AutoCloseable {

    /**
     * A known object: {@code ownerId} is a board's owner or a pin's or comment's author; {@code parentId} a pin's board or a
     * comment's pin, else 0.
     */
    record Entry(long id, long ownerId, long parentId) {}

    /** Records entries; recording one again is a no-op (replays are safe). */
    void register(List<Entry> entries);

    /** The entries of those ids that are known; unknown ids are absent from the map. */
    Map<Long, Entry> find(Collection<Long> ids);

    /** Forgets entries whose create event could not be published. */
    void remove(List<Entry> entries);

    @Override
    default void close() {}
}
