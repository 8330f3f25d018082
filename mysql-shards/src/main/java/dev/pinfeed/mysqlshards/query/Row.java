package dev.pinfeed.mysqlshards.query;

import java.util.Map;

/** One result row: column label → value as the driver returned it, with typed getters. */
public record Row(int shard, Map<String, Object> values) {

    public Object get(String column) {
        if (!values.containsKey(column)) throw new IllegalArgumentException("no column " + column + " in " + values.keySet());
        return values.get(column);
    }

    public boolean isNull(String column) {
        return get(column) == null;
    }

    public long getLong(String column) {
        return ((Number) get(column)).longValue();
    }

    public int getInt(String column) {
        return ((Number) get(column)).intValue();
    }

    public boolean getBoolean(String column) {
        Object v = get(column);
        return v instanceof Boolean b ? b : ((Number) v).intValue() != 0;
    }

    public String getString(String column) {
        Object v = get(column);
        return v == null ? null : v instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.UTF_8) : v.toString();
    }

    public byte[] getBytes(String column) {
        return (byte[]) get(column);
    }
}
