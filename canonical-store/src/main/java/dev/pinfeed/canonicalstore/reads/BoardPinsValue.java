package dev.pinfeed.canonicalstore.reads;

import java.util.ArrayList;
import java.util.List;

/**
 * The value of a board's cached pin list ({@link dev.pinfeed.canonicalstore.CanonicalCacheKeys#boardPins}),
 * the only place that writes or reads it: whether the list is the whole board ({@code c}) or only
 * its first entries ({@code p}), then each entry's pin id, sequence and position.
 * <pre>c;&lt;id&gt;,&lt;sequence&gt;[,&lt;position&gt;];...</pre>
 */
public record BoardPinsValue(List<ListEntry> entries, boolean complete) {

    public BoardPinsValue {
        entries = List.copyOf(entries);
    }

    public String encode() {
        StringBuilder sb = new StringBuilder(entries.size() * 36 + 1).append(complete ? 'c' : 'p');
        for (ListEntry e : entries) {
            sb.append(';').append(e.id()).append(',').append(e.sequence());
            if (e.position() != null) sb.append(',').append(e.position());
        }
        return sb.toString();
    }

    /** The decoded value, or null when {@code text} is not one (a foreign or truncated value counts as a miss). */
    public static BoardPinsValue decode(String text) {
        if (text == null || text.isEmpty() || (text.charAt(0) != 'c' && text.charAt(0) != 'p')) return null;
        String[] parts = text.split(";", -1);
        List<ListEntry> entries = new ArrayList<>(parts.length - 1);
        try {
            for (int i = 1; i < parts.length; i++) {
                String[] f = parts[i].split(",", -1);
                if (f.length < 2 || f.length > 3) return null;
                entries.add(new ListEntry(Long.parseLong(f[0]), Long.parseLong(f[1]), f.length == 3 ? Integer.valueOf(f[2]) : null));
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return new BoardPinsValue(entries, text.charAt(0) == 'c');
    }
}
