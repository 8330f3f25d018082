package dev.pinfeed.idallocator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.idallocator.InMemorySequenceStore;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.SequenceStore;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.idallocator.TimeSortableLayout;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IdCliTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final InMemorySequenceStore store = new InMemorySequenceStore();

    @Test
    void decodesTheSeedPin() {
        assertThat(run("decode", "241294492511762325")).isZero();

        assertThat(stdout()).isEqualTo(String.join("\n",
                "id=241294492511762325", "shard=3429", "type=1", "typeName=pin", "localId=7075733", ""));
        assertThat(stderr()).isEmpty();
    }

    @Test
    void decodesTimeSortableIdsWithTheConfiguredEpoch() {
        TimeSortableLayout layout = new TimeSortableLayout(TimeSortableLayout.DEFAULT_EPOCH);
        Instant at = Instant.parse("2026-03-04T05:06:07.089Z");
        long id = layout.composeAt(at, 1341, 905);

        assertThat(run("decode", "--time", Long.toString(id))).isZero();

        assertThat(stdout()).contains("timestamp=" + at, "shard=1341", "sequence=905");
    }

    @Test
    void newLeasesFromTheStoreAndPrintsComposedIds() {
        assertThat(run("new", "--type", "pin", "--shard", "12", "--count", "2")).isZero();

        assertThat(stdout().lines().map(Long::parseLong).map(ShardedId::decode))
                .containsExactly(new ShardedId(12, ObjectType.PIN, 1), new ShardedId(12, ObjectType.PIN, 2));
    }

    @Test
    void epochShowsWhenTheFortyOneBitsRunOut() {
        assertThat(run("epoch")).isZero();

        assertThat(stdout()).contains("epoch=2026-01-01T00:00:00Z", "exhaustedAt=2095-09-07T15:47:35.552Z");
    }

    @Test
    void typesListsTheRegistry() {
        assertThat(run("types")).isZero();

        assertThat(stdout()).startsWith("1\tpin\n");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "decode -5                          | negative",
            "decode 4611686018427387904         | reserved bits",
            "decode 4398046511105               | unknown type",
            "decode twelve                      | not a 64-bit decimal integer",
            "decode                             | exactly one id",
            "new --type pin --shard 65536       | shard 65536 is out of range",
            "new --type pin --shard 5000        | outside the shard map",
            "new --type photo --shard 1         | unknown type 'photo'",
            "new --type pin                     | needs --type",
            "new --type pin --shard 1 --count 0 | --count 0",
            "frobnicate                         | unknown command"})
    void badInputExitsWithTwoAndOneLineOfReason(String commandLine, String reason) {
        assertThat(run(commandLine.trim().split("\\s+"))).isEqualTo(2);

        assertThat(stderr()).contains(reason).doesNotContain("Exception").endsWith("\n");
        assertThat(stderr().lines()).hasSize(1);
        assertThat(stdout()).isEmpty();
    }

    @Test
    void helpPrintsUsageWithoutTouchingTheStore() {
        IdCli cli = new IdCli(print(out), print(err), () -> {
            throw new AssertionError("help must not load the configuration");
        }, c -> {
            throw new AssertionError("help must not open a store");
        });

        assertThat(cli.run("--help")).isZero();
        assertThat(cli.run("new", "--help")).isZero();
        assertThat(stdout()).contains("Usage: pinfeed id", "decode", "--count");
        assertThat(stderr()).isEmpty();
    }

    @Test
    void aTypoGetsTheClosestCommandOrOption() {
        assertThat(run("decdoe", "1")).isEqualTo(2);
        assertThat(run("new", "--typ", "pin", "--shard", "1")).isEqualTo(2);

        assertThat(stderr().lines()).containsExactly(
                "pinfeed id: unknown command 'decdoe'; did you mean 'decode'? (pinfeed id --help)",
                "pinfeed id new: unknown option --typ; did you mean '--type'? (pinfeed id new --help)");
    }

    @Test
    void noCommandIsAUsageError() {
        assertThat(run()).isEqualTo(2);
        assertThat(stderr()).startsWith("Usage: pinfeed id");
    }

    @Test
    void aStoreFailureExitsWithOne() {
        SequenceStore down = (shard, type, size) -> {
            throw new dev.pinfeed.idallocator.IdAllocationException("mysql001 unreachable");
        };
        IdCli cli = new IdCli(print(out), print(err), IdCliTest::config, c -> down);

        assertThat(cli.run("new", "--type", "pin", "--shard", "1")).isEqualTo(1);
        assertThat(stderr()).contains("mysql001 unreachable");
    }

    private int run(String... args) {
        return new IdCli(print(out), print(err), IdCliTest::config, c -> shardMapChecking(store)).run(args);
    }

    /** Like the MySQL store, refuses shards the shard map does not place. */
    private static SequenceStore shardMapChecking(SequenceStore store) {
        return (shard, type, size) -> {
            dev.pinfeed.mysqlshards.MysqlShardMap.from(config()).hostOf(shard);
            return store.lease(shard, type, size);
        };
    }

    private static PinfeedConfig config() {
        Properties p = new Properties();
        p.setProperty("mysql.shards", "0-2047:mysql001,2048-4095:mysql002");
        p.setProperty("mysql.mysql001.master", "127.0.0.1:13306");
        p.setProperty("mysql.mysql002.master", "127.0.0.1:13316");
        return PinfeedConfig.of(p);
    }

    private static PrintStream print(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }
}
