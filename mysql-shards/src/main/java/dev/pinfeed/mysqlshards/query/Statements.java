package dev.pinfeed.mysqlshards.query;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/** SQL fragments shared by the statement builders. */
final class Statements {

    private Statements() {}

    /**
     * {@code JSON_SET(<json>, '<path>', ?)} for a JSON column or expression: a boolean value is bound as
     * the text true/false and turned into a JSON literal (JSON_EXTRACT), else it would be stored as 0/1.
     */
    static String jsonSet(String json, String path, Object value, List<Object> params) {
        params.add(value instanceof Boolean b ? b.toString() : value);
        String bound = value instanceof Boolean ? "JSON_EXTRACT(?, '$')" : "?";
        return "JSON_SET(" + json + ", '" + Identifiers.jsonPath(path) + "', " + bound + ")";
    }

    /**
     * The placeholder of one bound value, its parameter added to {@code params}: an {@link Instant} (a TIMESTAMP(3)
     * column's value) as {@code FROM_UNIXTIME(?)} of its seconds with milliseconds, because the driver drops the
     * fraction of a bound timestamp on MariaDB (it takes MariaDB's 5.5.5 version prefix for a server without
     * fractional seconds); anything else as {@code ?}.
     */
    static String placeholder(Object value, List<Object> params) {
        if (value instanceof Instant at) {
            params.add(BigDecimal.valueOf(at.toEpochMilli(), 3));
            return "FROM_UNIXTIME(?)";
        }
        params.add(value);
        return "?";
    }

    static void where(StringBuilder sql, List<Condition> where, List<Object> params) {
        for (int i = 0; i < where.size(); i++) {
            sql.append(i == 0 ? " WHERE " : " AND ");
            where.get(i).render(sql, params);
        }
    }
}
