package dev.pinfeed.operations.verify.graph;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphModel;
import dev.pinfeed.followergraph.redis.GraphConnections;
import dev.pinfeed.followergraph.redis.RedisGraphStore;
import dev.pinfeed.followergraph.sharded.GraphKeys;
import dev.pinfeed.graphprocessor.KafkaFixtures;
import dev.pinfeed.graphprocessor.RunningProcessor;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.operations.OperationsCli;
import dev.pinfeed.redismasters.RedisClientSettings;
import dev.pinfeed.redisshards.VirtualShards;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.curator.framework.CuratorFramework;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Fresh graph topics, consumer group and key prefix on the shared stack, the configuration naming them, the
 * live Redis store on them (on the live shard and master maps), a processor on a test thread, and the events
 * published with their reference model.
 */
public final class GraphFixture implements AutoCloseable {

    public final TestStack stack;
    public final KafkaFixtures kafka;
    public final String prefix;
    public final String group;
    public final PinfeedConfig config;
    final CuratorFramework zk;
    final GraphConnections graph;
    public final RedisGraphStore live;
    final GraphKeys keys;
    public final GraphModel model = new GraphModel();
    public final List<GraphCommand> published = new ArrayList<>();
    public final List<String> instances;
    RunningProcessor processor;

    public GraphFixture(TestStack stack) throws Exception {
        this.stack = stack;
        kafka = new KafkaFixtures(stack);
        prefix = stack.keyPrefix("verify-graph");
        group = stack.uniqueName("verify_graph");
        config = stack.config().withOverrides(Map.of("graph.processor.topics", kafka.follows + "," + kafka.boards,
                "graph.redis.key-prefix", prefix, "graph.processor.group", group));
        zk = CuratorClients.start(config);
        graph = GraphConnections.open(config, zk, prefix);
        live = graph.store();
        keys = live.keys();
        instances = List.copyOf(live.instances());
    }

    String instanceOf(long id) {
        return graph.shards().get().instanceOf(VirtualShards.of(id));
    }

    /** A fresh id whose keys live on {@code instance}. */
    long idOn(String instance) {
        long id;
        do {
            id = stack.freshId();
        } while (!instanceOf(id).equals(instance));
        return id;
    }

    /** Users, their boards ({board, owner}), and the events that create the boards. */
    public record Population(List<Long> users, List<long[]> boards, List<GraphCommand> boardsCreated) {}

    /** {@code userCount} fresh users with {@code boardsEach} boards each; the board events take versions from {@code version}. */
    public Population population(int userCount, int boardsEach, AtomicLong version) {
        List<Long> users = new ArrayList<>();
        List<long[]> boards = new ArrayList<>();
        List<GraphCommand> created = new ArrayList<>();
        for (int i = 0; i < userCount; i++) users.add(stack.freshId());
        for (long owner : users) {
            for (int b = 0; b < boardsEach; b++) {
                long board = stack.freshId();
                boards.add(new long[] {board, owner});
                created.add(new GraphCommand.CreateBoard(version.incrementAndGet(), 1_000, board, owner));
            }
        }
        return new Population(users, boards, created);
    }

    /** A launcher of the graph-processor app, and the configuration it runs with. */
    public record ProcessorApp(dev.pinfeed.infra.stack.LocalStack apps, PinfeedConfig config) {}

    /**
     * The real graph-processor app on the fixture's topics, group and key prefix (and {@code extra}), run by a
     * launcher of the test's own under {@code home}.
     */
    public ProcessorApp processorApp(java.nio.file.Path home, Map<String, String> extra) throws java.io.IOException {
        Map<String, String> overrides = new java.util.HashMap<>(Map.of("graph.processor.topics", kafka.follows + "," + kafka.boards,
                "graph.processor.group", group, "graph.redis.key-prefix", prefix,
                dev.pinfeed.graphprocessor.GraphProcessorMain.NAME + ".admin.http", "127.0.0.1:" + dev.pinfeed.infra.stacktestkit.ChildJvm.freePort()));
        overrides.putAll(extra);
        PinfeedConfig withApp = config.withOverrides(overrides);
        return new ProcessorApp(new dev.pinfeed.infra.stack.LocalStack(new dev.pinfeed.infra.stack.StackLayout(
                dev.pinfeed.infra.stack.StackLayout.discover().root(), home), withApp, line -> System.err.println("[apps] " + line), overrides), withApp);
    }

