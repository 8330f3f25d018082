package dev.pinfeed.mysqlshards.query;

import java.util.ArrayList;
import java.util.List;

/** UPDATE of one shard's table: plain assignments and JSON_SET of a JSON column's field. */
public final class Update implements Write {

    private final String table;
    private final List<String> assignments = new ArrayList<>();
    private final List<Object> assignmentParams = new ArrayList<>();
    private final List<Condition> where = new ArrayList<>();

    private Update(String table) {
        this.table = Identifiers.name(table);
    }

    public static Update table(String table) {
        return new Update(table);
    }

    public Update set(String column, Object value) {
        assignments.add(Identifiers.name(column) + " = " + Statements.placeholder(value, assignmentParams));
        return this;
    }

    /** {@code column = GREATEST(column, value)}: the column keeps the greater of the two. */
    public Update atLeast(String column, Object value) {
        String c = Identifiers.name(column);
        assignments.add(c + " = GREATEST(" + c + ", " + Statements.placeholder(value, assignmentParams) + ")");
        return this;
    }

    public Update setNull(String column) {
        assignments.add(Identifiers.name(column) + " = NULL");
        return this;
    }

    /** {@code column = JSON_SET(column, path, value)}; a boolean value is stored as JSON true/false. */
    public Update jsonSet(String column, String path, Object value) {
        String c = Identifiers.name(column);
        assignments.add(c + " = " + Statements.jsonSet(c, path, value, assignmentParams));
        return this;
    }

    public Update where(Condition... conditions) {
        where.addAll(List.of(conditions));
        return this;
    }

    @Override
    public String render(String database, List<Object> params) {
        if (assignments.isEmpty()) throw new IllegalStateException("an update needs assignments");
        if (where.isEmpty()) throw new IllegalStateException(table + ": an update without conditions would touch every row");
        StringBuilder sql = new StringBuilder("UPDATE ").append(database).append('.').append(table).append(" SET ")
                .append(String.join(", ", assignments));
        params.addAll(assignmentParams);
        Statements.where(sql, where, params);
        return sql.toString();
    }
}
