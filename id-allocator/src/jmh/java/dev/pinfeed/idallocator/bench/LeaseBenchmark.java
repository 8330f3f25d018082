package dev.pinfeed.idallocator.bench;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.idallocator.LocalIdBlock;
import dev.pinfeed.idallocator.mysql.MysqlSequenceStore;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Cost of one block lease from a shard's MySQL database (needs the stack: ./pinfeed dev).
 * Baseline: a plain single-row UPDATE round trip on one JDBC connection to the same master.
 * Uses type id 1001 (no registered type) on shard 7, so real counters are untouched.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class LeaseBenchmark {

    private static final int SHARD = 7;
    private static final int BENCH_TYPE = 1001;

    private MysqlSequenceStore store;
    private Connection plain;
    private PreparedStatement plainUpdate;

    @Setup
    public void connect() throws SQLException {
        PinfeedConfig config = PinfeedConfig.load();
        store = MysqlSequenceStore.from(config);
        MysqlShardMap shards = MysqlShardMap.from(config);
        HostPort master = shards.master(shards.hostOf(SHARD));
        plain = DriverManager.getConnection(config.mysqlJdbcUrl(master),
                config.mysqlUser(), config.mysqlPassword());
        String db = MysqlShardMap.databaseName(SHARD);
        try (Statement st = plain.createStatement()) {
            st.execute("INSERT IGNORE INTO " + db + ".id_sequences (type_id, next_local) VALUES (" + (BENCH_TYPE + 1) + ", 1)");
        }
        plainUpdate = plain.prepareStatement("UPDATE " + db + ".id_sequences SET next_local = next_local + 1 WHERE type_id = ?");
        plainUpdate.setInt(1, BENCH_TYPE + 1);
        store.lease(SHARD, BENCH_TYPE, 1); // pool warm
    }

    @TearDown
    public void close() throws SQLException {
        store.close();
        plain.close();
    }

    @Benchmark
    public LocalIdBlock leaseBlockOf1000() {
        return store.lease(SHARD, BENCH_TYPE, 1000);
    }

    @Benchmark
    public int baselinePlainUpdate() throws SQLException {
        return plainUpdate.executeUpdate();
    }
}
