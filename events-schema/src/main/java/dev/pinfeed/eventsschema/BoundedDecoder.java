package dev.pinfeed.eventsschema;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.avro.io.Decoder;
import org.apache.avro.util.Utf8;

/**
 * A binary decoder that checks every length prefix against {@link DecodeLimits} before the reader
 * allocates for it: strings and bytes are read here (the length first, then exactly that many bytes),
 * and an array's or map's block count is checked when the delegate returns it, before the datum reader
 * sizes a collection by it. Skipped fields allocate nothing; their blocks are checked one by one.
 */
final class BoundedDecoder extends Decoder {

    private final Decoder in;
    private final DecodeLimits limits;
    /** Items read so far of each array or map being read, innermost first. */
    private final Deque<long[]> open = new ArrayDeque<>();

    BoundedDecoder(Decoder in, DecodeLimits limits) {
        this.in = in;
        this.limits = limits;
    }

    @Override
    public Utf8 readString(Utf8 old) throws IOException {
        int length = length("string");
        Utf8 result = old != null ? old : new Utf8();
        result.setByteLength(length);
        in.readFixed(result.getBytes(), 0, length);
        return result;
    }

    @Override
    public String readString() throws IOException {
        byte[] bytes = new byte[length("string")];
        in.readFixed(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public ByteBuffer readBytes(ByteBuffer old) throws IOException {
        int length = length("bytes");
        ByteBuffer result = old != null && old.hasArray() && length <= old.capacity() ? old.clear() : ByteBuffer.allocate(length);
        in.readFixed(result.array(), result.arrayOffset(), length);
        result.limit(length);
        return result;
    }

    private int length(String kind) throws IOException {
        long length = in.readLong();
        if (length < 0) throw new IOException("malformed " + kind + ": negative length " + length);
        return limits.checkLength(kind, length);
    }

    @Override
    public long readArrayStart() throws IOException {
        return started("array", in.readArrayStart());
    }

    @Override
    public long arrayNext() throws IOException {
        return next("array", in.arrayNext());
    }

    @Override
    public long readMapStart() throws IOException {
        return started("map", in.readMapStart());
    }

    @Override
    public long mapNext() throws IOException {
        return next("map", in.mapNext());
    }

    private long started(String kind, long items) {
        limits.checkItems(kind, items);
        if (items > 0) open.push(new long[] {items});
        return items;
    }

    private long next(String kind, long items) {
        if (items == 0) {
            open.poll();
            return 0;
        }
        long[] total = open.isEmpty() ? new long[1] : open.peek();
        total[0] += items;
        limits.checkItems(kind, total[0]);
        return items;
    }

    @Override
    public long skipArray() throws IOException {
        long items = in.skipArray();
        limits.checkItems("array", items);
        return items;
    }

    @Override
    public long skipMap() throws IOException {
        long items = in.skipMap();
        limits.checkItems("map", items);
        return items;
    }

    // ---- no length prefix, or nothing allocated: as the delegate reads them

    @Override public void readNull() throws IOException { in.readNull(); }
    @Override public boolean readBoolean() throws IOException { return in.readBoolean(); }
    @Override public int readInt() throws IOException { return in.readInt(); }
    @Override public long readLong() throws IOException { return in.readLong(); }
    @Override public float readFloat() throws IOException { return in.readFloat(); }
    @Override public double readDouble() throws IOException { return in.readDouble(); }
    @Override public void skipString() throws IOException { in.skipString(); }
    @Override public void skipBytes() throws IOException { in.skipBytes(); }
    @Override public void readFixed(byte[] bytes, int start, int length) throws IOException { in.readFixed(bytes, start, length); }
    @Override public void skipFixed(int length) throws IOException { in.skipFixed(length); }
    @Override public int readEnum() throws IOException { return in.readEnum(); }
    @Override public int readIndex() throws IOException { return in.readIndex(); }
}
