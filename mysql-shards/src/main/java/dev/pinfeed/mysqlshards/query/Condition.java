package dev.pinfeed.mysqlshards.query;

import java.util.Collection;
import java.util.List;

/** One condition of a WHERE clause (conditions of a query are joined with AND). Values are always bound parameters. */
public sealed interface Condition {

    /** Appends this condition's SQL with placeholders ({@link Statements#placeholder}) and adds its values to {@code params}. */
    void render(StringBuilder sql, List<Object> params);

    static Condition eq(String column, Object value) {
        return new Compare(Identifiers.name(column), "=", value);
    }

    static Condition ne(String column, Object value) {
        return new Compare(Identifiers.name(column), "<>", value);
    }

    static Condition lt(String column, Object value) {
        return new Compare(Identifiers.name(column), "<", value);
    }

    static Condition le(String column, Object value) {
        return new Compare(Identifiers.name(column), "<=", value);
    }

    static Condition gt(String column, Object value) {
        return new Compare(Identifiers.name(column), ">", value);
    }

    static Condition ge(String column, Object value) {
        return new Compare(Identifiers.name(column), ">=", value);
    }

    static Condition in(String column, Collection<?> values) {
        return new In(Identifiers.name(column), List.copyOf(values), false);
    }

    static Condition notIn(String column, Collection<?> values) {
        return new In(Identifiers.name(column), List.copyOf(values), true);
    }

    static Condition isNull(String column) {
        return new IsNull(Identifiers.name(column));
    }

    static Condition isNotNull(String column) {
        return new IsNotNull(Identifiers.name(column));
    }

    /** Any of {@code conditions} (each of which may itself be a conjunction via {@link #and}). */
    static Condition or(Condition... conditions) {
        return new Junction(List.of(conditions), " OR ");
    }

    static Condition and(Condition... conditions) {
        return new Junction(List.of(conditions), " AND ");
    }

    /**
     * Keyset paging in descending order of (first, second): rows strictly after the position
     * ({@code first < a OR (first = a AND second < b)}).
     */
    static Condition beforeDesc(String first, Object a, String second, Object b) {
        return or(lt(first, a), and(eq(first, a), lt(second, b)));
    }

    record Compare(String column, String op, Object value) implements Condition {
        @Override
        public void render(StringBuilder sql, List<Object> params) {
            sql.append(column).append(' ').append(op).append(' ').append(Statements.placeholder(value, params));
        }
    }

    record In(String column, List<Object> values, boolean negated) implements Condition {
        @Override
        public void render(StringBuilder sql, List<Object> params) {
            if (values.isEmpty()) {
                sql.append(negated ? "1 = 1" : "1 = 0"); // IN () is not SQL
                return;
            }
            sql.append(column).append(negated ? " NOT IN (" : " IN (");
            for (int i = 0; i < values.size(); i++) sql.append(i == 0 ? "" : ", ").append(Statements.placeholder(values.get(i), params));
            sql.append(')');
        }
    }

    record IsNull(String column) implements Condition {
        @Override
        public void render(StringBuilder sql, List<Object> params) {
            sql.append(column).append(" IS NULL");
        }
    }

    record IsNotNull(String column) implements Condition {
        @Override
        public void render(StringBuilder sql, List<Object> params) {
            sql.append(column).append(" IS NOT NULL");
        }
    }

    record Junction(List<Condition> parts, String operator) implements Condition {
        @Override
        public void render(StringBuilder sql, List<Object> params) {
            sql.append('(');
            for (int i = 0; i < parts.size(); i++) {
                if (i > 0) sql.append(operator);
                parts.get(i).render(sql, params);
            }
            sql.append(')');
        }
    }
}
