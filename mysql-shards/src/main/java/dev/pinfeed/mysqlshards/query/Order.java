package dev.pinfeed.mysqlshards.query;

/** One ORDER BY term. */
public record Order(String column, boolean ascending) {

    public Order {
        Identifiers.name(column);
    }

    public static Order asc(String column) {
        return new Order(column, true);
    }

    public static Order desc(String column) {
        return new Order(column, false);
    }
}
