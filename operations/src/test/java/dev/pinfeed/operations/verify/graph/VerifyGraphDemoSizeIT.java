package dev.pinfeed.operations.verify.graph;

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
import dev.pinfeed.followergraph.audit.GraphOracle;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A measurement, not part of {@code ./pinfeed test}: {@code verify graph} and {@code --repair} on a graph the size
 * of the demo dataset (3 000 users, 6 000 boards, ~50 000 user follows with a power-law of followers, board follows
 * and unfollows), on fresh topics and a fresh key prefix, after one instance lost every key under the prefix.
 * It checks what the functional IT checks (clean, damage found, repaired, queries as the model on a sample) and
 * prints how long each step took and the oracle's heap. Run with
 * {@code -Dit.test=VerifyGraphDemoSizeIT -Dpinfeed.measure=true}.
 */
@ExtendWith(StackExtension.class)
@EnabledIfSystemProperty(named = "pinfeed.measure", matches = "true")
class VerifyGraphDemoSizeIT {

    private static final long T = GraphScenarios.T0;

    @Test
    void demoSizedGraph(TestStack stack) throws Exception {
        try (GraphFixture f = new GraphFixture(stack)) {
            Random random = new Random(7);
            List<Long> users = new ArrayList<>();
            for (int i = 0; i < 3_000; i++) users.add(stack.freshId());
            List<Long> boards = new ArrayList<>();
            List<Long> owners = new ArrayList<>();
            List<GraphCommand> events = new ArrayList<>();
            for (int i = 0; i < 6_000; i++) {
                long board = stack.freshId();
                long owner = users.get(i % users.size());
                boards.add(board);
                owners.add(owner);
                events.add(new CreateBoard(stack.freshId(), T + i, board, owner));
            }
            Set<String> pairs = new HashSet<>();
            while (pairs.size() < 50_000) {
                long follower = users.get(random.nextInt(users.size()));
                long followee = users.get((int) (users.size() * Math.pow(random.nextDouble(), 3))); // a few with thousands of followers
                if (follower == followee || !pairs.add(follower + ">" + followee)) continue;
                events.add(new FollowUser(stack.freshId(), T + 10_000 + events.size(), follower, followee));
                if (random.nextInt(50) == 0) events.add(new UnfollowUser(stack.freshId(), T + 10_000 + events.size(), follower, followee));
            }
            for (int i = 0; i < 8_000; i++) {
                int b = random.nextInt(boards.size());
                long follower = users.get(random.nextInt(users.size()));
                if (follower == owners.get(b)) continue;
                events.add(new FollowBoard(stack.freshId(), T + 100_000 + i, follower, boards.get(b), owners.get(b)));
                if (random.nextInt(10) == 0) events.add(new UnfollowBoard(stack.freshId(), T + 200_000 + i, follower, boards.get(b), owners.get(b)));
            }
            System.out.printf("demo-size graph: %d events; -Dgraph.processor.topics=%s,%s -Dgraph.redis.key-prefix=%s -Dgraph.processor.group=%s%n",
                    events.size(), f.kafka.follows, f.kafka.boards, f.prefix, f.group);

            long heapBefore = usedHeap();
            GraphOracle inMemory = new GraphOracle(f.prefix);
            events.forEach(inMemory::apply);
            long oracleHeap = usedHeap() - heapBefore;
            java.lang.ref.Reference.reachabilityFence(inMemory);
            System.out.printf("oracle heap: %d MB for %d events%n", oracleHeap >> 20, events.size());

            long t0 = System.nanoTime();
            f.publishAll(events);
            System.out.printf("published in %.1f s%n", seconds(t0));
            t0 = System.nanoTime();
            f.startProcessor();
            await().atMost(Duration.ofMinutes(20)).pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> assertThat(f.processor.records()).isEqualTo(events.size()));
            System.out.printf("applied by the processor in %.1f s%n", seconds(t0));

            t0 = System.nanoTime();
            GraphFixture.Run clean = f.verify("--json");
            double verifyClean = seconds(t0);
            assertThat(clean.code()).as("%s", clean).isZero();
            JsonNode first = clean.report("verify");
            System.out.printf("verify (clean): %.1f s, %d graph keys %s%n", verifyClean, first.get("expectedKeys").asLong(), first.get("graphKeys"));

            String lost = f.instances.get(f.instances.size() - 1);
            List<String> deleted = f.flush(lost);
            t0 = System.nanoTime();
            GraphFixture.Run damaged = f.verify("--json");
            double verifyDamaged = seconds(t0);
            assertThat(damaged.code()).isOne();
            JsonNode found = damaged.report("verify");
            System.out.printf("verify (%s lost %d keys): %.1f s, %s%n", lost, deleted.size(), verifyDamaged, found.get("differences").get("keys"));

            t0 = System.nanoTime();
            GraphFixture.Run repaired = f.verify("--repair", "--json");
            double repair = seconds(t0);
            assertThat(repaired.code()).as("%s", repaired).isZero();
            System.out.printf("verify --repair (verify, repair, verify again): %.1f s; %s%n", repair, repaired.report("repair"));
            List<Long> sampleUsers = new ArrayList<>(users.subList(0, 25));
            sampleUsers.addAll(users.subList(users.size() - 15, users.size()));
            GraphAssertions.assertSameGraph(f.model, f.live, sampleUsers, boards.subList(0, 20), 500);
        }
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }

    private static long usedHeap() {
        for (int i = 0; i < 3; i++) System.gc();
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }
}
