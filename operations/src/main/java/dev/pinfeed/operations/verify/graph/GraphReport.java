package dev.pinfeed.operations.verify.graph;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pinfeed.followergraph.audit.Findings;
import dev.pinfeed.followergraph.audit.KeyDifference;
import dev.pinfeed.followergraph.audit.KeyDifference.MemberDifference;
import dev.pinfeed.followergraph.audit.RepairPlan;
import dev.pinfeed.followergraph.audit.SequenceDifference;
import dev.pinfeed.followergraph.sharded.GraphKeys;
import dev.pinfeed.followergraph.sharded.GraphKeys.Kind;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What {@code verify graph} prints on stdout: a summary, the differences by kind and instance, and the
 * first {@code maxPrinted} keys of each kind with the users and boards they concern — as text, or with
 * {@code --json} as one JSON object per report (progress lines are JSON objects with a "task" instead).
 */
final class GraphReport {

    /** Members printed per key in text. */
    static final int MEMBERS_PRINTED = 8;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final PrintWriter out;
    private final boolean json;
    private final int maxPrinted;
    private final String prefix;
    private final List<String> topics;
    private final String group;

    GraphReport(PrintWriter out, boolean json, int maxPrinted, String prefix, List<String> topics, String group) {
        this.out = out;
        this.json = json;
        this.maxPrinted = maxPrinted;
        this.prefix = prefix;
        this.topics = topics;
        this.group = group;
    }

    void verified(GraphVerification.Settled settled, GraphVerification.EventTally events) {
        print("verify", settled, events);
    }

    void verifiedAfterRepair(GraphVerification.Settled settled, GraphVerification.EventTally events) {
        print("verify after repair", settled, events);
    }

    void repaired(RepairPlan plan, RepairPlan.Outcome o) {
        if (json) {
            ObjectNode n = JSON.createObjectNode().put("report", "repair").put("planned", plan.size()).put("pairs", o.pairs())
                    .put("keys", o.keys()).put("membersSet", o.members()).put("registerFixesSkipped", o.skippedRegisterFixes())
                    .put("sidesSuperseded", o.supersededSides()).put("keysSkipped", o.skippedKeys()).put("stopped", o.stopped());
            out.println(n);
        } else {
            out.printf("repair: %d of %d steps: %d pairs recomputed through the write protocol, %d keys fixed (%d members set)%n",
                    o.pairs() + o.keys(), plan.size(), o.pairs(), o.keys(), o.members());
            if (o.skippedRegisterFixes() + o.supersededSides() + o.skippedKeys() > 0) {
                out.printf("  left alone because a live write changed them since they were read: %d registers, %d keys;"
                        + " %d pair sides already written with a newer sequence%n", o.skippedRegisterFixes(), o.skippedKeys(), o.supersededSides());
            }
            if (o.stopped()) out.println("  stopped before the end (interrupted)");
        }
        out.flush();
    }

    /** A kind's counts on one instance. */
    private static final class Counts {
        int missing;
        int extra;
        int different;

        void add(KeyDifference.Shape shape) {
            switch (shape) {
                case MISSING -> missing++;
                case EXTRA -> extra++;
                case DIFFERENT -> different++;
            }
        }
    }

