package dev.pinfeed.operations.verify.graph;

import dev.pinfeed.clikit.Cli;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pinfeed.followergraph.GraphAssertions;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphCommand.CreateBoard;
import dev.pinfeed.followergraph.GraphCommand.FollowBoard;
import dev.pinfeed.followergraph.GraphCommand.FollowUser;
import dev.pinfeed.followergraph.GraphCommand.UnfollowBoard;
import dev.pinfeed.followergraph.GraphCommand.UnfollowUser;
import dev.pinfeed.followergraph.GraphScenarios;
import dev.pinfeed.followergraph.UserRelation;
import dev.pinfeed.followergraph.sharded.GraphKeys;
import dev.pinfeed.graphprocessor.GraphRebuild;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.Jedis;

/**
 * {@code ./pinfeed verify graph [--repair]} against the real stack, on fresh topics, a fresh consumer group and
 * a fresh key prefix: the processor (as GraphProcessorMain wires it) builds the graph in the test; damage made
 * with plain Redis commands — follow edges removed, every key of one instance under the prefix deleted, a
 * register forged — is named exactly; re-applying every event does not undo it; a repair does, and the graph
 * answers every query as the reference model again.
 */
@ExtendWith(StackExtension.class)
class VerifyGraphIT {

    private static final long T = GraphScenarios.T0;

    private static Set<String> keyDifferences(JsonNode report) {
        Set<String> out = new TreeSet<>();
        report.get("keys").forEach(k -> out.add(k.get("kind").asText() + " " + k.get("instance").asText() + " " + k.get("key").asText()
                + " " + k.get("shape").asText()));
        return out;
    }

    private static Set<String> sequenceDifferences(JsonNode report) {
        Set<String> out = new TreeSet<>();
        report.get("sequences").forEach(s -> out.add(s.get("follower").asLong() + "->" + s.get("owner").asLong()));
        return out;
    }

