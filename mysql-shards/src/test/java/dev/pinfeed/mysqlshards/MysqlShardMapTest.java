package dev.pinfeed.mysqlshards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.PinfeedConfig.ReplicatedHost;
import dev.pinfeed.mysqlshards.MysqlShardMap.HostAddresses;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MysqlShardMapTest {

    static final HostAddresses STACK = HostAddresses.of(List.of(
            new ReplicatedHost("mysql001", HostPort.parse("127.0.0.1:13306"), HostPort.parse("127.0.0.1:13307")),
            new ReplicatedHost("mysql002", HostPort.parse("127.0.0.1:13316"), HostPort.parse("127.0.0.1:13317")),
            new ReplicatedHost("a", HostPort.parse("10.0.0.1:3306"), null),
            new ReplicatedHost("b", HostPort.parse("10.0.0.2:3306"), null)));

    static final String JSON = "{\"version\":1,\"ranges\":["
            + "{\"first\":0,\"last\":2047,\"host\":\"mysql001\",\"master\":\"127.0.0.1:13306\",\"replica\":\"127.0.0.1:13307\"},"
            + "{\"first\":2048,\"last\":4095,\"host\":\"mysql002\",\"master\":\"127.0.0.1:13316\",\"replica\":\"127.0.0.1:13317\"}]}";

    @Test
    void aMoveSplitsAndMergesRangesAndItsFenceSurvivesTheJsonForm() {
        MysqlShardMap map = MysqlShardMap.parse(JSON, STACK);
        MysqlShardMap moved = map.assigning(0, 63, map.host("mysql002"));
        assertThat(moved.format()).isEqualTo("0-63:mysql002,64-2047:mysql001,2048-4095:mysql002");
        assertThat(moved.assigning(2040, 2047, map.host("mysql002")).format()).isEqualTo("0-63:mysql002,64-2039:mysql001,2040-4095:mysql002");
        // Moving back merges the neighbours again: the map is the same as before the move.
        assertThat(moved.assigning(0, 63, map.host("mysql001"))).isEqualTo(map);

        MysqlShardMap fenced = moved.fencing(100, 163);
        assertThat(fenced.fenced(100)).isTrue();
        assertThat(fenced.fenced(99)).isFalse();
        assertThat(fenced.fenced(164)).isFalse();
        assertThat(fenced).isNotEqualTo(moved);
        MysqlShardMap reread = MysqlShardMap.parse(fenced.toJson(), STACK);
        assertThat(reread).isEqualTo(fenced);
        assertThat(reread.fences()).containsExactly(new MysqlShardMap.Span(100, 163));
        assertThat(reread.unfencing(100, 163)).isEqualTo(moved);
        assertThat(moved.toJson()).doesNotContain("fences");

        // A new host from the configuration; growing opens shards past the end.
        MysqlShardMap third = map.assigning(4000, 4095, new ReplicatedHost("mysql003", HostPort.parse("127.0.0.1:13326"), null));
        assertThat(third.hostOf(4095)).isEqualTo("mysql003");
        assertThat(map.growing(4159, map.host("mysql002")).format()).isEqualTo("0-2047:mysql001,2048-4159:mysql002");

        assertThatThrownBy(() -> map.assigning(4000, 4096, map.host("mysql001"))).hasMessageContaining("not a range of the shard map");
        assertThatThrownBy(() -> map.fencing(4000, 4096)).hasMessageContaining("beyond its shards");
        assertThatThrownBy(() -> MysqlShardMap.parse(JSON.replace("]}", "],\"fences\":[{\"first\":1}]}"), STACK))
                .hasMessageContaining("needs integer \"first\" and \"last\"");
    }

    @Test
    void routesShardsToHostsAndNamesDatabasesAsTheSeed() {
        MysqlShardMap map = MysqlShardMap.parse("0-2047:mysql001, 2048-4095:mysql002", STACK);
        assertThat(map.shardCount()).isEqualTo(4096);
        assertThat(map.hostOf(0)).isEqualTo("mysql001");
        assertThat(map.hostOf(2048)).isEqualTo("mysql002");
        assertThat(map.hostOf(4095)).isEqualTo("mysql002");
        assertThat(map.shardsOn("mysql001")).hasSize(2048);
        assertThat(MysqlShardMap.databaseName(3429)).isEqualTo("db03429");
        assertThat(MysqlShardMap.parse(map.format(), STACK).format()).isEqualTo(map.format());
    }

    @Test
    void aFailoverMakesTheHostsReplicaItsMasterOnEveryRangeAndLeavesTheOtherHosts() {
        MysqlShardMap map = MysqlShardMap.parse("0-1023:mysql001,1024-2047:mysql002,2048-4095:mysql001", STACK);

        MysqlShardMap after = map.successor(map.promotingReplicaOf("mysql001"));

        assertThat(after.host("mysql001").master()).isEqualTo(HostPort.parse("127.0.0.1:13307"));
        assertThat(after.host("mysql001").replica()).as("none until one is attached").isNull();
        assertThat(after.rangeOf(3000).master()).isEqualTo(HostPort.parse("127.0.0.1:13307"));
        assertThat(after.host("mysql002")).isEqualTo(map.host("mysql002"));
        assertThat(after.format()).isEqualTo(map.format());
        assertThatThrownBy(() -> after.promotingReplicaOf("mysql001")).hasMessageContaining("no replica");
        assertThatThrownBy(() -> map.promotingReplicaOf("mysql009")).hasMessageContaining("no MySQL host 'mysql009'");
    }

    @Test
    void rejectsGapsOverlapsAndShardsOutsideTheMap() {
        assertThatThrownBy(() -> MysqlShardMap.parse("0-10:a,12-20:b", STACK)).hasMessageContaining("should start at 11");
        assertThatThrownBy(() -> MysqlShardMap.parse("1-10:a", STACK)).hasMessageContaining("should start at 0");
        assertThatThrownBy(() -> MysqlShardMap.parse("0-10", STACK)).hasMessageContaining("first-last:host");
        assertThatThrownBy(() -> MysqlShardMap.parse("0-10:a", STACK).hostOf(11)).hasMessageContaining("outside");
    }

    @Test
    void theLegacyFormTakesAddressesFromTheLookupAndRefusesAHostWithout() {
        MysqlShardMap map = MysqlShardMap.parse("0-2047:mysql001,2048-4095:mysql002", STACK);
        assertThat(map.master("mysql002")).isEqualTo(HostPort.parse("127.0.0.1:13316"));
        assertThat(map.host("mysql001").replica()).isEqualTo(HostPort.parse("127.0.0.1:13307"));
        assertThat(map.hosts()).containsExactly("mysql001", "mysql002");

        assertThatThrownBy(() -> MysqlShardMap.parse("0-10:mysql003", STACK))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mysql003").hasMessageContaining("address");
    }

    @Test
    void theJsonFormCarriesAddressesAndRoundTrips() {
        MysqlShardMap map = MysqlShardMap.parse(JSON, name -> {
            throw new AssertionError("the JSON form needs no lookup");
        });
        assertThat(map).isEqualTo(MysqlShardMap.parse("0-2047:mysql001,2048-4095:mysql002", STACK));
        assertThat(MysqlShardMap.parse(map.toJson(), STACK)).isEqualTo(map);
        assertThat(map.rangeOf(3000)).isEqualTo(new MysqlShardMap.Range(2048, 4095, "mysql002",
                HostPort.parse("127.0.0.1:13316"), HostPort.parse("127.0.0.1:13317")));

        MysqlShardMap noReplica = MysqlShardMap.parse("{\"version\":1,\"ranges\":[{\"first\":0,\"last\":9,\"host\":\"a\",\"master\":\"h:1\"}]}", STACK);
        assertThat(noReplica.host("a").replicaIfAny()).isEmpty();
        assertThat(MysqlShardMap.parse(noReplica.toJson(), STACK)).isEqualTo(noReplica);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            not JSON            | {"version":1,"ranges":[                                                                      | not valid JSON
            trailing text       | {"version":1} x                                                                              | not valid JSON
            unknown version     | {"version":2,"ranges":[{"first":0,"last":9,"host":"a","master":"h:1"}]}                        | version
            no version          | {"ranges":[{"first":0,"last":9,"host":"a","master":"h:1"}]}                                    | version
            no ranges           | {"version":1,"ranges":[]}                                                                    | no "ranges"
            not from 0          | {"version":1,"ranges":[{"first":1,"last":9,"host":"a","master":"h:1"}]}                        | should start at 0
            gap                 | {"version":1,"ranges":[{"first":0,"last":9,"host":"a","master":"h:1"},{"first":11,"last":19,"host":"b","master":"h:2"}]} | shards 10-10 would be on no host
            overlap             | {"version":1,"ranges":[{"first":0,"last":9,"host":"a","master":"h:1"},{"first":5,"last":19,"host":"b","master":"h:2"}]}  | overlaps the previous range
            last before first   | {"version":1,"ranges":[{"first":0,"last":-1,"host":"a","master":"h:1"}]}                       | outside
            beyond 65535        | {"version":1,"ranges":[{"first":0,"last":65536,"host":"a","master":"h:1"}]}                    | outside 0-65535
            text shard number   | {"version":1,"ranges":[{"first":"0","last":9,"host":"a","master":"h:1"}]}                      | integer
            no host             | {"version":1,"ranges":[{"first":0,"last":9,"master":"h:1"}]}                                   | "host"
            invalid host name   | {"version":1,"ranges":[{"first":0,"last":9,"host":"a b","master":"h:1"}]}                      | valid host
            no master           | {"version":1,"ranges":[{"first":0,"last":9,"host":"a","replica":"h:1"}]}                       | no "master"
            master no port      | {"version":1,"ranges":[{"first":0,"last":9,"host":"a","master":"h"}]}                          | host:port
            master bad port     | {"version":1,"ranges":[{"first":0,"last":9,"host":"a","master":"h:70000"}]}                    | port out of range
            replica unparsable  | {"version":1,"ranges":[{"first":0,"last":9,"host":"a","master":"h:1","replica":"r:x"}]}        | "replica"
            host two masters    | {"version":1,"ranges":[{"first":0,"last":9,"host":"a","master":"h:1"},{"first":10,"last":19,"host":"a","master":"h:2"}]} | two address pairs
            """)
    void refusesEveryInvalidJsonMap(String why, String json, String message) {
        assertThatThrownBy(() -> MysqlShardMap.parse(json, STACK))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }

    @Test
    void anUnparsableMapIsExplainedOnOneLine() {
        assertThatThrownBy(() -> MysqlShardMap.parse("{\"version\":1,\n\"ranges\":[", STACK))
                .hasMessageStartingWith("mysql shard map is not valid JSON (line 2, column")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n").doesNotContain("Source"));
    }

    @Test
    void refusesEmptyText() {
        assertThatThrownBy(() -> MysqlShardMap.parse("  ", STACK)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty");
        assertThatThrownBy(() -> MysqlShardMap.parse(null, STACK)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aSuccessorMayGrowMoveAndFailOverButNeverDropShards() {
        MysqlShardMap now = MysqlShardMap.parse(JSON, STACK);
        MysqlShardMap grown = MysqlShardMap.parse("0-2047:mysql001,2048-8191:mysql002", STACK);
        MysqlShardMap moved = MysqlShardMap.parse("0-1023:mysql001,1024-4095:mysql002", STACK);
        MysqlShardMap failedOver = MysqlShardMap.parse(JSON.replace("\"master\":\"127.0.0.1:13306\"", "\"master\":\"127.0.0.1:13307\""), STACK);

        assertThat(now.successor(grown)).isSameAs(grown);
        assertThat(now.successor(moved)).isSameAs(moved);
        assertThat(now.successor(failedOver).master("mysql001")).isEqualTo(HostPort.parse("127.0.0.1:13307"));
        assertThatThrownBy(() -> now.successor(MysqlShardMap.parse("0-2047:mysql001", STACK)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shrink").hasMessageContaining("2048-4095");
    }

    @Test
    void aLegacyEditReadAgainstTheCurrentMapKeepsItsFailedOverAddresses() {
        MysqlShardMap failedOver = MysqlShardMap.parse(JSON.replace("\"master\":\"127.0.0.1:13306\"", "\"master\":\"127.0.0.1:13307\""), STACK);

        MysqlShardMap moved = MysqlShardMap.parse("0-1023:mysql001,1024-4095:mysql002", failedOver.addresses().orElse(STACK));

        assertThat(moved.master("mysql001")).isEqualTo(HostPort.parse("127.0.0.1:13307"));
        assertThat(moved.master("mysql002")).isEqualTo(HostPort.parse("127.0.0.1:13316"));
    }

    @Test
    void theConfiguredMapComesFromMysqlShardsAndTheHostKeys() {
        Properties p = new Properties();
        p.setProperty("mysql.shards", "0-9:x,10-19:y");
        p.setProperty("mysql.x.master", "10.0.0.1:3306");
        p.setProperty("mysql.x.replica", "10.0.0.2:3306");
        p.setProperty("mysql.y.master", "10.0.0.3:3306");
        MysqlShardMap map = MysqlShardMap.from(PinfeedConfig.of(p));
        assertThat(map.host("x")).isEqualTo(new ReplicatedHost("x", HostPort.parse("10.0.0.1:3306"), HostPort.parse("10.0.0.2:3306")));
        assertThat(map.host("y").replicaIfAny()).isEmpty();

        p.remove("mysql.y.master");
        assertThatThrownBy(() -> MysqlShardMap.from(PinfeedConfig.of(p))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("mysql.shards").hasMessageContaining("mysql.y.master");
    }

    @Test
    void anUnknownHostIsNamedInTheError() {
        MysqlShardMap map = MysqlShardMap.parse(JSON, STACK);
        assertThatThrownBy(() -> map.master("mysql009")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mysql009");
    }
}
