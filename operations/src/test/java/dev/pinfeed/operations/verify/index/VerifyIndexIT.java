package dev.pinfeed.operations.verify.index;

import static dev.pinfeed.mysqlshards.query.Condition.eq;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.canonicalstore.UsernameShards;
import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalReads;
import dev.pinfeed.canonicalstore.reads.CanonicalUser;
import dev.pinfeed.clikit.Progress;
import dev.pinfeed.events.UserCreated;
import dev.pinfeed.eventsschema.AvroEventSerializer;
import dev.pinfeed.eventsschema.CachingSchemaRegistryClient;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.Delete;
import dev.pinfeed.mysqlshards.query.Select;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.mysqlshards.query.ShardingKey;
import dev.pinfeed.mysqlshards.query.Update;
import dev.pinfeed.mysqlshards.query.Upsert;
import dev.pinfeed.operations.OperationsCli;
import dev.pinfeed.processorruntime.KafkaClients;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code ./pinfeed verify index} against the real shard hosts and Kafka. Each test writes user rows and
 * claims (as the materializer and ingest do) under fresh ids and names of its own prefix, damages them,
 * and asserts on its own prefix only: the shared shards hold other tests' and the demo's rows, which may
 * be inconsistent on purpose. Every row written here is deleted at the end.
 */
