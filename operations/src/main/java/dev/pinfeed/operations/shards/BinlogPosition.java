package dev.pinfeed.operations.shards;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A place in a MySQL host's binlog: the file ({@code mysql-bin.000042}) and the byte offset in it. Ordered. */
public record BinlogPosition(String file, long offset) implements Comparable<BinlogPosition> {

    private static final Pattern DUMP_LINE = Pattern.compile("MASTER_LOG_FILE='([^']+)',\\s*MASTER_LOG_POS=(\\d+)");

    public BinlogPosition {
        if (file == null || file.isBlank() || offset < 0) throw new IllegalArgumentException("not a binlog position: " + file + ":" + offset);
    }

    /** The host's current end of binlog ({@code SHOW MASTER STATUS}). */
    public static BinlogPosition current(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW MASTER STATUS")) {
            if (!rs.next()) throw new IllegalStateException("the host writes no binlog (log-bin is off): a shard move needs it");
            return new BinlogPosition(rs.getString(1), rs.getLong(2));
        }
    }

    /** The position a {@code mariadb-dump --master-data=2} line names, or null if the line names none. */
    public static BinlogPosition fromDumpLine(String line) {
        Matcher m = DUMP_LINE.matcher(line);
        return m.find() ? new BinlogPosition(m.group(1), Long.parseLong(m.group(2))) : null;
    }

    /** {@code file:offset}, as {@link #parse} reads it. */
    @Override
    public String toString() {
        return file + ":" + offset;
    }

    public static BinlogPosition parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0) throw new IllegalArgumentException("not a binlog position (file:offset): " + text);
        return new BinlogPosition(text.substring(0, colon), Long.parseLong(text.substring(colon + 1)));
    }

    @Override
    public int compareTo(BinlogPosition o) {
        int byFile = Long.compare(sequence(file), sequence(o.file));
        return byFile != 0 ? byFile : Long.compare(offset, o.offset);
    }

    /** The file's number: binlog files are {@code <base>.<number>}, numbered in order. */
    private static long sequence(String file) {
        int dot = file.lastIndexOf('.');
        try {
            return Long.parseLong(file.substring(dot + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a binlog file name: " + file, e);
        }
    }
}
