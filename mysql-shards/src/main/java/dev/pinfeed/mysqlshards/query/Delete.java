package dev.pinfeed.mysqlshards.query;

import java.util.ArrayList;
import java.util.List;

/** DELETE from one shard's table; conditions are required. */
public final class Delete implements Write {

    private final String table;
    private final List<Condition> where = new ArrayList<>();

    private Delete(String table) {
        this.table = Identifiers.name(table);
    }

    public static Delete from(String table) {
        return new Delete(table);
    }

    public Delete where(Condition... conditions) {
        where.addAll(List.of(conditions));
        return this;
    }

    @Override
    public String render(String database, List<Object> params) {
        if (where.isEmpty()) throw new IllegalStateException(table + ": a delete without conditions would remove every row");
        StringBuilder sql = new StringBuilder("DELETE FROM ").append(database).append('.').append(table);
        Statements.where(sql, where, params);
        return sql.toString();
    }
}
