package dev.pinfeed.operations.shards;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import dev.pinfeed.config.HostPort;
import java.io.IOException;
import java.io.Serializable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Replays a source host's binlog, from a position, onto a target host for some databases only: the
 * catch-up of a shard move (seed 003: "replay binlogs just for this table on the destination"). Rows
 * are applied by primary key ({@code REPLACE}, {@code DELETE}), one source transaction per target
 * transaction, so replaying a row the copy already holds changes nothing. Needs row-based binlogs
 * with full row images (the shard hosts' configuration).
 */
final class BinlogReplay implements AutoCloseable {

    /** The client logs each connection at INFO through java.util.logging: progress lines say that already. */
    private static final java.util.logging.Logger CLIENT_LOG = quiet(java.util.logging.Logger.getLogger("com.github.shyiko.mysql.binlog"));
    private static final DateTimeFormatter UTC_MICROS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS").withZone(ZoneOffset.UTC);

    private final BinaryLogClient client;
    private final Set<String> databases;
    private final UnaryOperator<String> targetDatabase;
    private final Connection target;
    private final TableShapes shapes;
    private final Map<Long, TableMapEventData> tables = new HashMap<>();
    private final List<PreparedWrite> pending = new ArrayList<>();
    private final Map<String, String> sqlCache = new HashMap<>();
    private final AtomicLong rowsApplied = new AtomicLong();
    private String file;
    private volatile BinlogPosition applied;
    private volatile Throwable failure;

    private record PreparedWrite(String sql, Object[] values) {}

    /**
     * @param targetDatabase the database on the target that receives a source database's rows
     * @param target         a connection to the target's master (an administrative account: it writes to any database)
     */
    BinlogReplay(HostPort source, String user, String password, BinlogPosition from, Set<String> databases,
                 UnaryOperator<String> targetDatabase, Connection target, TableShapes shapes) throws SQLException {
        this.databases = Set.copyOf(databases);
        this.targetDatabase = targetDatabase;
        this.target = target;
        this.shapes = shapes;
        this.file = from.file();
        this.applied = from;
        target.setAutoCommit(false);
        try (Statement st = target.createStatement()) {
            st.execute("SET time_zone = '+00:00'"); // the binlog's TIMESTAMPs are instants; written back as UTC text
        }
        client = new BinaryLogClient(source.host(), source.port(), user, password);
        client.setServerId(0x7000_0000L + ThreadLocalRandom.current().nextInt(0x0FFF_FFFF)); // not a server's id
        client.setBinlogFilename(from.file());
        client.setBinlogPosition(from.offset());
        client.setKeepAlive(false);
        EventDeserializer deserializer = new EventDeserializer();
        deserializer.setCompatibilityMode(EventDeserializer.CompatibilityMode.DATE_AND_TIME_AS_LONG_MICRO,
                EventDeserializer.CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY);
        client.setEventDeserializer(deserializer);
        client.registerEventListener(this::onEvent);
    }

    private static java.util.logging.Logger quiet(java.util.logging.Logger log) {
        log.setLevel(java.util.logging.Level.WARNING);
        return log;
    }

    /** Connects and replays in the background until {@link #close}. */
    BinlogReplay start() throws IOException, TimeoutException {
        client.connect(10_000);
        return this;
    }

    /** Everything before this position has been applied to the target (a transaction boundary or an event without rows of ours). */
    BinlogPosition applied() {
        return applied;
    }

    long rowsApplied() {
        return rowsApplied.get();
    }

    /**
     * Waits until everything before {@code position} is applied, calling {@code waiting} about every
     * second; {@link IllegalStateException} if the replay failed or {@code timeout} passed.
     */
    void awaitApplied(BinlogPosition position, Duration timeout, Consumer<BinlogReplay> waiting) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long nextReport = System.nanoTime() + 1_000_000_000L;
        while (applied.compareTo(position) < 0) {
            if (failure != null) throw new IllegalStateException("replaying the binlog failed: " + failure.getMessage(), failure);
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the binlog replay reached " + applied + ", not " + position + ", within " + timeout.toSeconds() + " s");
            }
            if (System.nanoTime() - nextReport > 0) {
                waiting.accept(this);
                nextReport = System.nanoTime() + 1_000_000_000L;
            }
            Thread.sleep(5);
        }
        if (failure != null) throw new IllegalStateException("replaying the binlog failed: " + failure.getMessage(), failure);
    }

    private void onEvent(Event event) {
        if (failure != null) return;
        try {
            handle(event);
        } catch (SQLException | RuntimeException e) {
            failure = e;
            try {
                target.rollback();
            } catch (SQLException ignored) {
                // the failure above is what matters
            }
        }
    }

    private void handle(Event event) throws SQLException {
        EventType type = event.getHeader().getEventType();
        long next = event.getHeader() instanceof EventHeaderV4 h ? h.getNextPosition() : 0;
        switch (type) {
            case ROTATE -> {
                RotateEventData r = event.getData();
                file = r.getBinlogFilename();
                if (pending.isEmpty()) applied = new BinlogPosition(file, r.getBinlogPosition());
                return;
            }
            case TABLE_MAP -> {
                TableMapEventData t = event.getData();
                tables.put(t.getTableId(), t);
            }
            case WRITE_ROWS, EXT_WRITE_ROWS -> {
                WriteRowsEventData w = event.getData();
                TableMapEventData t = ours(w.getTableId());
                if (t != null) for (Serializable[] row : w.getRows()) replace(t, row);
            }
            case UPDATE_ROWS, EXT_UPDATE_ROWS -> {
                UpdateRowsEventData u = event.getData();
                TableMapEventData t = ours(u.getTableId());
                if (t != null) {
                    for (Map.Entry<Serializable[], Serializable[]> row : u.getRows()) {
                        if (!sameKey(t, row.getKey(), row.getValue())) delete(t, row.getKey());
                        replace(t, row.getValue());
                    }
                }
            }
            case DELETE_ROWS, EXT_DELETE_ROWS -> {
                DeleteRowsEventData d = event.getData();
                TableMapEventData t = ours(d.getTableId());
                if (t != null) for (Serializable[] row : d.getRows()) delete(t, row);
            }
            case XID -> {
                flush();
                tables.clear();
            }
            default -> {
                // GTID, query (DDL, BEGIN), annotate and format events carry no rows of ours
            }
        }
        if (pending.isEmpty() && next > 0) applied = new BinlogPosition(file, next);
    }

    private TableMapEventData ours(long tableId) {
        TableMapEventData t = tables.get(tableId);
        if (t == null) throw new IllegalStateException("a row event names table id " + tableId + " without its table map");
        return databases.contains(t.getDatabase()) ? t : null;
    }

    private boolean sameKey(TableMapEventData t, Serializable[] before, Serializable[] after) {
        for (int i : shapes.shape(t.getTable()).keyIndexes()) {
            if (!java.util.Objects.deepEquals(before[i], after[i])) return false;
        }
        return true;
    }

    private void replace(TableMapEventData t, Serializable[] row) {
        TableShapes.Shape shape = shapes.shape(t.getTable());
        if (row.length != shape.columns().size()) {
            throw new IllegalStateException(t.getDatabase() + "." + t.getTable() + " rows have " + row.length + " columns, the table "
                    + shape.columns().size() + " (binlog_row_image must be FULL, the schema unchanged during a move)");
        }
        String db = targetDatabase.apply(t.getDatabase());
        String sql = sqlCache.computeIfAbsent("R" + db + "." + t.getTable(), k -> "REPLACE INTO `" + db + "`.`" + t.getTable() + "` ("
                + String.join(", ", shape.columns().stream().map(c -> "`" + c + "`").toList()) + ") VALUES ("
                + String.join(", ", java.util.Collections.nCopies(shape.columns().size(), "?")) + ")");
        Object[] values = new Object[row.length];
        for (int i = 0; i < row.length; i++) values[i] = value(t, i, row[i]);
        pending.add(new PreparedWrite(sql, values));
    }

    private void delete(TableMapEventData t, Serializable[] row) {
        TableShapes.Shape shape = shapes.shape(t.getTable());
        String db = targetDatabase.apply(t.getDatabase());
        String sql = sqlCache.computeIfAbsent("D" + db + "." + t.getTable(), k -> "DELETE FROM `" + db + "`.`" + t.getTable() + "` WHERE "
                + String.join(" AND ", shape.primaryKey().stream().map(c -> "`" + c + "` = ?").toList()));
        int[] keys = shape.keyIndexes();
        Object[] values = new Object[keys.length];
        for (int i = 0; i < keys.length; i++) values[i] = value(t, keys[i], row[keys[i]]);
        pending.add(new PreparedWrite(sql, values));
    }

    /** A binlog value as a JDBC parameter: instants (microseconds, this deserializer's mode) as UTC text. */
    private static Object value(TableMapEventData t, int column, Serializable v) {
        if (v == null) return null;
        ColumnType type = ColumnType.byCode(t.getColumnTypes()[column] & 0xFF);
        if (type == ColumnType.TIMESTAMP || type == ColumnType.TIMESTAMP_V2) {
            long micros = (Long) v;
            return UTC_MICROS.format(Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L));
        }
        return v;
    }

    private void flush() throws SQLException {
        if (pending.isEmpty()) return;
        PreparedStatement open = null;
        String openSql = null;
        try {
            for (PreparedWrite w : pending) {
                if (!w.sql().equals(openSql)) {
                    if (open != null) {
                        open.executeBatch();
                        open.close();
                    }
                    open = target.prepareStatement(w.sql());
                    openSql = w.sql();
                }
                for (int i = 0; i < w.values().length; i++) open.setObject(i + 1, w.values()[i]);
                open.addBatch();
            }
            if (open != null) open.executeBatch();
        } finally {
            if (open != null) open.close();
        }
        target.commit();
        rowsApplied.addAndGet(pending.size());
        pending.clear();
    }

    @Override
    public void close() throws IOException {
        client.disconnect();
    }
}
