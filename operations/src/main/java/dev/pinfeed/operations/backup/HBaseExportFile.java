package dev.pinfeed.operations.backup;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The file a backup exports an HBase table's snapshot into, so the backup directory alone can bring the
 * table back (another cluster, a lost snapshot): gzip of a header ({@code PFHX}, version 1), the table's
 * descriptor (HBase's own serialized form), then every cell (row, family, qualifier, timestamp, value;
 * each byte string length-prefixed) and a closing -1. The only class that reads or writes it.
 */
final class HBaseExportFile {

    private static final int MAGIC = 0x50464858; // "PFHX"
    private static final int VERSION = 1;

    /** One cell of the table. */
    record ExportedCell(byte[] row, byte[] family, byte[] qualifier, long timestamp, byte[] value) {}

    private HBaseExportFile() {}

    /** Writes a table: its descriptor, then the cells {@link Writer#cell} is given. */
    static final class Writer implements AutoCloseable {
        private final DataOutputStream out;
        private long cells;

        Writer(Path file, byte[] descriptor) throws IOException {
            Files.createDirectories(file.getParent());
            out = new DataOutputStream(new BufferedOutputStream(new GZIPOutputStream(Files.newOutputStream(file), 1 << 16), 1 << 16));
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            bytes(descriptor);
        }

        void cell(byte[] row, byte[] family, byte[] qualifier, long timestamp, byte[] value) throws IOException {
            bytes(row);
            bytes(family);
            bytes(qualifier);
            out.writeLong(timestamp);
            bytes(value);
            cells++;
        }

        long cells() {
            return cells;
        }

        private void bytes(byte[] b) throws IOException {
            out.writeInt(b.length);
            out.write(b);
        }

        @Override
        public void close() throws IOException {
            out.writeInt(-1);
            out.close();
        }
    }

    /** Reads a table back: {@link #descriptor()} first, then {@link #next()} until null. */
    static final class Reader implements AutoCloseable {
        private final DataInputStream in;
        private final byte[] descriptor;
        private final Path file;

        Reader(Path file) throws IOException {
            this.file = file;
            in = new DataInputStream(new BufferedInputStream(new GZIPInputStream(Files.newInputStream(file), 1 << 16), 1 << 16));
            if (in.readInt() != MAGIC || in.readInt() != VERSION) throw new IOException(file + " is not an HBase export of this pinfeed");
            descriptor = bytes();
        }

        byte[] descriptor() {
            return descriptor;
        }

        /** The next cell, or null after the last. */
        ExportedCell next() throws IOException {
            int length = in.readInt();
            if (length < 0) return null;
            byte[] row = in.readNBytes(length);
            return new ExportedCell(row, bytes(), bytes(), in.readLong(), bytes());
        }

        private byte[] bytes() throws IOException {
            int length = in.readInt();
            if (length < 0) throw new IOException(file + " ends early");
            byte[] b = in.readNBytes(length);
            if (b.length != length) throw new EOFException(file + " ends early");
            return b;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
