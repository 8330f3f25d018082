package dev.pinfeed.feedstore.hbase;

import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolRows;
import dev.pinfeed.feedstore.Source;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.hadoop.hbase.client.Put;

/**
 * The row layout of table {@code pinfeed:pools} (family {@code p}); nothing else formats these bytes.
 * Seed 002: "each key is a combination of user, score and Pin", so a scan of a user's prefix returns
 * his pool best first.
 *
 * <pre>
 * entry  user(8) 0x01 source(1) ~score(8) pin(8)   e = author(8) board(8) createdAt(8) score(8, double)
 * index  user(8) 0x02 pin(8)                       i = source(1) ~score(8)   (where the user's entry for the pin is)
 * marker pin(8)  0x04 chunk(4)                     d = 1   (this fan-out chunk of the pin was written to: PoolStore.markDelivered)
 * shown  user(8) 0x05 pin(8)                       s = when(8)  (the user was shown the pin: PoolStore.removeShown; a cell TTL ends it)
 * rebuilt user(8) 0x06                             r = when(8, epoch ms)  (his pools were rebuilt then: PoolRows.markRebuilt)
 * "heartbeat" (9 bytes, 9th 't' = 0x74)            h = writer's wall clock ms(8), for the pools' standby replication lag
 * </pre>
 * {@code ~score} is {@code Long.MAX_VALUE - doubleToLongBits(score)}: for scores >= 0 the double's bits
 * grow with the score, so the inverted value sorts the best first; equal scores sort by pin id, and
 * pin ids are time-sortable, so the older pin comes first. The index row makes "one entry per (user,
 * pin)" checkable and lets a pin be removed without knowing its score. Kind 0x03 is reserved: older
 * versions kept a per-pool size row there (an HBase counter incremented per entry); nothing writes or
 * reads it (writers estimate sizes in memory, {@link PoolSizeEstimates}) and such rows are ignored. A
 * marker row starts with a pin id, which is never a user id (ids carry their object type), so it is
 * in no user's range.
 */
public final class PoolKeys {

    static final byte[] FAMILY = {'p'};
    static final byte[] ENTRY = {'e'};
    static final byte[] INDEX = {'i'};
    static final byte[] DELIVERED = {'d'};
    static final byte[] SHOWN = {'s'};
    static final byte[] REBUILT = {'r'};
    static final byte[] HEARTBEAT = {'h'};
    /**
     * Shaped like no pool row: 9 bytes whose 9th is 't' (no kind), and whose first 8 are no user or pin id
     * (0x68... has a reserved id bit set), so no user's range and no scan of pool rows meets it.
     */
    static final byte[] HEARTBEAT_ROW = {'h', 'e', 'a', 'r', 't', 'b', 'e', 'a', 't'};
    private static final byte ENTRY_KIND = 1;
    private static final byte INDEX_KIND = 2;
    private static final byte DELIVERY_KIND = 4;
    private static final byte SHOWN_KIND = 5;
    private static final byte REBUILT_KIND = 6;

    private PoolKeys() {}

    static byte[] entryRow(PoolEntry e) {
        return entryRow(e.userId(), e.source(), invert(e.score()), e.pinId());
    }

    static byte[] entryRow(long user, Source source, long invertedScore, long pin) {
        return ByteBuffer.allocate(26).putLong(user).put(ENTRY_KIND).put(source.code()).putLong(invertedScore).putLong(pin).array();
    }

    /**
     * What storing an entry writes: its entry row and its index row. Public for the load harness's raw
     * baseline (the same rows through a bare BufferedMutator).
     */
    public static List<Put> puts(PoolEntry e) {
        return List.of(new Put(entryRow(e)).addColumn(FAMILY, ENTRY, entryValue(e)),
                new Put(indexRow(e.userId(), e.pinId())).addColumn(FAMILY, INDEX, indexValue(e.source(), invert(e.score()))));
    }

    static byte[] entryValue(PoolEntry e) {
        return ByteBuffer.allocate(32).putLong(e.authorId()).putLong(e.boardId()).putLong(e.createdAtMillis()).putDouble(e.score()).array();
    }

    static PoolEntry decodeEntry(byte[] row, byte[] value) {
        ByteBuffer r = ByteBuffer.wrap(row);
        long user = r.getLong();
        r.get(); // kind
        Source source = Source.ofCode(r.get());
        r.getLong(); // inverted score: the exact score is in the value
        long pin = r.getLong();
        ByteBuffer v = ByteBuffer.wrap(value);
        long author = v.getLong();
        long board = v.getLong();
        long createdAt = v.getLong();
        double score = v.getDouble();
        return new PoolEntry(user, source, score, pin, author, board, createdAt);
    }