@ExtendWith(StackExtension.class)
class VerifyIndexIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Two shards on different hosts of the local map (0-2047 mysql001, 2048-4095 mysql002). */
    private static final int SHARD_A = 5;
    private static final int SHARD_B = 3001;

    private static TestStack stack;
    private static ShardDataSources sources;
    private static ShardedDb db;
    private static MysqlCanonicalReads reads;
    /** What to delete at the end: (shard, username) claims and (shard, local id) user rows. */
    private static final List<Map.Entry<Integer, String>> claimsWritten = new ArrayList<>();
    private static final List<Map.Entry<Integer, Long>> usersWritten = new ArrayList<>();

    @BeforeAll
    static void connect(TestStack s) {
        stack = s;
        sources = ShardDataSources.from(s.config(), "verify-index-it", 4);
        db = new ShardedDb(sources);
        reads = new MysqlCanonicalReads(db);
    }

    @AfterAll
    static void cleanUp() {
        try {
            for (Map.Entry<Integer, String> c : claimsWritten) {
                db.write(c.getKey(), Delete.from(CanonicalLayout.USERNAMES).where(eq(CanonicalLayout.USERNAME, c.getValue())));
            }
            for (Map.Entry<Integer, Long> u : usersWritten) {
                db.write(u.getKey(), Delete.from(CanonicalLayout.USERS).where(eq(CanonicalLayout.LOCAL_ID, u.getValue())));
            }
        } finally {
            db.close();
            sources.close();
        }
    }

    // ---- the damage scenario

    @Test
    void namesExactlyTheDamageThenRepairsItSoThatLookupsAnswerAsBefore() throws Exception {
        String p = stack.uniqueName("vi");
        long a = freshUser(SHARD_A);
        long b = freshUser(SHARD_B);
        long c = freshUser(SHARD_A);
        long ghost = freshUser(SHARD_B);
        long pending = freshUser(SHARD_A);
        userRow(a, p + "_a", 1_000);
        userRow(b, p + "_b", 2_000);
        userRow(c, p + "_c", 3_000);
        claim(p + "_a", a);
        claim(p + "_b", b);
        claim(p + "_c", c);
        // Published, not materialized: its claim is right and must survive.
        claim(p + "_pending", pending);
        String usersTopic = stack.uniqueTopic("users");
        stack.createTopics(Map.of(usersTopic, 2));
        publishUserCreated(usersTopic, pending, p + "_pending");
        Map<String, Optional<CanonicalUser>> before = lookups(p, "_a", "_b", "_c", "_pending");
        assertThat(before.get(p + "_a").map(CanonicalUser::id)).hasValue(a);
        assertThat(before.get(p + "_b").map(CanonicalUser::id)).hasValue(b);
        assertThat(before.get(p + "_pending")).as("no row yet").isEmpty();

        // The damage: an orphan (a claim for a user nobody creates), a lost claim, a claim moved to another
        // user, and a stray copy of a claim on a shard no read looks at.
        claim(p + "_orphan", ghost);
        db.write(UsernameShards.shardOf(p + "_a"), Delete.from(CanonicalLayout.USERNAMES).where(eq(CanonicalLayout.USERNAME, p + "_a")));
        db.write(UsernameShards.shardOf(p + "_b"), Update.table(CanonicalLayout.USERNAMES).set(CanonicalLayout.USER_ID, c)
                .where(eq(CanonicalLayout.USERNAME, p + "_b")));
        int wrongShard = (UsernameShards.shardOf(p + "_a") + 1) % UsernameShards.INDEX_SHARDS;
        claimOn(wrongShard, p + "_a", a);

        Run verify = run("verify", "index", "--usernames-prefix", p, "--users-topic", usersTopic, "--settle-seconds", "1", "--json");
        assertThat(verify.code).as("exit code; stderr: %s", verify.err).isEqualTo(1);
        JsonNode check = verify.check("verify");
        assertThat(kinds(check)).containsExactlyInAnyOrder("missing " + p + "_a", "misplaced " + p + "_a", "wrong-user " + p + "_b",
                "orphan " + p + "_orphan");
        assertThat(check.path("awaiting").asInt()).as("the published user's claim").isEqualTo(1);
        assertThat(check.path("claims").asInt()).isEqualTo(5);
        assertThat(check.path("users").asInt()).isEqualTo(3);
        JsonNode wrong = difference(check, "wrong-user", p + "_b");
        assertThat(wrong.path("claimedUserId").asText()).isEqualTo(Long.toString(c));
        assertThat(wrong.path("expectedUserId").asText()).isEqualTo(Long.toString(b));
        assertThat(difference(check, "orphan", p + "_orphan").path("claimedUserId").asText()).isEqualTo(Long.toString(ghost));
        assertThat(verify.out).as("progress as JSON lines").contains("\"task\":\"verify index\",\"done\":");

        // The whole index names the same damage among whatever else the shared shards hold (not asserted clean).
        Run full = run("verify", "index", "--users-topic", usersTopic, "--settle-seconds", "1", "--max-printed", "1000000", "--json");
        assertThat(full.code).isEqualTo(1);
        assertThat(kinds(full.check("verify")).stream().filter(k -> k.contains(" " + p + "_")).toList())
                .containsExactlyInAnyOrderElementsOf(kinds(check));

        Run repair = run("verify", "index", "--repair", "--usernames-prefix", p, "--users-topic", usersTopic, "--settle-seconds", "1", "--json");
        assertThat(repair.code).as("exit code after the repair; stdout: %s; stderr: %s", repair.out, repair.err).isZero();
        JsonNode written = repair.line("repair").path("repair");
        assertThat(written.path("written").asInt()).isEqualTo(4);
        assertThat(written.path("leftAlone").asInt()).isZero();
        JsonNode after = repair.check("after-repair");
        assertThat(after.path("clean").asBoolean()).isTrue();
        assertThat(after.path("awaiting").asInt()).isEqualTo(1);

        assertThat(lookups(p, "_a", "_b", "_c", "_pending")).isEqualTo(before);
        assertThat(reads.userIdByUsername(p + "_orphan")).isEmpty();
        assertThat(reads.userIdByUsername(p + "_pending")).as("the published user's claim is kept").hasValue(pending);
        assertThat(db.select(Select.from(CanonicalLayout.USERNAMES).columns(CanonicalLayout.USER_ID)
                .where(eq(CanonicalLayout.USERNAME, p + "_a")), ShardingKey.one(wrongShard))).as("the misplaced copy").isEmpty();

        // Run again: nothing to repair, and nothing written.
        Run again = run("verify", "index", "--repair", "--usernames-prefix", p, "--users-topic", usersTopic, "--settle-seconds", "1");
        assertThat(again.code).as("stderr: %s", again.err).isZero();
        assertThat(again.out).contains("0 differences").contains("nothing to repair").doesNotContain("repair:");
        assertThat(lookups(p, "_a", "_b", "_c", "_pending")).isEqualTo(before);
    }

    @Test
    void aSharedNameStaysWithTheUserCreatedFirstAndTheOtherIsReportedAsNotRepairable() throws Exception {
        String p = stack.uniqueName("vs");
        long first = freshUser(SHARD_B);
        long later = freshUser(SHARD_A);
        userRow(later, p + "_s", 2_000);
        claim(p + "_s", later);
        userRow(first, p + "_s", 1_000);

        Run repair = run("verify", "index", "--repair", "--usernames-prefix", p, "--settle-seconds", "1", "--json");
        JsonNode shared = difference(repair.check("verify"), "shared", p + "_s");
        assertThat(shared.path("claimedUserId").asText()).isEqualTo(Long.toString(later));
        assertThat(shared.path("expectedUserId").asText()).isEqualTo(Long.toString(first));
        assertThat(shared.path("sharing")).extracting(JsonNode::asText).containsExactly(Long.toString(later));
        assertThat(repair.code).as("the second user still shares the name").isEqualTo(1);
        JsonNode after = repair.check("after-repair");
        assertThat(kinds(after)).containsExactly("shared " + p + "_s");
        JsonNode still = difference(after, "shared", p + "_s");
        assertThat(still.path("claimedUserId").asText()).isEqualTo(Long.toString(first));
        assertThat(still.path("repair").isNull()).isTrue();
        assertThat(still.path("detail").asText()).contains("cannot be repaired automatically");
        assertThat(reads.userIdByUsername(p + "_s")).hasValue(first);
    }

    // ---- a repair racing live writes

    @Test
    void aRepairNeverTakesANameFromAUserWhoseRowAppearedNorOverwritesAClaimMadeMeanwhile() throws Exception {
        String p = stack.uniqueName("vr");
        long late = freshUser(SHARD_A);   // claimed, its row lands after the scan
        long lost = freshUser(SHARD_B);   // its claim is lost; another user claims the name before the repair
        long racer = freshUser(SHARD_A);
        claim(p + "_late", late);
        userRow(lost, p + "_lost", 1_000);
        claim(p + "_junk", 7); // a claim may hold any number, even one that is no user id
        claim(p + "_board", ShardedId.compose(SHARD_A, ObjectType.BOARD, 7));
        IndexCheck.Scope scope = new IndexCheck.Scope(p);
        IndexScan scan = new IndexScan(db, Clock.systemUTC());
        IndexScan.Snapshot s;
        try (Progress progress = Progress.start(new PrintWriter(new StringWriter()), Progress.Mode.PLAIN, "test", -1, "shards", Clock.systemUTC())) {
            s = scan.read(scope, progress, () -> false);
        }
        IndexReport report = IndexCheck.compare(s.claims(), s.users(), List.of(), scope, UsernameShards::shardOf);
        assertThat(kinds(report)).containsExactlyInAnyOrder("ORPHAN " + p + "_late", "MISSING " + p + "_lost", "ORPHAN " + p + "_junk",
                "ORPHAN " + p + "_board");

        userRow(late, p + "_late", 2_000);
        claim(p + "_lost", racer);
        Set<Long> recheck = new HashSet<>();
        report.fixes().forEach(f -> {
            if (f.recheckUserId() != 0) recheck.add(f.recheckUserId());
        });
        IndexRepair.Outcome outcome = new IndexRepair(db).apply(report.fixes(), scan.usernamesOf(recheck), () -> false);

        assertThat(outcome.count(IndexRepair.Result.LEFT_ALONE)).isEqualTo(2);
        assertThat(outcome.count(IndexRepair.Result.WRITTEN)).isEqualTo(2);
        assertThat(reads.userIdByUsername(p + "_junk")).isEmpty();
        assertThat(reads.userIdByUsername(p + "_board")).isEmpty();
        assertThat(reads.userIdByUsername(p + "_late")).as("the late user keeps his name").hasValue(late);
        assertThat(reads.userIdByUsername(p + "_lost")).as("the claim made meanwhile stays").hasValue(racer);
    }

    // ---- helpers

    private static List<String> kinds(IndexReport r) {
        return r.differences().stream().map(d -> d.kind() + " " + d.username()).toList();
    }

    private static List<String> kinds(JsonNode check) {
        List<String> out = new ArrayList<>();
        check.path("differences").forEach(d -> out.add(d.path("kind").asText() + " " + d.path("username").asText()));
        return out;
    }

    private static JsonNode difference(JsonNode check, String kind, String username) {
        for (JsonNode d : check.path("differences")) {
            if (d.path("kind").asText().equals(kind) && d.path("username").asText().equals(username)) return d;
        }
        throw new AssertionError("no " + kind + " difference for " + username + " in " + check);
    }

    /** What GET /v1/users/by-username/{name} answers for each name (feed-service's read, uncached for users). */
    private static Map<String, Optional<CanonicalUser>> lookups(String prefix, String... suffixes) {
        Map<String, Optional<CanonicalUser>> out = new TreeMap<>();
        for (String s : suffixes) out.put(prefix + s, reads.userByUsername(prefix + s));
        return out;
    }

    /** A user id no one else uses: a fresh local id in the upper half of the range (leased ids start at 1). */
    private static long freshUser(int shard) {
        long local = (1L << 35) | (stack.freshId() & ((1L << 35) - 1));
        return ShardedId.compose(shard, ObjectType.USER, local);
    }

    /** The row the materializer writes for a UserCreated. */
    private static void userRow(long id, String username, long createdAt) {
        ShardedId s = ShardedId.decode(id);
        usersWritten.add(Map.entry(s.shard(), s.localId()));
        db.write(s.shard(), Upsert.into(CanonicalLayout.USERS, CanonicalLayout.LOCAL_ID, CanonicalLayout.DATA)
                .row(s.localId(), CanonicalLayout.Json.user(id, createdAt, username, null)).keepExisting());
    }

    /** The claim ingest makes before publishing a UserCreated. */
    private static void claim(String username, long userId) {
        claimOn(UsernameShards.shardOf(username), username, userId);
    }

    private static void claimOn(int shard, String username, long userId) {
        claimsWritten.add(Map.entry(shard, username));
        db.write(shard, Upsert.into(CanonicalLayout.USERNAMES, CanonicalLayout.USERNAME, CanonicalLayout.USER_ID).row(username, userId).keepExisting());
    }

    private static void publishUserCreated(String topic, long userId, String username) throws Exception {
        UserCreated event = UserCreated.newBuilder().setEventId(stack.freshId()).setOccurredAt(Instant.now()).setActorId(userId)
                .setUserId(userId).setUsername(username).setDisplayName(null).build();
        try (KafkaProducer<String, SpecificRecord> producer = new KafkaProducer<>(KafkaClients.producer(stack.config(), "verify-index-it"),
                new StringSerializer(), new AvroEventSerializer(new CachingSchemaRegistryClient(HttpSchemaRegistryClient.from(stack.config()))))) {
            producer.send(new ProducerRecord<>(topic, EventTopics.partitionKey(event), event)).get(60, TimeUnit.SECONDS);
        }
    }

    /** One command line's exit code and output. */
    private record Run(int code, String out, String err) {
        /** The JSON line of the check named {@code check} ({@code verify}, {@code after-repair}). */
        JsonNode check(String check) throws Exception {
            for (String l : out.split("\n")) {
                if (l.startsWith("{") && JSON.readTree(l).path("check").asText().equals(check)) return JSON.readTree(l);
            }
            throw new AssertionError("no " + check + " line in " + out);
        }

        JsonNode line(String field) throws Exception {
            for (String l : out.split("\n")) {
                if (l.startsWith("{") && JSON.readTree(l).has(field)) return JSON.readTree(l);
            }
            throw new AssertionError("no line with " + field + " in " + out);
        }
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OperationsCli.run(stack::config, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), args);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
