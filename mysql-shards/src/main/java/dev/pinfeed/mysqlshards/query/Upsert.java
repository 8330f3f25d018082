package dev.pinfeed.mysqlshards.query;

import java.util.ArrayList;
import java.util.List;

/**
 * INSERT of one or more rows with a rule for rows whose key exists (INSERT ... ON DUPLICATE KEY
 * UPDATE): the building block of idempotent, replayable writes.
 * <ul>
 *   <li>{@link #keepExisting()} — an existing row wins (immutable objects, mappings);</li>
 *   <li>{@link #set(String, Object)} — set a column to a value on an existing row (e.g. {@code active = 0});</li>
 *   <li>{@link #overwrite(String)} — the column takes the inserted value;</li>
 *   <li>{@link #jsonSet} and {@link #replacePlaceholder} — a JSON column's field, or a placeholder row's JSON;</li>
 *   <li>{@link #greatest(String)} — the column keeps the greater of its value and the inserted one (a
 *       "newest event applied" time: replays and any order end alike);</li>
 *   <li>{@link #newerWins(String, String...)} — last writer wins by a version column: the listed
 *       columns take the new values only when the new version is greater, and the version keeps the
 *       greatest.</li>
 * </ul>
 */
public final class Upsert implements Write {

    private final String table;
    private final List<String> columns = new ArrayList<>();
    private final List<List<Object>> rows = new ArrayList<>();
    private final List<String> onDuplicate = new ArrayList<>();
    private final List<Object> onDuplicateParams = new ArrayList<>();

    private Upsert(String table) {
        this.table = Identifiers.name(table);
    }

    public static Upsert into(String table, String... columns) {
        Upsert u = new Upsert(table);
        for (String c : columns) u.columns.add(Identifiers.name(c));
        return u;
    }

    /** One row, values in column order. */
    public Upsert row(Object... values) {
        if (values.length != columns.size()) {
            throw new IllegalArgumentException(table + ": " + values.length + " values for " + columns.size() + " columns");
        }
        rows.add(java.util.Collections.unmodifiableList(java.util.Arrays.asList(values.clone()))); // values may be null
        return this;
    }

    public Upsert keepExisting() {
        onDuplicate.add(columns.get(0) + " = " + columns.get(0));
        return this;
    }

    public Upsert set(String column, Object value) {
        onDuplicate.add(Identifiers.name(column) + " = " + Statements.placeholder(value, onDuplicateParams));
        return this;
    }

    /** The column takes the inserted value on an existing row (plain upsert). */
    public Upsert overwrite(String column) {
        String c = Identifiers.name(column);
        onDuplicate.add(c + " = VALUES(" + c + ")");
        return this;
    }

    /** On an existing row, {@code column = JSON_SET(column, path, value)} (e.g. a soft delete: {@code $.active} false). */
    public Upsert jsonSet(String column, String path, Object value) {
        String c = Identifiers.name(column);
        onDuplicate.add(c + " = " + Statements.jsonSet(c, path, value, onDuplicateParams));
        return this;
    }

    /**
     * On an existing row whose JSON {@code column} lacks {@code presentPath} (a placeholder written
     * before the real row, such as a tombstone of an object deleted before its create arrived), the
     * column takes the inserted JSON with {@code setPath} set to {@code setValue}; a row that has
     * {@code presentPath} is kept. Either way a replay changes nothing.
     */
    public Upsert replacePlaceholder(String column, String presentPath, String setPath, Object setValue) {
        String c = Identifiers.name(column);
        String set = Statements.jsonSet("VALUES(" + c + ")", setPath, setValue, onDuplicateParams);
        onDuplicate.add(c + " = IF(JSON_CONTAINS_PATH(" + c + ", 'one', '" + Identifiers.jsonPath(presentPath) + "'), " + c + ", " + set + ")");
        return this;
    }

    /** On an existing row the column keeps the greater of its value and the inserted one. */
    public Upsert greatest(String column) {
        String c = Identifiers.name(column);
        onDuplicate.add(c + " = GREATEST(" + c + ", VALUES(" + c + "))");
        return this;
    }

    public Upsert newerWins(String versionColumn, String... columns) {
        String v = Identifiers.name(versionColumn);
        for (String column : columns) {
            String c = Identifiers.name(column);
            onDuplicate.add(c + " = IF(VALUES(" + v + ") > " + v + ", VALUES(" + c + "), " + c + ")");
        }
        // Last: MySQL applies assignments left to right, and the ones above must see the old version.
        onDuplicate.add(v + " = GREATEST(" + v + ", VALUES(" + v + "))");
        return this;
    }

    public int rowCount() {
        return rows.size();
    }

    @Override
    public String render(String database, List<Object> params) {
        if (rows.isEmpty()) throw new IllegalStateException("an upsert needs rows");
        if (onDuplicate.isEmpty()) throw new IllegalStateException(table + ": say what an existing row does (keepExisting, set, newerWins)");
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(database).append('.').append(table)
                .append(" (").append(String.join(", ", columns)).append(") VALUES ");
        for (int i = 0; i < rows.size(); i++) {
            sql.append(i == 0 ? "(" : ", (");
            List<Object> row = rows.get(i);
            for (int c = 0; c < row.size(); c++) sql.append(c == 0 ? "" : ", ").append(Statements.placeholder(row.get(c), params));
            sql.append(')');
        }
        sql.append(" ON DUPLICATE KEY UPDATE ").append(String.join(", ", onDuplicate));
        params.addAll(onDuplicateParams);
        return sql.toString();
    }
}
