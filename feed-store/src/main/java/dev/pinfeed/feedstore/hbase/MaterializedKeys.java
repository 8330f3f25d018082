package dev.pinfeed.feedstore.hbase;

import dev.pinfeed.feedstore.FeedItem;
import dev.pinfeed.feedstore.FeedPosition;
import dev.pinfeed.feedstore.Source;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;

/**
 * The row layout of table {@code pinfeed:materialized_feed} (family {@code f}); nothing else formats
 * these bytes.
 *
 * <pre>
 * state    user(8) 0x00                        n = next chunk size(4), r = last read ms(8), c = items estimate(4; absent: unknown)
 * journal  user(8) 0x00 chunk(8)               j = the chunk (user, chunk id, items) as ChunkCodec writes it
 * item     user(8) 0x01 ~chunk(8) index(4)     i = pin(8) source(1) score(8, double) author(8) board(8)
 * old state user(8) 0x02                       as state: where earlier versions kept it; read only when the state row is absent
 * "heartbeat" (9 bytes, 9th 't' = 0x74)       h = writer's wall clock ms(8), for the standby's replication lag
 * </pre>
 * {@code ~chunk} is {@code Long.MAX_VALUE - chunkId}: chunk ids grow with time, so a scan of the
 * user's items meets the newest chunk first, each chunk in the generator's order. The state row sorts
 * first, then the journal, then the items: a first page's three questions (state, pending chunks, the
 * newest items) are one scan from the state row on.
 */
public final class MaterializedKeys {

    static final byte[] FAMILY = {'f'};
    static final byte[] JOURNAL = {'j'};
    static final byte[] ITEM = {'i'};
    static final byte[] CHUNK_SIZE = {'n'};
    static final byte[] LAST_READ = {'r'};
    static final byte[] ITEM_COUNT = {'c'};
    static final byte[] HEARTBEAT = {'h'};
    /** Shaped like no user row: a user row's 9th byte is a kind (0..2), this one's is 't'. */
    static final byte[] HEARTBEAT_ROW = {'h', 'e', 'a', 'r', 't', 'b', 'e', 'a', 't'};
    /** The state row's and the journal rows' kind: the state row (9 bytes) sorts before every journal row (17). */
    private static final byte HEAD_KIND = 0;
    private static final byte ITEM_KIND = 1;
    private static final byte OLD_STATE_KIND = 2;

    private MaterializedKeys() {}

    static byte[] journalRow(long user, long chunkId) {
        return ByteBuffer.allocate(17).putLong(user).put(HEAD_KIND).putLong(chunkId).array();
    }

    /** The user's journal rows: right after his state row, up to his items. */
    static byte[][] journalRange(long user) {
        return new byte[][] {after(stateRow(user)), ByteBuffer.allocate(9).putLong(user).put(ITEM_KIND).array()};
    }

    static byte[] itemRow(long user, FeedPosition p) {
        return ByteBuffer.allocate(21).putLong(user).put(ITEM_KIND).putLong(Long.MAX_VALUE - p.chunkId()).putInt(p.index()).array();
    }

    static byte[][] itemRange(long user) {
        return new byte[][] {ByteBuffer.allocate(9).putLong(user).put(ITEM_KIND).array(),
                ByteBuffer.allocate(9).putLong(user).put(OLD_STATE_KIND).array()};
    }

    /**
     * The scan of a page of the user's feed: up to {@code limit + 1} item rows (the extra one says more
     * follow) after {@code after} (null: from the newest). Public for the load harness's raw baseline
     * (the same rows through a bare scan).
     */
    public static Scan pageScan(long user, FeedPosition after, int limit) {
        byte[][] range = itemRange(user);
        byte[] start = after == null ? range[0] : after(itemRow(user, after));
        return new Scan().withStartRow(start).withStopRow(range[1]).setLimit(limit + 1).setCaching(Math.min(limit + 1, 1000));
    }

