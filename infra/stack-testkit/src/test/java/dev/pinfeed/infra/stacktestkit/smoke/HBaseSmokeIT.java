package dev.pinfeed.infra.stacktestkit.smoke;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@ExtendWith(StackExtension.class)
class HBaseSmokeIT {

    private static final byte[] CF = Bytes.toBytes("d");

    static Connection connect(String zookeeper) throws Exception {
        Configuration conf = HBaseConfiguration.create();
        conf.set("hbase.zookeeper.quorum", zookeeper);
        return ConnectionFactory.createConnection(conf);
    }

    @ParameterizedTest
    @ValueSource(strings = {"primary", "standby"})
    void putThenPrefixScanOnEachCluster(String cluster, TestStack stack) throws Exception {
        String zk = cluster.equals("primary") ? stack.config().hbasePrimaryZookeeper() : stack.config().hbaseStandbyZookeeper();
        TableName name = TableName.valueOf(stack.uniqueName("smoke_" + cluster));
        try (Connection c = connect(zk); Admin admin = c.getAdmin()) {
            admin.createTable(TableDescriptorBuilder.newBuilder(name).setColumnFamily(ColumnFamilyDescriptorBuilder.of(CF)).build());
            try (Table t = c.getTable(name)) {
                for (int i = 0; i < 20; i++) {
                    t.put(new Put(Bytes.toBytes(String.format("u1|%03d", i))).addColumn(CF, Bytes.toBytes("v"), Bytes.toBytes(i)));
                }
                t.put(new Put(Bytes.toBytes("u2|000")).addColumn(CF, Bytes.toBytes("v"), Bytes.toBytes(99)));
                List<Integer> values = new ArrayList<>();
                try (ResultScanner rs = t.getScanner(new Scan().setStartStopRowForPrefixScan(Bytes.toBytes("u1|")))) {
                    for (Result r : rs) values.add(Bytes.toInt(r.getValue(CF, Bytes.toBytes("v"))));
                }
                assertThat(values).hasSize(20).isSorted().doesNotContain(99);
            } finally {
                admin.disableTable(name);
                admin.deleteTable(name);
            }
        }
    }

    @Test
    void writeToReplicatedFeedTableOnPrimaryAppearsOnStandby(TestStack stack) throws Exception {
        TableName pools = TableName.valueOf("pinfeed:pools");
        byte[] family = Bytes.toBytes("p");
        byte[] row = Bytes.toBytes(stack.keyPrefix("smoke-replication") + "row");
        try (Connection primary = connect(stack.config().hbasePrimaryZookeeper());
             Connection standby = connect(stack.config().hbaseStandbyZookeeper());
             Table p = primary.getTable(pools); Table s = standby.getTable(pools)) {
            assertThat(s.exists(new Get(row))).isFalse();
            p.put(new Put(row).addColumn(family, Bytes.toBytes("q"), Bytes.toBytes("replicated")));
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
                    assertThat(Bytes.toString(s.get(new Get(row)).getValue(family, Bytes.toBytes("q")))).isEqualTo("replicated"));
        }
    }
}
