package dev.pinfeed.feedstore;

import java.util.Collection;

/**
 * Which users' pools are known to give a generation nothing, so a first page can skip reading them (most pages of a
 * reader who reads often find nothing new: the read path's costliest HBase scan, for nothing).
 *
 * <p>The protocol: a generation {@link #look}s before it reads the pools. A quiet look means nothing was written to the
 * user's pools since a generation found nothing in them: it does not read them. Otherwise the look hands out a ticket;
 * after a generation that chose and dropped nothing, {@link #markQuiet} with that ticket marks the pools quiet, unless a
 * writer {@link #written noticed} a write since the look (the notice takes the ticket away). Writers notice after their
 * pool writes returned, so a write the generation's scan missed always finds the ticket to take.
 *
 * <p>A mark lasts at most {@code maxAge} (a store setting): a write whose notice was lost (its writer died between the
 * write and the notice, the notice's store failed over or was down) reaches the reader at most that late. Losing a
 * mark only costs a scan. A look or mark that fails counts as "not known": the generation reads the pools.
 */
public interface QuietPools extends AutoCloseable {

    /** What a look found: quiet (nothing to read), or the ticket a generation that found nothing marks with (null: do not mark). */
    record Look(boolean quiet, String ticket) {

        /** Nothing known: read the pools, do not mark. */
        public static final Look UNKNOWN = new Look(false, null);

        public static final Look QUIET = new Look(true, null);
    }

    /** Before a generation reads the user's pools. */
    Look look(long userId);

    /**
     * After a generation that chose and dropped nothing from the pools it read following {@code look}: marks them quiet
     * unless a write was noticed since. Returns whether it marked.
     */
    boolean markQuiet(long userId, Look look);

    /** After writes to these users' pools returned: their pools are no longer quiet, and a pending ticket is void. */
    void written(Collection<Long> userIds);

    /**
     * Whether this process found the user's pools quiet a moment ago, from its memory alone (no store call): a first page
     * then skips its generation altogether. False unless a store remembers ({@link RememberedQuietPools}).
     */
    default boolean knownQuiet(long userId) {
        return false;
    }

    @Override
    default void close() {}

    /** Knows nothing: every generation reads the pools. */
    QuietPools NONE = new QuietPools() {
        @Override
        public Look look(long userId) {
            return Look.UNKNOWN;
        }

        @Override
        public boolean markQuiet(long userId, Look look) {
            return false;
        }

        @Override
        public void written(Collection<Long> userIds) {}
    };
}