    /**
     * One scan for a next page and the question whether the user has journaled chunks: his journal
     * rows (they sort before his items) and the page's rows, up to {@code limit + 1} rows in all. A
     * journal row among them means "pending"; otherwise the rows are {@link #pageScan}'s.
     */
    static Scan journalAndPageScan(long user, FeedPosition after, int limit) {
        byte[][] journal = journalRange(user);
        Scan page = pageScan(user, after, limit);
        return journalAnd(user, page.getStartRow(), page.getStopRow()).setLimit(limit + 1).setCaching(Math.min(limit + 1, 1000));
    }

    /** One scan of the user's state row and his journal rows (they sort together, before his items). */
    static Scan stateAndJournalScan(long user) {
        return new Scan().withStartRow(stateRow(user)).withStopRow(journalRange(user)[1]);
    }

    /**
     * One scan for a first page: the user's state row, his journal rows, then his newest items, {@code limit + 2} rows
     * in all (the state, the page, and one more to say more follow). A journal row among them means "pending": the page
     * then waits for its completion, and the journal is read whole.
     */
    static Scan firstPageScan(long user, int limit) {
        return new Scan().withStartRow(stateRow(user)).withStopRow(itemRange(user)[1]).setLimit(limit + 2)
                .setCaching(Math.min(limit + 2, 1000));
    }

    /** The user's journal rows and the rows in [start, stop) (which sort after them) in one scan; a filter skips the rows between. */
    private static Scan journalAnd(long user, byte[] start, byte[] stop) {
        byte[][] journal = journalRange(user);
        return new Scan().withStartRow(journal[0]).withStopRow(stop)
                .setFilter(new MultiRowRangeFilter(new ArrayList<>(List.of(new MultiRowRangeFilter.RowRange(journal[0], true, journal[1], false),
                        new MultiRowRangeFilter.RowRange(start, true, stop, false)))));
    }

    /** Start (inclusive) and stop (exclusive) rows of everything held for the user: journal, items, state. */
    static byte[][] userRange(long user) {
        return new byte[][] {stateRow(user), ByteBuffer.allocate(9).putLong(user).put((byte) (OLD_STATE_KIND + 1)).array()};
    }

    static boolean isJournalRow(byte[] row) {
        return row.length == 17 && row[8] == HEAD_KIND;
    }

    static boolean isStateRow(byte[] row) {
        return row.length == 9 && row[8] == HEAD_KIND;
    }

    static FeedPosition positionOf(byte[] itemRow) {
        ByteBuffer r = ByteBuffer.wrap(itemRow);
        r.getLong();
        r.get();
        long chunk = Long.MAX_VALUE - r.getLong();
        return new FeedPosition(chunk, r.getInt());
    }

    static byte[] itemValue(FeedItem item) {
        return ByteBuffer.allocate(33).putLong(item.pinId()).put(item.source().code()).putDouble(item.score())
                .putLong(item.authorId()).putLong(item.boardId()).array();
    }

    static FeedItem decodeItem(byte[] value) {
        ByteBuffer v = ByteBuffer.wrap(value);
        long pin = v.getLong();
        Source source = Source.ofCode(v.get());
        double score = v.getDouble();
        return new FeedItem(pin, source, score, v.getLong(), v.getLong());
    }

    static byte[] stateRow(long user) {
        return ByteBuffer.allocate(9).putLong(user).put(HEAD_KIND).array();
    }

    /** Where earlier versions kept the state (after the items): read only when {@link #stateRow} is absent. */
    static byte[] oldStateRow(long user) {
        return ByteBuffer.allocate(9).putLong(user).put(OLD_STATE_KIND).array();
    }

    /** The row right after {@code row} in sort order: a scan starting there excludes {@code row}. */
    static byte[] after(byte[] row) {
        byte[] next = new byte[row.length + 1];
        System.arraycopy(row, 0, next, 0, row.length);
        return next;
    }
}
