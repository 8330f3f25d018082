package dev.pinfeed.operations.shards;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The columns (in binlog order) and primary key of each table a shard database holds. Every shard
 * database has the same tables, so one database's answer is every database's.
 */
record TableShapes(Map<String, Shape> byTable) {

    /** One table: its columns in ordinal order (the binlog's row order) and the names of its primary key. */
    record Shape(List<String> columns, List<String> primaryKey) {
        int[] keyIndexes() {
            int[] out = new int[primaryKey.size()];
            for (int i = 0; i < out.length; i++) out[i] = columns.indexOf(primaryKey.get(i));
            return out;
        }
    }

    static TableShapes of(Connection c, String database) throws SQLException {
        Map<String, List<String>> columns = new LinkedHashMap<>();
        Map<String, List<String>> keys = new LinkedHashMap<>();
        try (PreparedStatement q = c.prepareStatement("SELECT table_name, column_name FROM information_schema.columns "
                + "WHERE table_schema = ? ORDER BY table_name, ordinal_position")) {
            q.setString(1, database);
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) columns.computeIfAbsent(rs.getString(1), t -> new ArrayList<>()).add(rs.getString(2));
            }
        }
        try (PreparedStatement q = c.prepareStatement("SELECT table_name, column_name FROM information_schema.key_column_usage "
                + "WHERE table_schema = ? AND constraint_name = 'PRIMARY' ORDER BY table_name, ordinal_position")) {
            q.setString(1, database);
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) keys.computeIfAbsent(rs.getString(1), t -> new ArrayList<>()).add(rs.getString(2));
            }
        }
        if (columns.isEmpty()) throw new IllegalStateException("database " + database + " has no tables");
        Map<String, Shape> shapes = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : columns.entrySet()) {
            List<String> key = keys.get(e.getKey());
            // Replaying rows by key needs one: every shard table has a primary key.
            if (key == null) throw new IllegalStateException("table " + database + "." + e.getKey() + " has no primary key: it cannot be moved");
            shapes.put(e.getKey(), new Shape(List.copyOf(e.getValue()), List.copyOf(key)));
        }
        return new TableShapes(Map.copyOf(shapes));
    }

    /** Whether {@code database} has any table. */
    static boolean exists(Connection c, String database) throws SQLException {
        try (PreparedStatement q = c.prepareStatement("SELECT 1 FROM information_schema.tables WHERE table_schema = ? LIMIT 1")) {
            q.setString(1, database);
            try (ResultSet rs = q.executeQuery()) {
                return rs.next();
            }
        }
    }

    Shape shape(String table) {
        Shape s = byTable.get(table);
        if (s == null) throw new IllegalStateException("table " + table + " is not a shard table (" + byTable.keySet() + ")");
        return s;
    }

    List<String> tables() {
        return List.copyOf(byTable.keySet());
    }
}