    static byte[] indexRow(long user, long pin) {
        return ByteBuffer.allocate(17).putLong(user).put(INDEX_KIND).putLong(pin).array();
    }

    /** The row remembering that {@code user} was shown {@code pin}. */
    static byte[] shownRow(long user, long pin) {
        return ByteBuffer.allocate(17).putLong(user).put(SHOWN_KIND).putLong(pin).array();
    }

    /** The row saying when the user's pools were last rebuilt (outside {@link #userRowsRange}: a rebuild keeps it). */
    static byte[] rebuiltRow(long user) {
        return ByteBuffer.allocate(9).putLong(user).put(REBUILT_KIND).array();
    }

    static byte[] rebuiltValue(long atMillis) {
        return ByteBuffer.allocate(8).putLong(atMillis).array();
    }

    static long rebuiltAt(byte[] value) {
        return ByteBuffer.wrap(value).getLong();
    }

    static boolean isShownRow(byte[] row) {
        return row.length == 17 && row[8] == SHOWN_KIND;
    }

    static byte[] deliveryRow(long pin, int chunkIndex) {
        return ByteBuffer.allocate(13).putLong(pin).put(DELIVERY_KIND).putInt(chunkIndex).array();
    }

    static byte[] indexValue(Source source, long invertedScore) {
        return ByteBuffer.allocate(9).put(source.code()).putLong(invertedScore).array();
    }

    /** The entry row an index value points to. */
    static byte[] entryRowOf(long user, long pin, byte[] indexValue) {
        ByteBuffer v = ByteBuffer.wrap(indexValue);
        return entryRow(user, Source.ofCode(v.get()), v.getLong(), pin);
    }

    /** Start (inclusive) and stop (exclusive) rows of one (user, source) pool. */
    static byte[][] poolRange(long user, Source source) {
        byte[] start = ByteBuffer.allocate(10).putLong(user).put(ENTRY_KIND).put(source.code()).array();
        byte[] stop = ByteBuffer.allocate(10).putLong(user).put(ENTRY_KIND).put((byte) (source.code() + 1)).array();
        return new byte[][] {start, stop};
    }

    /** Start (inclusive) and stop (exclusive) rows of the user's index rows, in pin order. */
    static byte[][] indexRange(long user) {
        return new byte[][] {ByteBuffer.allocate(9).putLong(user).put(INDEX_KIND).array(),
                ByteBuffer.allocate(9).putLong(user).put((byte) (INDEX_KIND + 1)).array()};
    }

    /** Start and stop rows of every pool of the user. */
    static byte[][] userRange(long user) {
        return new byte[][] {ByteBuffer.allocate(9).putLong(user).put(ENTRY_KIND).array(),
                ByteBuffer.allocate(9).putLong(user).put((byte) (ENTRY_KIND + 1)).array()};
    }

    /**
     * Start (inclusive) and stop (exclusive) rows of everything stored for the user's pools: his entry
     * rows, his index rows, the pins he was shown.
     */
    static byte[][] userRowsRange(long user) {
        return new byte[][] {ByteBuffer.allocate(9).putLong(user).put(ENTRY_KIND).array(),
                ByteBuffer.allocate(9).putLong(user).put((byte) (SHOWN_KIND + 1)).array()};
    }

    /** The first row of the users after {@code user}, in the table's order (user ids are positive). */
    static byte[] firstRowAfterUser(long user) {
        return ByteBuffer.allocate(8).putLong(user + 1).array();
    }

    static boolean isEntryRow(byte[] row) {
        return row.length == 26 && row[8] == ENTRY_KIND;
    }

    static boolean isIndexRow(byte[] row) {
        return row.length == 17 && row[8] == INDEX_KIND;
    }

    /** The user of an entry or index row. */
    static long userOf(byte[] row) {
        return ByteBuffer.wrap(row).getLong(0);
    }

    /** The pin of an index row or a shown row. */
    static long pinOfIndexRow(byte[] row) {
        return ByteBuffer.wrap(row).getLong(9);
    }

    /** An index row as the place it names: the pool and the score of the entry it points at. */
    static PoolRows.IndexRow decodeIndex(byte[] row, byte[] value) {
        ByteBuffer v = ByteBuffer.wrap(value);
        Source source = Source.ofCode(v.get());
        double score = Double.longBitsToDouble(Long.MAX_VALUE - v.getLong());
        return new PoolRows.IndexRow(userOf(row), pinOfIndexRow(row), source, score);
    }

    /** The pin of an entry row. */
    static long pinOf(byte[] entryRow) {
        return ByteBuffer.wrap(entryRow).getLong(18);
    }

    static long invert(double score) {
        return Long.MAX_VALUE - Double.doubleToLongBits(score);
    }
}
