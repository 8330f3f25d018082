package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.PinfeedConfig;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HBase stop loses nothing: a row written before {@code stop} is there after the restart, and SIGTERM
 * suffices (no kill after the grace period). While it runs, its ZooKeeper grants the 60 s sessions that let
 * its own master and region server ride out a stall of a loaded box. Runs an HBase of its own on spare ports,
 * never the shared one.
 */
class HBaseStopIT {

    private static final byte[] CF = Bytes.toBytes("d");

    @TempDir Path home;

    @Test
    void aRowWrittenBeforeTheStopIsThereAfterTheRestart() throws Exception {
        StackLayout layout = new StackLayout(StackLayout.discover().root(), home);
        LocalStack stack = new LocalStack(layout, PinfeedConfig.bundledLocal(), line -> {});
        int zk = freePort();
        HBaseServerSpec spec = new HBaseServerSpec(layout, "hbase-stop-it", "HBase stop test", zk, freePort(), freePort(),
                HBaseServerSpec.DEFAULT_HEAP);
        ManagedProcess process = new ManagedProcess(spec.name(), layout);
        TableName table = TableName.valueOf("stop_it");
        byte[] row = Bytes.toBytes("written-before-stop");
        try {
            start(stack, spec, process);
            try (Connection c = ConnectionFactory.createConnection(HBaseServerSpec.clientConfiguration("127.0.0.1:" + zk));
                 Admin admin = c.getAdmin()) {
                admin.createTable(TableDescriptorBuilder.newBuilder(table).setColumnFamily(ColumnFamilyDescriptorBuilder.of(CF)).build());
                try (Table t = c.getTable(table)) {
                    t.put(new Put(row).addColumn(CF, Bytes.toBytes("q"), Bytes.toBytes("acknowledged")));
                }
            }

            assertThat(negotiatedSessionTimeout(zk, 60_000)).as("ZooKeeper caps sessions at 20 ticks; the default tick caps them at 40 s")
                    .isEqualTo(60_000);

            long t0 = System.nanoTime();
            boolean killed = process.stop(spec.stopGrace());
            System.err.printf(Locale.ROOT, "[HBaseStopIT] stop took %.1f s%n", (System.nanoTime() - t0) / 1e9);
            assertThat(killed).as("stopped by SIGTERM within " + spec.stopGrace()).isFalse();

            start(stack, spec, process);
            try (Connection c = ConnectionFactory.createConnection(HBaseServerSpec.clientConfiguration("127.0.0.1:" + zk));
                 Table t = c.getTable(table)) {
                assertThat(Bytes.toString(t.get(new Get(row)).getValue(CF, Bytes.toBytes("q")))).isEqualTo("acknowledged");
            }
        } finally {
            process.stop(Duration.ofSeconds(5));
        }
    }

    private static void start(LocalStack stack, HBaseServerSpec spec, ManagedProcess process) throws InterruptedException {
        stack.prepare(spec);
        ProcessHandle h = process.start(spec.command());
        long deadline = System.nanoTime() + spec.startTimeout().toNanos();
        while (!spec.healthy()) {
            assertThat(h.isAlive()).as("HBase exited during start: " + process.tail(20)).isTrue();
            assertThat(System.nanoTime()).as("HBase not healthy in " + spec.startTimeout() + ": " + process.tail(20)).isLessThan(deadline);
            Thread.sleep(500);
        }
    }

    private static int negotiatedSessionTimeout(int zkPort, int asked) throws Exception {
        try (ZooKeeper client = new ZooKeeper("127.0.0.1:" + zkPort, asked, event -> {})) {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!client.getState().isConnected()) {
                assertThat(System.nanoTime()).as("no ZooKeeper session in 60 s").isLessThan(deadline);
                Thread.sleep(50);
            }
            return client.getSessionTimeout();
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