    private void print(String title, GraphVerification.Settled settled, GraphVerification.EventTally events) {
        Findings f = settled.findings();
        Map<String, Map<String, Counts>> byKind = new TreeMap<>();
        Map<String, Integer> byInstance = new TreeMap<>();
        Map<String, List<KeyDifference>> keysByKind = new LinkedHashMap<>();
        Counts total = new Counts();
        for (KeyDifference d : f.keys()) {
            String kind = d.parsed().kind().label();
            byKind.computeIfAbsent(kind, k -> new TreeMap<>()).computeIfAbsent(d.instance(), i -> new Counts()).add(d.shape());
            byInstance.merge(d.instance(), 1, Integer::sum);
            keysByKind.computeIfAbsent(kind, k -> new ArrayList<>()).add(d);
            total.add(d.shape());
        }
        for (SequenceDifference s : f.sequences()) {
            byKind.computeIfAbsent("sequences", k -> new TreeMap<>()).computeIfAbsent(s.followerInstance(), i -> new Counts()).different++;
        }
        Set<Long> users = new TreeSet<>();
        Set<Long> boards = new TreeSet<>();
        f.keys().forEach(d -> involved(d, users, boards));
        f.sequences().forEach(s -> {
            users.add(s.follower());
            users.add(s.owner());
        });
        if (json) {
            printJson(title, settled, events, byKind, total, users, boards, keysByKind);
            return;
        }
        out.printf("%s: follower graph (key prefix '%s') against %s%n", title, prefix, String.join(", ", topics));
        out.printf("  events: %d records to offsets %s; %d applied, %d ignored (no graph change), %d not applied%s%n", events.records,
                offsets(events), events.applied, events.ignored, events.rejected.values().stream().mapToLong(Long::longValue).sum(),
                events.rejected.isEmpty() ? "" : " (dead-lettered by the processor too: " + events.rejected + ")");
        if (!f.graphKeysByInstance().isEmpty()) {
            out.printf("  graph keys: %d expected; found %s%n", f.expectedKeys(), new TreeMap<>(f.graphKeysByInstance()));
        }
        if (settled.rechecks() > 0) {
            out.printf("  re-checked %d time%s after the graph processor (group %s) %s%n", settled.rechecks(), settled.rechecks() == 1 ? "" : "s",
                    group, settled.processorLag() == 0 ? "passed the topics' end offsets"
                            : "did not pass the topics' end offsets in time (" + settled.processorLag()
                            + " records behind): what remains may include events it has not applied yet");
        }
        if (f.clean()) {
            out.println("no differences");
            out.flush();
            return;
        }
        out.printf("%d differences: %d keys (missing %d, extra %d, different %d) on %s; %d pairs with inconsistent sequences;"
                        + " %d users and %d boards involved%n", f.count(), f.keys().size(), total.missing, total.extra, total.different,
                byInstance.isEmpty() ? "no instance" : byInstance, f.sequences().size(), users.size(), boards.size());
        out.printf("  %-20s %-10s %8s %6s %10s%n", "kind", "instance", "missing", "extra", "different");
        byKind.forEach((kind, perInstance) -> perInstance.forEach((instance, c) ->
                out.printf("  %-20s %-10s %8d %6d %10d%n", kind, instance, c.missing, c.extra, c.different)));
        keysByKind.forEach((kind, list) -> {
            out.printf("%s: %d key%s%n", kind, list.size(), list.size() == 1 ? "" : "s");
            list.stream().limit(maxPrinted).forEach(d -> out.println("  " + describe(d)));
            if (list.size() > maxPrinted) out.printf("  ... %d more%n", list.size() - maxPrinted);
        });
        if (!f.sequences().isEmpty()) {
            out.printf("sequences: %d pair%s%n", f.sequences().size(), f.sequences().size() == 1 ? "" : "s");
            f.sequences().stream().limit(maxPrinted).forEach(s -> out.println("  " + describe(s)));
            if (f.sequences().size() > maxPrinted) out.printf("  ... %d more%n", f.sequences().size() - maxPrinted);
        }
        out.printf("users involved: %s%n", ids(users));
        if (!boards.isEmpty()) out.printf("boards involved: %s%n", ids(boards));
        out.flush();
    }

    private String ids(Set<Long> ids) {
        List<String> shown = ids.stream().limit(Math.max(maxPrinted, 1) * 5L).map(String::valueOf).toList();
        return String.join(", ", shown) + (ids.size() > shown.size() ? ", ... (" + ids.size() + " in all)" : "");
    }

    private static String offsets(GraphVerification.EventTally events) {
        Map<String, Long> byTopic = new TreeMap<>();
        events.offsets.forEach((tp, o) -> byTopic.merge(tp.topic(), o, Long::sum));
        return byTopic.toString();
    }

    /** Whose key it is: the user, the board, or the shard of an owner bucket. */
    static String subject(GraphKeys.Key k) {
        if (k.kind() == Kind.BOARD_REGISTERS) return "user " + k.id() + " on boards of user " + k.owner();
        if (k.kind().ofUser()) return "user " + k.id();
        if (k.kind() == Kind.BOARD_OWNERS) return "owners of the boards of virtual shard " + k.shard();
        return "board " + k.id();
    }

    /** What a member names: a user or a board. */
    static String noun(Kind kind) {
        return switch (kind) {
            case BOARDS_FOLLOWED, BOARDS_UNFOLLOWED, BOARDS_OWNED, BOARD_REGISTERS, BOARD_OWNERS -> "board";
            case PAIR_SEQUENCES -> "owner";
            default -> "user";
        };
    }

    static String describe(KeyDifference d) {
        StringBuilder sb = new StringBuilder().append(d.instance()).append(' ').append(d.shape().name().toLowerCase()).append(' ')
                .append(d.key()).append(" (").append(subject(d.parsed()));
        if (d.misplaced()) sb.append("; belongs on ").append(d.home());
        if (d.wrongType()) sb.append("; a ").append(d.actualType()).append(", not a ").append(d.parsed().kind().redisType());
        sb.append(')');
        List<String> parts = new ArrayList<>();
        String noun = noun(d.parsed().kind());
        for (MemberDifference m : d.members().stream().limit(MEMBERS_PRINTED).toList()) parts.add(member(noun, m));
        if (!parts.isEmpty()) sb.append(": ").append(String.join("; ", parts));
        if (d.members().size() > MEMBERS_PRINTED) sb.append("; ... ").append(d.members().size() - MEMBERS_PRINTED).append(" more");
        return sb.toString();
    }

