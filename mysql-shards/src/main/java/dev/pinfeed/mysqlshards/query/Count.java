package dev.pinfeed.mysqlshards.query;

import java.util.ArrayList;
import java.util.List;

/** SELECT COUNT(*) over the routed shards, summed. */
public final class Count {

    final String table;
    final List<Condition> where = new ArrayList<>();

    private Count(String table) {
        this.table = Identifiers.name(table);
    }

    public static Count from(String table) {
        return new Count(table);
    }

    public Count where(Condition... conditions) {
        where.addAll(List.of(conditions));
        return this;
    }

    String render(String database, List<Object> params) {
        StringBuilder sql = new StringBuilder("SELECT COUNT(*) FROM ").append(database).append('.').append(table);
        Statements.where(sql, where, params);
        return sql.toString();
    }
}
