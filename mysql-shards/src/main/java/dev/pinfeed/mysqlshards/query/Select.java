package dev.pinfeed.mysqlshards.query;

import java.util.ArrayList;
import java.util.List;

/**
 * A SELECT on one logical table of every shard it is routed to: columns, conditions (AND), order,
 * limit, and offset. Like Quora's sharded_select: no joins; across several shards the results are
 * merged in order and bounded by {@code limit}, and {@code offset} is allowed only on a single shard
 * (seed 002's {@code LIMIT 50 OFFSET 150} of one board). {@link #countAs} with {@link #groupBy}
 * counts rows per group within each shard (e.g. the likes of each pin of a page), never across shards.
 */
public final class Select {

    final String table;
    final List<String> columns = new ArrayList<>();
    final List<Condition> where = new ArrayList<>();
    final List<Order> orderBy = new ArrayList<>();
    final List<String> groupBy = new ArrayList<>();
    String countAlias;
    Integer limit;
    int offset;

    private Select(String table) {
        this.table = Identifiers.name(table);
    }

    public static Select from(String table) {
        return new Select(table);
    }

    public Select columns(String... names) {
        for (String n : names) columns.add(Identifiers.name(n));
        return this;
    }

    /** Adds {@code COUNT(*) AS alias} after the columns (with {@link #groupBy}: one count per group and shard). */
    public Select countAs(String alias) {
        this.countAlias = Identifiers.name(alias);
        return this;
    }

    public Select groupBy(String... columns) {
        for (String c : columns) groupBy.add(Identifiers.name(c));
        return this;
    }

    public Select where(Condition... conditions) {
        where.addAll(List.of(conditions));
        return this;
    }

    public Select orderBy(Order... terms) {
        orderBy.addAll(List.of(terms));
        return this;
    }

    public Select limit(int n) {
        if (n < 0) throw new IllegalArgumentException("limit must be >= 0: " + n);
        this.limit = n;
        return this;
    }

    public Select offset(int n) {
        if (n < 0) throw new IllegalArgumentException("offset must be >= 0: " + n);
        this.offset = n;
        return this;
    }

    /** The SQL for one shard database, parameters appended to {@code params}. */
    String render(String database, List<Object> params) {
        if (columns.isEmpty() && countAlias == null) throw new IllegalStateException("a select needs columns");
        List<String> selected = new ArrayList<>(columns);
        if (countAlias != null) selected.add("COUNT(*) AS " + countAlias);
        StringBuilder sql = new StringBuilder("SELECT ").append(String.join(", ", selected)).append(" FROM ")
                .append(database).append('.').append(table);
        Statements.where(sql, where, params);
        if (!groupBy.isEmpty()) sql.append(" GROUP BY ").append(String.join(", ", groupBy));
        if (!orderBy.isEmpty()) {
            sql.append(" ORDER BY ");
            for (int i = 0; i < orderBy.size(); i++) {
                Order o = orderBy.get(i);
                sql.append(i == 0 ? "" : ", ").append(o.column()).append(o.ascending() ? " ASC" : " DESC");
            }
        }
        if (limit != null) {
            sql.append(" LIMIT ?");
            params.add(limit);
            if (offset > 0) {
                sql.append(" OFFSET ?");
                params.add(offset);
            }
        } else if (offset > 0) {
            throw new IllegalStateException("offset needs a limit");
        }
        return sql.toString();
    }
}