    /** A random follow or unfollow (of a user or a board) among {@code users} and {@code boards} ({board, owner}). */
    public static GraphCommand randomCommand(Random r, List<Long> users, List<long[]> boards, AtomicLong version) {
        long follower = users.get(r.nextInt(users.size()));
        long at = 2_000 + r.nextInt(1_000_000);
        long v = version.incrementAndGet();
        long[] board;
        do {
            board = boards.get(r.nextInt(boards.size()));
        } while (board[1] == follower); // nobody follows his own board
        long followee = users.get(r.nextInt(users.size()));
        return switch (r.nextInt(4)) {
            case 0 -> followee == follower ? new GraphCommand.FollowBoard(v, at, follower, board[0], board[1])
                    : new GraphCommand.FollowUser(v, at, follower, followee);
            case 1 -> followee == follower ? new GraphCommand.UnfollowBoard(v, at, follower, board[0], board[1])
                    : new GraphCommand.UnfollowUser(v, at, follower, followee);
            case 2 -> new GraphCommand.FollowBoard(v, at, follower, board[0], board[1]);
            default -> new GraphCommand.UnfollowBoard(v, at, follower, board[0], board[1]);
        };
    }

    /** Whether the processor's group has committed everything published to the fixture's topics. */
    public boolean caughtUp(dev.pinfeed.operations.replay.KafkaGroups groups) {
        var end = groups.logEnd(groups.partitions(List.of(kafka.follows, kafka.boards)));
        var committed = groups.committed(group);
        return end.entrySet().stream().allMatch(e -> e.getValue() == 0 || committed.getOrDefault(e.getKey(), -1L) >= e.getValue());
    }

    public void publish(GraphCommand... commands) throws Exception {
        for (GraphCommand c : commands) {
            kafka.publish(c);
            model.apply(c);
            published.add(c);
        }
    }

    /** Many at once (demo-sized graphs). */
    public void publishAll(List<GraphCommand> commands) throws Exception {
        kafka.publishAll(commands);
        commands.forEach(model::apply);
        published.addAll(commands);
    }

    /** Deletes every key under the prefix on {@code instance} (the loss of one instance, scoped to this test's keys); returns them. */
    public List<String> flush(String instance) {
        List<String> deleted = new ArrayList<>();
        try (Jedis j = jedis(instance)) {
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<String> step = j.scan(cursor, new ScanParams().match(prefix + "*").count(1000));
                deleted.addAll(step.getResult());
                cursor = step.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            deleted = deleted.stream().distinct().toList();
            for (String k : deleted) j.del(k);
        }
        return deleted;
    }

    void startProcessor() {
        processor = new RunningProcessor(kafka, live, group);
    }

    void stopProcessor() throws InterruptedException {
        processor.close();
        processor = null;
    }

    Run verify(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] all = Stream.concat(Stream.of("verify", "graph"), Stream.of(args)).toArray(String[]::new);
        int code = OperationsCli.run(() -> config, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), all);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    Jedis jedis(String instance) {
        HostPort hp = graph.masters().get().masterOf(instance);
        return RedisClientSettings.from(config).plainConnection(hp, Duration.ofSeconds(5), Duration.ofSeconds(5));
    }

    @Override
    public void close() throws Exception {
        if (processor != null) processor.close();
        graph.close();
        zk.close();
        kafka.close();
    }

    /** One run of the command line: exit code and output, and its JSON reports. */
    record Run(int code, String out, String err) {
        private static final ObjectMapper JSON = new ObjectMapper();

        /** The last JSON report named {@code name}. */
        JsonNode report(String name) {
            JsonNode found = null;
            for (String line : out.split("\n")) {
                if (!line.startsWith("{\"report\"")) continue;
                try {
                    JsonNode n = JSON.readTree(line);
                    if (n.get("report").asText().equals(name)) found = n;
                } catch (Exception e) {
                    throw new AssertionError("not JSON: " + line, e);
                }
            }
            assertThat(found).as("report %s in:\n%s\nstderr:\n%s", name, out, err).isNotNull();
            return found;
        }

        @Override
        public String toString() {
            return "exit " + code + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }
    }
}
