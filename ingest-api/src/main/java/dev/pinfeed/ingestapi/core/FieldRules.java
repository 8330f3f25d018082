package dev.pinfeed.ingestapi.core;

import dev.pinfeed.idallocator.InvalidIdException;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The field rules every producer path shares (HTTP and the Java client): one place decides what
 * a valid username, text, URL or typed ID is. Each check throws an {@link IngestRejection} naming
 * the field.
 */
public final class FieldRules {

    public static final int USERNAME_MIN = 3;
    public static final int USERNAME_MAX = 30;
    public static final int DISPLAY_NAME_MAX = 100;
    public static final int BOARD_NAME_MAX = 100;
    public static final int BOARD_DESCRIPTION_MAX = 1000;
    public static final int PIN_DETAILS_MAX = 2000;
    public static final int COMMENT_TEXT_MAX = 500;
    public static final int URL_MAX = 2048;
    public static final int REORDER_MAX_PINS = 5000;
    public static final int INTEREST_NAME_MIN = 2;
    public static final int INTEREST_NAME_MAX = 50;
    /** The most interests one pin may carry. */
    public static final int PIN_INTERESTS_MAX = 10;
    private static final Pattern INTEREST_NAME = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");
    private static final Pattern USERNAME = Pattern.compile("[a-z0-9_]{" + USERNAME_MIN + "," + USERNAME_MAX + "}");

    private FieldRules() {}

    /** A sharded ID that must name an object of {@code expected} type (a boardId must be a board ID). */
    public static long id(String field, long value, ObjectType expected) {
        ShardedId decoded;
        try {
            decoded = ShardedId.decode(value);
        } catch (InvalidIdException e) {
            throw IngestRejection.invalid(field, field + " " + Long.toUnsignedString(value) + " is not a valid id: " + e.getMessage());
        }
        if (decoded.type() != expected) {
            throw IngestRejection.invalid(field, field + " " + value + " is a " + decoded.typeName() + " id, expected a "
                    + expected.typeName() + " id");
        }
        return value;
    }

    /** The decimal string form every ID travels in (JSON numbers lose precision above 2^53). */
    public static long parseId(String field, String text) {
        if (!decimal(text)) {
            throw IngestRejection.invalid(field, field + " must be a decimal id string like \"241294492511762325\"");
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw IngestRejection.invalid(field, field + " " + text + " does not fit in 63 bits");
        }
    }

    /** 1-19 ASCII digits (what the pattern {@code [0-9]{1,19}} matches), without a regex: every id of every request passes here. */
    private static boolean decimal(String text) {
        if (text == null || text.isEmpty() || text.length() > 19) return false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') return false;
        }
        return true;
    }

    public static String username(String field, String value) {
        required(field, value);
        if (!USERNAME.matcher(value).matches()) {
            throw IngestRejection.invalid(field, field + " must be " + USERNAME_MIN + "-" + USERNAME_MAX
                    + " characters of a-z, 0-9 and _ (lower case)");
        }
        return value;
    }

    /**
     * An interest's name: a lower-case slug of {@link #INTEREST_NAME_MIN}-{@link #INTEREST_NAME_MAX} characters of a-z and 0-9,
     * words joined by single hyphens ({@code mid-century-modern}); unique among interests (the ingest's name index).
     */
    public static String interestName(String field, String value) {
        required(field, value);
        if (value.length() < INTEREST_NAME_MIN || value.length() > INTEREST_NAME_MAX || !INTEREST_NAME.matcher(value).matches()) {
            throw IngestRejection.invalid(field, field + " must be a lower-case slug of " + INTEREST_NAME_MIN + "-" + INTEREST_NAME_MAX
                    + " characters: a-z and 0-9, words joined by single hyphens (like \"mid-century-modern\")");
        }
        return value;
    }

    /** Text of 1..max code points after trimming, without control characters (newlines only when multiline). */
    public static String text(String field, String value, int max, boolean multiline) {
        required(field, value);
        String trimmed = value.strip();
        if (trimmed.isEmpty()) throw IngestRejection.invalid(field, field + " must not be blank");
        int length = trimmed.codePointCount(0, trimmed.length());
        if (length > max) {
            throw IngestRejection.invalid(field, field + " is " + length + " characters, at most " + max + " allowed");
        }
        for (int i = 0; i < trimmed.length(); i++) {
            char c = trimmed.charAt(i);
            boolean allowedBreak = multiline && (c == '\n' || c == '\r' || c == '\t');
            if (Character.isISOControl(c) && !allowedBreak) {
                throw IngestRejection.invalid(field, field + " contains a control character at position " + i);
            }
        }
        return trimmed;
    }

    public static String optionalText(String field, String value, int max, boolean multiline) {
        return value == null ? null : text(field, value, max, multiline);
    }

    /** An absolute http(s) URL with a host, at most {@link #URL_MAX} characters; null stays null. */
    public static String optionalUrl(String field, String value) {
        if (value == null) return null;
        if (value.length() > URL_MAX) {
            throw IngestRejection.invalid(field, field + " is " + value.length() + " characters, at most " + URL_MAX + " allowed");
        }
        URI uri;
        try {
            uri = new URI(value);
        } catch (URISyntaxException e) {
            throw IngestRejection.invalid(field, field + " is not a valid URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw IngestRejection.invalid(field, field + " must be an absolute http or https URL");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw IngestRejection.invalid(field, field + " must name a host");
        }
        return value;
    }

    private static void required(String field, String value) {
        if (value == null) throw IngestRejection.invalid(field, field + " is required");
    }
}
