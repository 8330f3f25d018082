package dev.pinfeed.operations.shards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a move records and compares: binlog positions, the moves znode, the range a move may take. */
class ShardMoveRecordsTest {

    @Test
    void binlogPositionsOrderByFileNumberThenOffsetAndComeFromTheDumpLine() {
        BinlogPosition a = BinlogPosition.parse("mysql-bin.000009:900");
        BinlogPosition b = new BinlogPosition("mysql-bin.000010", 4);
        assertThat(a).isLessThan(b);
        assertThat(b).isGreaterThan(new BinlogPosition("mysql-bin.000010", 3));
        assertThat(BinlogPosition.parse(b.toString())).isEqualTo(b);
        assertThat(BinlogPosition.fromDumpLine("-- CHANGE MASTER TO MASTER_LOG_FILE='mysql-bin.000022', MASTER_LOG_POS=338973;"))
                .isEqualTo(new BinlogPosition("mysql-bin.000022", 338973));
        assertThat(BinlogPosition.fromDumpLine("-- Current Database: `db00001`")).isNull();
        assertThatThrownBy(() -> BinlogPosition.parse("nonsense")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theMovesRecordRoundTripsEveryPhase() {
        List<ShardMoves.Move> moves = List.of(
                new ShardMoves.Move(0, 63, "mysql001", "mysql002", ShardMoves.Phase.COPYING, null),
                new ShardMoves.Move(64, 127, "mysql001", "mysql003", ShardMoves.Phase.MOVED, new BinlogPosition("mysql-bin.000003", 77)));
        assertThat(ShardMoves.parse(ShardMoves.format(moves))).isEqualTo(moves);
        assertThat(moves.get(0).overlaps(63, 64)).isTrue();
        assertThat(moves.get(0).overlaps(64, 100)).isFalse();
        assertThatThrownBy(() -> ShardMoves.parse("{\"moves\":[{\"phase\":\"FLYING\"}]}")).hasMessageContaining("unreadable");
    }

    @Test
    void aMoveTakesARangeOfOneHost() {
        MysqlShardMap map = MysqlShardMap.parse("{\"version\":1,\"ranges\":[{\"first\":0,\"last\":2047,\"host\":\"mysql001\",\"master\":\"127.0.0.1:13306\"},"
                + "{\"first\":2048,\"last\":4095,\"host\":\"mysql002\",\"master\":\"127.0.0.1:13316\"}]}", name -> java.util.Optional.empty());
        assertThat(MysqlShardMover.hostOfWhole(map, 0, 63)).isEqualTo("mysql001");
        assertThatThrownBy(() -> MysqlShardMover.hostOfWhole(map, 2000, 2100)).hasMessageContaining("more than one host");
        assertThatThrownBy(() -> MysqlShardMover.hostOfWhole(map, 4000, 4096)).hasMessageContaining("not a range");
        assertThat(MysqlShardMover.databases(7, 9)).containsExactly("db00007", "db00008", "db00009");
        assertThat(MysqlShardMover.movedAway("db00007")).isEqualTo("db00007__moved");
        assertThat(HostPort.parse("127.0.0.1:13306").port()).isEqualTo(13306);
    }
}