    private static String member(String noun, MemberDifference m) {
        if (m.actual() == null) return "missing " + noun + " " + m.member() + value(m.expected());
        if (m.expected() == null) return "extra " + noun + " " + m.member() + value(m.actual());
        return noun + " " + m.member() + ": " + m.expected() + " expected, " + m.actual() + " found";
    }

    private static String value(String v) {
        return v.isEmpty() ? "" : " (" + v + ")";
    }

    static String describe(SequenceDifference s) {
        return "user " + s.follower() + " -> user " + s.owner() + (s.registered() ? "" : " (no registers in the events)")
                + ": register sequence " + seq(s.registerSeq()) + " and applied " + seq(s.followerApplied()) + " on " + s.followerInstance()
                + ", applied " + seq(s.followeeApplied()) + " on the followee's side on " + s.followeeInstance();
    }

    private static String seq(String v) {
        return v == null ? "absent" : v;
    }

    private static void involved(KeyDifference d, Set<Long> users, Set<Long> boards) {
        GraphKeys.Key k = d.parsed();
        if (k.kind().ofUser()) users.add(k.id());
        else if (k.kind() != Kind.BOARD_OWNERS) boards.add(k.id());
        if (k.kind() == Kind.BOARD_REGISTERS) users.add(k.owner());
        boolean namesBoards = noun(k.kind()).equals("board");
        for (MemberDifference m : d.members()) {
            if (!m.member().matches("[1-9][0-9]{0,17}")) continue;
            (namesBoards ? boards : users).add(Long.parseLong(m.member()));
        }
    }

    private void printJson(String title, GraphVerification.Settled settled, GraphVerification.EventTally events,
                           Map<String, Map<String, Counts>> byKind, Counts total, Set<Long> users, Set<Long> boards,
                           Map<String, List<KeyDifference>> keysByKind) {
        Findings f = settled.findings();
        ObjectNode n = JSON.createObjectNode().put("report", title).put("keyPrefix", prefix).put("group", group).put("clean", f.clean());
        topics.forEach(n.putArray("topics")::add);
        ObjectNode ev = n.putObject("events").put("records", events.records).put("applied", events.applied).put("ignored", events.ignored);
        events.rejected.forEach(ev.putObject("notApplied")::put);
        ObjectNode offsets = ev.putObject("offsets");
        new TreeMap<>(events.offsets.entrySet().stream().collect(java.util.stream.Collectors.toMap(e -> e.getKey().toString(), Map.Entry::getValue)))
                .forEach(offsets::put);
        n.put("expectedKeys", f.expectedKeys());
        f.graphKeysByInstance().forEach(n.putObject("graphKeys")::put);
        n.put("rechecks", settled.rechecks()).put("processorLag", settled.processorLag());
        ObjectNode diff = n.putObject("differences").put("total", f.count()).put("keys", f.keys().size()).put("missing", total.missing)
                .put("extra", total.extra).put("different", total.different).put("sequences", f.sequences().size());
        ObjectNode kinds = diff.putObject("byKind");
        byKind.forEach((kind, perInstance) -> {
            ObjectNode k = kinds.putObject(kind);
            perInstance.forEach((instance, c) -> k.putObject(instance).put("missing", c.missing).put("extra", c.extra).put("different", c.different));
        });
        users.forEach(diff.putArray("users")::add);
        boards.forEach(diff.putArray("boards")::add);
        ArrayNode keys = n.putArray("keys");
        keysByKind.values().forEach(list -> list.stream().limit(maxPrinted).forEach(d -> {
            ObjectNode k = keys.addObject().put("kind", d.parsed().kind().label()).put("instance", d.instance()).put("home", d.home())
                    .put("key", d.key()).put("shape", d.shape().name().toLowerCase()).put("subject", subject(d.parsed()))
                    .put("expectedType", d.expectedType()).put("actualType", d.actualType());
            ArrayNode members = k.putArray("members");
            d.members().forEach(m -> members.addObject().put("member", m.member()).put("expected", m.expected()).put("actual", m.actual()));
        }));
        ArrayNode seqs = n.putArray("sequences");
        f.sequences().stream().limit(maxPrinted).forEach(s -> seqs.addObject().put("follower", s.follower()).put("owner", s.owner())
                .put("registered", s.registered()).put("registerSeq", s.registerSeq()).put("followerApplied", s.followerApplied())
                .put("followeeApplied", s.followeeApplied()).put("followerInstance", s.followerInstance())
                .put("followeeInstance", s.followeeInstance()));
        out.println(n);
        out.flush();
    }
}
