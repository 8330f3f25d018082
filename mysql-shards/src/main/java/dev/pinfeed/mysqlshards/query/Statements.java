package dev.pinfeed.mysqlshards.query;

import java.util.List;

/** SQL fragments shared by the statement builders. */
final class Statements {

    private Statements() {}

    static void where(StringBuilder sql, List<Condition> where, List<Object> params) {
        for (int i = 0; i < where.size(); i++) {
            sql.append(i == 0 ? " WHERE " : " AND ");
            where.get(i).render(sql, params);
        }
    }
}
