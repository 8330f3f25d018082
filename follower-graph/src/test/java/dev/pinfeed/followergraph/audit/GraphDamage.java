package dev.pinfeed.followergraph.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.followergraph.GraphAssertions;
import dev.pinfeed.followergraph.GraphModel;
import dev.pinfeed.followergraph.GraphScenarios;
import dev.pinfeed.followergraph.GraphScenarios.Scenario;
import dev.pinfeed.followergraph.sharded.GraphBackend.KeyFix;
import dev.pinfeed.followergraph.sharded.GraphBackend.MemberFix;
import dev.pinfeed.followergraph.sharded.GraphBackend.Stored;
import dev.pinfeed.followergraph.sharded.GraphKeys;
import dev.pinfeed.followergraph.sharded.GraphKeys.Kind;
import dev.pinfeed.followergraph.sharded.GraphKeyspace;
import dev.pinfeed.followergraph.sharded.ShardedGraphStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Writes that damage a live graph on purpose, through the keyspace's member fixes, and the property every
 * audit backend must keep: whatever the damage, a scan finds it and a repair leaves the graph answering
 * every query as the reference model.
 */
public final class GraphDamage {

    private GraphDamage() {}

    /**
     * Applies the scenario's deliveries to {@code damaged} (empty, under {@link GraphOracle}'s same prefix),
     * damages it at random, then checks that a scan finds the damage and a repair removes all of it.
     */
    public static void findAndRepair(ShardedGraphStore damaged, Scenario scenario, long seed) {
        String prefix = damaged.keys().prefix();
        GraphOracle events = new GraphOracle(prefix);
        GraphModel reference = new GraphModel();
        scenario.deliveries().forEach(damaged::apply);
        scenario.events().forEach(events::apply);
        scenario.events().forEach(reference::apply);

        Random random = new Random(seed);
        GraphKeyspace ks = damaged.keyspace();
        // Damaged means differing from before: two changes can undo each other (a member removed, then added back as it was).
        Map<String, Stored> before = snapshot(ks);
        random(ks, random, 1 + random.nextInt(6));
        boolean damagedNow = !snapshot(ks).equals(before);
        GraphAudit audit = new GraphAudit(events, ks);
        Findings found = audit.scan(new GraphAudit.Listener() {});
        if (damagedNow) assertThat(found.clean()).as("damage found (seed %d)", seed).isFalse();
        audit.repair(audit.plan(found), new GraphAudit.Listener() {});
        Findings after = audit.scan(new GraphAudit.Listener() {});
        assertThat(after.clean()).as("after repair (seed %d): %s", seed, after).isTrue();
        GraphAssertions.assertSameGraph(reference, damaged, GraphScenarios.USERS, GraphScenarios.boards(), 3);
    }

    public static Stored read(GraphKeyspace ks, String instance, String key) {
        return ks.read(instance, List.of(key)).get(key);
    }

    private static String home(GraphKeyspace ks, String key) {
        return ks.instanceOf(ks.keys().parse(key).orElseThrow().shard());
    }

    /** Sets (or with null deletes) one member of a key on its home instance; returns whether that changed it. */
    public static boolean set(GraphKeyspace ks, String key, String member, String value) {
        String instance = home(ks, key);
        String type = ks.keys().parse(key).orElseThrow().kind().redisType();
        Stored now = read(ks, instance, key);
        String fixed = value == null ? null : type.equals("set") ? "" : value;
        ks.fixKey(instance, new KeyFix(key, type, null, List.of(new MemberFix(member, now.entries().get(member), fixed))));
        return !java.util.Objects.equals(now.entries().get(member), fixed);
    }

    public static void flushKey(GraphKeyspace ks, String instance, String key) {
        Stored now = read(ks, instance, key);
        if (now.exists()) ks.fixKey(instance, new KeyFix(key, ks.keys().parse(key).orElseThrow().kind().redisType(), now.type(), List.of()));
    }

    /** Every graph key of both instances with what it holds, by instance and key. */
    private static Map<String, Stored> snapshot(GraphKeyspace ks) {
        Map<String, Stored> all = new TreeMap<>();
        for (String instance : ks.instances()) {
            for (String key : keysOf(ks, instance)) all.put(instance + " " + key, read(ks, instance, key));
        }
        return all;
    }

    /** Deletes every graph key of {@code instance}. */
    public static void flush(GraphKeyspace ks, String instance) {
        for (String key : keysOf(ks, instance)) flushKey(ks, instance, key);
    }

    public static List<String> keysOf(GraphKeyspace ks, String instance) {
        List<String> out = new ArrayList<>();
        String cursor = "0";
        do {
            var step = ks.scan(instance, cursor, 1000);
            step.keys().stream().filter(k -> ks.keys().parse(k).isPresent()).forEach(out::add);
            cursor = step.cursor();
        } while (!cursor.equals("0"));
        return out.stream().distinct().sorted().toList();
    }

    /** {@code n} random changes (a key deleted, a member removed, a value altered, a member added); returns how many changed something. */
    public static int random(GraphKeyspace ks, Random random, int n) {
        int changed = 0;
        boolean effect;
        for (int i = 0; i < n; i++) {
            String instance = ks.instances().get(random.nextInt(2));
            List<String> all = keysOf(ks, instance);
            if (all.isEmpty()) continue;
            String key = all.get(random.nextInt(all.size()));
            GraphKeys.Key parsed = ks.keys().parse(key).orElseThrow();
            Stored now = read(ks, instance, key);
            List<String> members = new ArrayList<>(now.entries().keySet());
            String m = members.get(random.nextInt(members.size()));
            String v = now.entries().get(m);
            switch (random.nextInt(4)) {
                case 0 -> {
                    flushKey(ks, instance, key);
                    effect = true;
                }
                case 1 -> effect = set(ks, key, m, null);
                case 2 -> {
                    if (parsed.kind().redisType().equals("set")) {
                        effect = set(ks, key, m, null);
                    } else if (parsed.kind() == Kind.USER_REGISTERS || parsed.kind() == Kind.BOARD_REGISTERS) {
                        effect = set(ks, key, m, v.substring(0, v.length() - 1) + (v.endsWith("F") ? "U" : "F"));
                    } else {
                        effect = set(ks, key, m, String.valueOf(Long.parseLong(v) + 1 + random.nextInt(3)));
                    }
                }
                default -> {
                    String value = parsed.kind().redisType().equals("set") ? "" : parsed.kind() == Kind.USER_REGISTERS
                            || parsed.kind() == Kind.BOARD_REGISTERS ? "000000000000001" + "0".repeat(20) + "F" : "5";
                    effect = set(ks, key, String.valueOf(GraphScenarios.USERS.get(random.nextInt(GraphScenarios.USERS.size()))), value);
                }
            }
            if (effect) changed++;
        }
        return changed;
    }
}
