package dev.pinfeed.feedstore;

import java.util.Collection;
import java.util.Map;

/**
 * When each user last read his home feed, for the fan-out's active-receiver policy: the feed service
 * records every first page, the fan-out asks about a whole page of receivers at once (100 000 of
 * them for a big author's pin). Kept apart from the feed's {@link GeneratorState} (HBase) so that
 * batch read is cheap: in HBase it is one Get per receiver, on the region server the pool writes need.
 *
 * <p>Losing a record is safe: a user without one counts as active (he receives pins, as one who never
 * read does). The feed service records here before it saves the same read in the user's
 * {@link GeneratorState}, and only a read a replica confirmed: so this store never holds an older read
 * than the state, and a user the fan-out skipped always looks like a returning one to the feed service,
 * which then regenerates his pools.
 */
public interface LastReadStore extends AutoCloseable {

    /**
     * The user read his feed at {@code readMillis}; an older time than the one held changes nothing.
     * Returns whether a replica holds the record too (false: it may be lost in a failover).
     */
    boolean recordRead(long userId, long readMillis);

    /** The last read of each of these users, in one round trip per instance; users without a record are absent. */
    Map<Long, Long> lastReads(Collection<Long> userIds);

    @Override
    default void close() {}
}
