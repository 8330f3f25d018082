package dev.pinfeed.operations.replay;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a replay starts ({@code --from}) or ends ({@code --to}) in each partition of a view's topics: the
 * beginning of the log, one offset for every partition, or a time (the first record at or after it, by the
 * records' timestamps). Times: an instant ({@code 2026-11-28T10:00:00Z}), a day ({@code 2026-11-28}, its
 * start in UTC), or relative to now ({@code -2h}, {@code -30m}, {@code -7d}, {@code -90s}).
 */
public sealed interface Position {

    /** The log start of each partition. */
    record Beginning() implements Position {
        @Override public String toString() { return "beginning"; }
    }

    /** The same offset in every partition (clamped to each partition's log). */
    record Offset(long offset) implements Position {
        @Override public String toString() { return Long.toString(offset); }
    }

    /** The first record at or after this time in each partition (the log end where none is). */
    record Time(Instant at) implements Position {
        @Override public String toString() { return at.toString(); }
    }

    Pattern RELATIVE = Pattern.compile("-(\\d+)([smhd])");

    /** Parses {@code text} as of {@code now}; a text that is none of the forms is an {@link IllegalArgumentException} naming the forms. */
    static Position parse(String text, Instant now) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("beginning") || t.equals("earliest")) return new Beginning();
        if (t.matches("\\d+")) return new Offset(Long.parseLong(t));
        Matcher m = RELATIVE.matcher(t);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            Duration back = switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
            return new Time(now.minus(back));
        }
        try {
            return new Time(Instant.parse(text.trim()));
        } catch (DateTimeParseException notInstant) {
            try {
                return new Time(LocalDate.parse(text.trim()).atStartOfDay(ZoneOffset.UTC).toInstant());
            } catch (DateTimeParseException notDate) {
                throw new IllegalArgumentException("'" + text + "' is no position: say beginning, an offset (1200), a time "
                        + "(2026-11-28T10:00:00Z or 2026-11-28) or a time back from now (-2h, -30m, -7d)");
            }
        }
    }
}
