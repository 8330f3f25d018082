package dev.pinfeed.mysqlshards.query;

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

    static void where(StringBuilder sql, List<Condition> where, List<Object> params) {
        for (int i = 0; i < where.size(); i++) {
            sql.append(i == 0 ? " WHERE " : " AND ");
            where.get(i).render(sql, params);
        }
    }
}
