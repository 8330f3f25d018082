package dev.pinfeed.operations.dlq;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code dlq list}: dead letters counted by processor, source topic and reason, with the oldest and newest
 * time, how many were redriven and how many failed again after a redrive; with {@code --ids} one line per
 * dead letter as well.
 */
public final class DeadLetterSummary {

    private static final int ERROR_WIDTH = 80;

    /** One processor's dead letters of one source topic and reason. */
    public record Group(String processor, String sourceTopic, String reason, long count, long redriven, long failedAgain,
                        Instant oldest, Instant newest) {
        Group plus(DeadLetter d, boolean wasRedriven) {
            return new Group(processor, sourceTopic, reason, count + 1, redriven + (wasRedriven ? 1 : 0),
                    failedAgain + (d.failedAgainAfterRedrive() ? 1 : 0), oldest == null || d.time().isBefore(oldest) ? d.time() : oldest,
                    newest == null || d.time().isAfter(newest) ? d.time() : newest);
        }
    }

    private final String topic;
    private final Selection selection;
    private final boolean withIds;
    private final Map<List<String>, Group> groups = new TreeMap<>((a, b) -> {
        for (int i = 0; i < a.size(); i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) return c;
        }
        return 0;
    });
    private final List<DeadLetter> letters = new ArrayList<>();
    private final Map<DeadLetterId, RedriveLog.Entry> redriven;

    public DeadLetterSummary(String topic, Selection selection, Map<DeadLetterId, RedriveLog.Entry> redriven, boolean withIds) {
        this.topic = topic;
        this.selection = selection;
        this.redriven = redriven;
        this.withIds = withIds;
    }

    /** Counts {@code d} when the selection takes it. */
    public void add(DeadLetter d) {
        if (!selection.matches(d)) return;
        String source = d.sourceTopic() == null ? "(unknown)" : d.sourceTopic();
        List<String> key = List.of(d.processor(), source, d.reason());
        Group g = groups.getOrDefault(key, new Group(d.processor(), source, d.reason(), 0, 0, 0, null, null));
        groups.put(key, g.plus(d, redriven.containsKey(d.id())));
        if (withIds) letters.add(d);
    }

    public List<Group> groups() {
        return List.copyOf(groups.values());
    }

    public long total() {
        return groups.values().stream().mapToLong(Group::count).sum();
    }

    public long redriven() {
        return groups.values().stream().mapToLong(Group::redriven).sum();
    }

    public long failedAgain() {
        return groups.values().stream().mapToLong(Group::failedAgain).sum();
    }

    public String text() {
        StringBuilder sb = new StringBuilder();
        String scope = selection.describe().equals("all") ? "" : " (" + selection.describe() + ")";
        if (total() == 0) return sb.append(topic).append(scope).append(": no dead letters\n").toString();
        if (withIds) {
            List<List<String>> rows = new ArrayList<>();
            rows.add(List.of("ID", "TIME", "PROCESSOR", "SOURCE", "REASON", "STATE", "ERROR"));
            for (DeadLetter d : letters) {
                rows.add(List.of(d.id().toString(), d.time().toString(), d.processor(), d.source(), d.reason(),
                        DeadLetterView.state(d, redriven.get(d.id())), shorten(String.valueOf(d.error()))));
            }
            table(sb, rows);
            sb.append('\n');
        }
        sb.append(String.format(Locale.ROOT, "%s%s: %s, %d redriven, %d failed again after redrive%n", topic, scope,
                DeadLetterView.deadLetters(total()), redriven(), failedAgain()));
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("PROCESSOR", "SOURCE TOPIC", "REASON", "COUNT", "REDRIVEN", "FAILED AGAIN", "OLDEST", "NEWEST"));
        for (Group g : groups.values()) {
            rows.add(List.of(g.processor(), g.sourceTopic(), g.reason(), Long.toString(g.count()), Long.toString(g.redriven()),
                    Long.toString(g.failedAgain()), g.oldest().toString(), g.newest().toString()));
        }
        table(sb, rows);
        return sb.toString();
    }

    public String json() {
        ObjectNode o = DeadLetterView.JSON.createObjectNode();
        o.put("topic", topic);
        o.put("selection", selection.describe());
        o.put("total", total());
        o.put("redriven", redriven());
        o.put("failedAgainAfterRedrive", failedAgain());
        ArrayNode gs = o.putArray("groups");
        for (Group g : groups.values()) {
            gs.addObject().put("processor", g.processor()).put("sourceTopic", g.sourceTopic()).put("reason", g.reason()).put("count", g.count())
                    .put("redriven", g.redriven()).put("failedAgainAfterRedrive", g.failedAgain()).put("oldest", g.oldest().toString())
                    .put("newest", g.newest().toString());
        }
        if (withIds) {
            ArrayNode ls = o.putArray("deadLetters");
            for (DeadLetter d : letters) ls.add(DeadLetterView.summaryJson(d, redriven.get(d.id())));
        }
        return o.toString();
    }

    private static String shorten(String s) {
        String one = s.replace('\n', ' ');
        return one.length() <= ERROR_WIDTH ? one : one.substring(0, ERROR_WIDTH - 3) + "...";
    }

    /** Columns padded to their widest cell, two spaces apart; numbers right-aligned. */
    static void table(StringBuilder sb, List<List<String>> rows) {
        int columns = rows.get(0).size();
        int[] width = new int[columns];
        boolean[] numeric = new boolean[columns];
        for (int c = 0; c < columns; c++) {
            numeric[c] = rows.size() > 1;
            for (int r = 0; r < rows.size(); r++) {
                width[c] = Math.max(width[c], rows.get(r).get(c).length());
                if (r > 0 && !rows.get(r).get(c).matches("\\d+")) numeric[c] = false;
            }
        }
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < columns; c++) {
                String cell = row.get(c);
                String pad = " ".repeat(width[c] - cell.length());
                if (c > 0) line.append("  ");
                line.append(numeric[c] ? pad + cell : c == columns - 1 ? cell : cell + pad);
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
    }
}
