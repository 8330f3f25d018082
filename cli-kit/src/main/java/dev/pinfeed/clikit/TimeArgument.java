package dev.pinfeed.clikit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A TIME on the command line ({@code --since}, {@code --before}): an ISO-8601 instant
 * ({@code 2026-11-28T10:00:00Z}, or with an offset: {@code 2026-11-28T11:00:00+01:00}), a date
 * ({@code 2026-11-28}: its start, UTC), or a time relative to now ({@code -30s}, {@code -30m}, {@code -2h}, {@code -7d}).
 */
public final class TimeArgument {

    private static final Pattern RELATIVE = Pattern.compile("-(\\d{1,9})([smhd])");
    public static final String FORMS = "an ISO-8601 instant (2026-11-28T10:00:00Z), a date (2026-11-28, UTC) or a time ago (-30m, -2h, -7d)";

    private TimeArgument() {}

    /** The instant {@code text} names, relative ones counted back from {@code clock}'s now. */
    public static Instant parse(String text, Clock clock) {
        String t = text == null ? "" : text.trim();
        Matcher m = RELATIVE.matcher(t);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            Duration ago = switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
            return clock.instant().truncatedTo(ChronoUnit.MILLIS).minus(ago);
        }
        try {
            if (t.length() == 10) return LocalDate.parse(t).atStartOfDay(ZoneOffset.UTC).toInstant();
            return OffsetDateTime.parse(t).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("bad TIME '" + text + "': expected " + FORMS);
        }
    }
}