    @Test
    void namesExactlyTheDamageThatReplayingDoesNotUndoAndRepairsIt(TestStack stack) throws Exception {
        try (GraphFixture f = new GraphFixture(stack)) {
            String a = f.instances.get(0);
            String b = f.instances.get(f.instances.size() - 1);
            long a1 = f.idOn(a), a2 = f.idOn(a), a3 = f.idOn(a), b1 = f.idOn(b), b2 = f.idOn(b), b3 = f.idOn(b);
            long xa = stack.freshId(), xb = stack.freshId(), xb2 = stack.freshId();
            f.publish(new CreateBoard(stack.freshId(), T, xa, a1), new CreateBoard(stack.freshId(), T, xb, b1),
                    new CreateBoard(stack.freshId(), T, xb2, b2),
                    new FollowUser(stack.freshId(), T + 1, a2, a1), new FollowUser(stack.freshId(), T + 2, a3, a1),
                    new FollowUser(stack.freshId(), T + 3, b2, a1), new FollowUser(stack.freshId(), T + 4, a1, b1),
                    new FollowUser(stack.freshId(), T + 5, a2, b1), new FollowUser(stack.freshId(), T + 6, a1, b2),
                    new FollowUser(stack.freshId(), T + 7, b1, a2), new FollowBoard(stack.freshId(), T + 8, a3, xb, b1),
                    new FollowBoard(stack.freshId(), T + 9, a1, xb2, b2), new UnfollowBoard(stack.freshId(), T + 10, a2, xb, b1),
                    new FollowBoard(stack.freshId(), T + 11, b3, xa, a1), new UnfollowUser(stack.freshId(), T + 12, b1, a2));
            // Volume: random follows and unfollows among 16 more users, on both instances.
            List<Long> crowd = new ArrayList<>();
            for (int i = 0; i < 16; i++) crowd.add(f.idOn(f.instances.get(i % f.instances.size())));
            Random random = new Random(42);
            for (int i = 0; i < 150; i++) {
                long x = crowd.get(random.nextInt(crowd.size())), y = crowd.get(random.nextInt(crowd.size()));
                if (x == y) continue;
                f.publish(random.nextInt(4) == 0 ? new UnfollowUser(stack.freshId(), T + 20 + random.nextInt(50), x, y)
                        : new FollowUser(stack.freshId(), T + 20 + random.nextInt(50), x, y));
            }
            f.kafka.publishRaw(f.kafka.follows, "1".getBytes(StandardCharsets.UTF_8), new byte[] {0, 1, 2}); // poison: dead-lettered, not applied
            List<Long> users = new ArrayList<>(List.of(a1, a2, a3, b1, b2, b3));
            users.addAll(crowd);
            List<Long> boards = List.of(xa, xb, xb2);

            f.startProcessor();
            await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> assertThat(f.processor.records()).isEqualTo(f.published.size() + 1));
            GraphAssertions.assertSameGraph(f.model, f.live, users, boards, 4);

            GraphFixture.Run clean = f.verify("--json");
            assertThat(clean.code()).as("%s", clean).isZero();
            JsonNode first = clean.report("verify");
            assertThat(first.get("clean").asBoolean()).isTrue();
            assertThat(first.get("events").get("records").asLong()).isEqualTo(f.published.size() + 1);
            assertThat(first.get("events").get("applied").asLong()).isEqualTo(f.published.size());
            assertThat(first.get("events").get("notApplied").get("undecodable").asLong()).isEqualTo(1);
            long graphKeys = 0;
            for (JsonNode n : first.get("graphKeys")) graphKeys += n.asLong();
            assertThat(graphKeys).isEqualTo(first.get("expectedKeys").asLong()).isPositive();
            assertThat(f.verify().out()).contains("no differences");

            // Damage on instance a: a follow edge removed on both sides, a board follower removed, a register forged.
            Set<String> expected = new TreeSet<>();
            try (Jedis j = f.jedis(a)) {
                j.zrem(f.keys.followingExplicit(a2), String.valueOf(a1));
                j.zrem(f.keys.followersExplicit(a1), String.valueOf(a2));
                j.hdel(f.keys.boardFollowers(a1, xa), String.valueOf(b3));
                String register = j.hget(f.keys.userRegisters(a3), String.valueOf(a1));
                j.hset(f.keys.userRegisters(a3), String.valueOf(a1), "9" + register.substring(1, register.length() - 1) + "U");
            }
            expected.add("following-explicit " + a + " " + f.keys.followingExplicit(a2) + " different");
            expected.add("followers-explicit " + a + " " + f.keys.followersExplicit(a1) + " different");
            expected.add("board-followers " + a + " " + f.keys.boardFollowers(a1, xa) + " missing");
            expected.add("user-registers " + a + " " + f.keys.userRegisters(a3) + " different");
            Set<String> damageOnA = Set.copyOf(expected);
            // Instance b loses every key under the prefix (the flush of one instance, scoped to this test's keys).
            List<String> deleted = f.flush(b);
            assertThat(deleted).isNotEmpty();
            for (String k : deleted) {
                GraphKeys.Key parsed = f.keys.parse(k).orElseThrow();
                if (parsed.kind() == GraphKeys.Kind.PAIR_SEQUENCES || parsed.kind() == GraphKeys.Kind.FOLLOWEE_SEQUENCES) continue;
                expected.add(parsed.kind().label() + " " + b + " " + k + " missing");
            }
            // Every pair touching b now has inconsistent sequences: its follower's or its followee's were on b.
            Set<String> pairs = new TreeSet<>();
            for (GraphCommand c : f.published) {
                long[] pair = pair(c);
                if (pair != null && (f.instanceOf(pair[0]).equals(b) || f.instanceOf(pair[1]).equals(b))) pairs.add(pair[0] + "->" + pair[1]);
            }

            GraphFixture.Run damaged = f.verify("--json", "--max-printed", "100000");
            assertThat(damaged.code()).as("%s", damaged).isOne();
            JsonNode found = damaged.report("verify");
            assertThat(keyDifferences(found)).isEqualTo(expected);
            assertThat(sequenceDifferences(found)).isEqualTo(pairs);
            assertThat(found.get("differences").get("byKind").get("following-explicit").get(a).get("different").asInt()).isEqualTo(1);
            assertThat(found.get("differences").get("users").toString()).contains(String.valueOf(a2), String.valueOf(a1), String.valueOf(a3));
            GraphFixture.Run text = f.verify("--max-printed", "3");
            assertThat(text.code()).isOne();
            assertThat(text.out()).contains("following-explicit", "missing user " + a1, "user " + a2, "... ", "users involved:");

            // Re-applying every event does not undo damage whose register survived (the guards skip unchanged pairs):
            // the edge a2 -> a1, the forged register, and b3's board follow (b lost the pair's sequences, a did not).
            GraphRebuild.replay(stack.config(), List.of(f.kafka.follows, f.kafka.boards), f.kafka.decoder(), f.live, 2);
            GraphFixture.Run afterReplay = f.verify("--json", "--max-printed", "100000", "--wait", "30");
            assertThat(afterReplay.code()).isOne();
            assertThat(keyDifferences(afterReplay.report("verify"))).containsAll(damageOnA);
            assertThat(f.live.relation(a2, a1)).isEqualTo(UserRelation.NONE);

            GraphFixture.Run repaired = f.verify("--repair", "--json");
            assertThat(repaired.code()).as("%s", repaired).isZero();
            assertThat(repaired.report("repair").get("pairs").asInt()).isPositive();
            assertThat(repaired.report("verify after repair").get("clean").asBoolean()).isTrue();
            GraphAssertions.assertSameGraph(f.model, f.live, users, boards, 4);
            assertThat(f.verify().code()).isZero();

            // The pairs keep working after the repair: later events reach both sides.
            f.publish(new UnfollowUser(stack.freshId(), T + 100, a2, b1), new FollowUser(stack.freshId(), T + 101, b3, a3));
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(f.processor.records()).isEqualTo(f.published.size() + 1));
            GraphAssertions.assertSameGraph(f.model, f.live, users, boards, 4);
            assertThat(f.verify().code()).isZero();
        }
    }

    /** The (follower, owner) pair an edge command writes, or null. */
    private static long[] pair(GraphCommand c) {
        if (c instanceof FollowUser x) return new long[] {x.followerId(), x.followeeId()};
        if (c instanceof UnfollowUser x) return new long[] {x.followerId(), x.followeeId()};
        if (c instanceof FollowBoard x) return new long[] {x.followerId(), x.boardOwnerId()};
        if (c instanceof UnfollowBoard x) return new long[] {x.followerId(), x.boardOwnerId()};
        return null;
    }

    @Test
    void differencesOnlyEventsNewerThanTheOracleExplainAreNotReportedAndALaggingProcessorIsNamed(TestStack stack) throws Exception {
        try (GraphFixture f = new GraphFixture(stack)) {
            long u = stack.freshId(), v = stack.freshId(), w = stack.freshId();
            f.publish(new FollowUser(stack.freshId(), T, u, v), new FollowUser(stack.freshId(), T + 1, v, w));
            f.startProcessor();
            await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> assertThat(f.processor.records()).isEqualTo(2));

            // While the scan runs, a newer event is published and applied: the live graph is ahead of the oracle's offsets.
            AtomicBoolean once = new AtomicBoolean();
            GraphVerification.Phases racing = new GraphVerification.Phases() {
                @Override
                public void starting(String phase) {
                    if (!phase.equals("scanning") || !once.compareAndSet(false, true)) return;
                    try {
                        f.publish(new FollowUser(stack.freshId(), T + 2, w, u));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    await().atMost(Duration.ofSeconds(60)).until(() -> f.live.relation(w, u) == UserRelation.EXPLICIT);
                }
            };
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int code = run(f, racing, () -> false, false, out);
            assertThat(code).as(out.toString(StandardCharsets.UTF_8)).isZero();
            assertThat(out.toString(StandardCharsets.UTF_8)).contains("re-checked 1 time after the graph processor (group " + f.group
                    + ") passed the topics' end offsets", "no differences");

            // The processor stops; an event it never applies is a difference, reported with the processor's lag.
            f.stopProcessor();
            f.publish(new UnfollowUser(stack.freshId(), T + 3, u, v));
            GraphFixture.Run behind = f.verify("--json", "--wait", "2");
            assertThat(behind.code()).as("%s", behind).isOne();
            JsonNode report = behind.report("verify");
            assertThat(report.get("processorLag").asLong()).isEqualTo(1);
            assertThat(keyDifferences(report)).contains("following-explicit " + f.instanceOf(u) + " " + f.keys.followingExplicit(u) + " extra");
            f.startProcessor();
            GraphFixture.Run caughtUp = f.verify("--wait", "60");
            assertThat(caughtUp.code()).as("%s", caughtUp).isZero();

            // Interrupted before its first repair step: exit 130, nothing written; the next run repairs.
            try (Jedis j = f.jedis(f.instanceOf(w))) {
                assertThat(j.zrem(f.keys.followersExplicit(w), String.valueOf(v))).isOne();
            }
            AtomicBoolean repairing = new AtomicBoolean();
            GraphVerification.Phases watch = new GraphVerification.Phases() {
                @Override
                public void starting(String phase) {
                    if (phase.equals("repairing")) repairing.set(true);
                }
            };
            ByteArrayOutputStream interrupted = new ByteArrayOutputStream();
            assertThat(run(f, watch, repairing::get, true, interrupted)).isEqualTo(Cli.INTERRUPTED);
            assertThat(interrupted.toString(StandardCharsets.UTF_8)).contains("repair: 0 of 1 steps", "stopped before the end");
            assertThat(f.live.counts(w).explicitFollowers()).isZero();
            assertThat(f.verify("--repair").code()).isZero();
            assertThat(f.live.counts(w).explicitFollowers()).isEqualTo(1);
            assertThat(f.live.relation(v, w)).isEqualTo(UserRelation.EXPLICIT);
        }
    }

    /** The verification as the command wires it, with a hook at each phase and a stop signal. */
    private static int run(GraphFixture f, GraphVerification.Phases phases, java.util.function.BooleanSupplier stop, boolean repair,
                           ByteArrayOutputStream out) throws Exception {
        PrintWriter text = new PrintWriter(out, true, StandardCharsets.UTF_8);
        PrintWriter progress = new PrintWriter(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        try (GraphTopics topics = new GraphTopics(f.config, List.of(f.kafka.follows, f.kafka.boards), f.group)) {
            GraphReport report = new GraphReport(text, false, 20, f.prefix, topics.topics(), topics.group());
            return new GraphVerification(new GraphVerification.Settings(repair, false, Duration.ofSeconds(60)), topics, f.live.keyspace(),
                    report, progress, stop, phases, Clock.systemUTC()).run();
        } finally {
            text.flush();
        }
    }
}
