package dev.pinfeed.mysqlshards.query;

import java.util.regex.Pattern;

/**
 * Table and column names: lower-case letters, digits and underscores, starting with a letter or
 * underscore, at most 64 characters. Checked when a query is built, so no text that is not such a
 * name ever reaches the SQL; every value travels as a bound parameter. That is why there is no way
 * to inject SQL through this API.
 */
final class Identifiers {

    private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]{0,63}");
    /** JSON paths of JSON_SET: {@code $.field} with a plain field name. */
    private static final Pattern JSON_PATH = Pattern.compile("\\$\\.[a-zA-Z_][a-zA-Z0-9_]{0,63}");

    private Identifiers() {}

    static String name(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a table or column name: " + name);
        }
        return name;
    }

    static String jsonPath(String path) {
        if (path == null || !JSON_PATH.matcher(path).matches()) {
            throw new IllegalArgumentException("not a JSON path of the form $.field: " + path);
        }
        return path;
    }
}
