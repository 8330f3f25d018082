package dev.pinfeed.operations.backup;

import dev.pinfeed.feedstore.hbase.HBaseClusters;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * The HBase part of a backup: a snapshot of each table on the primary cluster (HBase's own, consistent
 * per region, cheap: it links the table's files). Snapshots live in the cluster's root directory;
 * {@code hbase org.apache.hadoop.hbase.snapshot.ExportSnapshot} copies one to another filesystem
 * (docs/operations.md). A restore puts a table back to its snapshot: disabled for the moment of the
 * restore (feed reads fall back to the standby meanwhile), or cloned if it was dropped.
 */
final class HBaseBackup {

    private final String zookeeper;
    private final Consumer<String> step;

    HBaseBackup(String zookeeper, Consumer<String> step) {
        this.zookeeper = zookeeper;
        this.step = step;
    }

    List<BackupManifest.HBaseSnapshot> create(List<String> tables, String backupId) throws IOException {
        List<BackupManifest.HBaseSnapshot> out = new ArrayList<>();
        try (Connection c = ConnectionFactory.createConnection(HBaseClusters.clientConfiguration(zookeeper)); Admin admin = c.getAdmin()) {
            for (String table : tables) {
                TableName name = TableName.valueOf(table);
                String snapshot = snapshotName(backupId, name);
                long started = System.nanoTime();
                admin.snapshot(snapshot, name);
                step.accept(String.format(java.util.Locale.ROOT, "hbase %s: snapshot %s in %.1f s", table, snapshot, (System.nanoTime() - started) / 1e9));
                out.add(new BackupManifest.HBaseSnapshot(table, snapshot));
            }
        }
        return out;
    }

    void restore(BackupManifest.HBaseSnapshot snapshot) throws IOException {
        TableName table = TableName.valueOf(snapshot.table());
        try (Connection c = ConnectionFactory.createConnection(HBaseClusters.clientConfiguration(zookeeper)); Admin admin = c.getAdmin()) {
            boolean known = admin.listSnapshots().stream().anyMatch(s -> s.getName().equals(snapshot.snapshot()));
            if (!known) throw new IllegalStateException("the HBase cluster has no snapshot " + snapshot.snapshot() + " (deleted, or another cluster)");
            long started = System.nanoTime();
            if (admin.tableExists(table)) {
                if (admin.isTableEnabled(table)) admin.disableTable(table);
                admin.restoreSnapshot(snapshot.snapshot());
                admin.enableTable(table);
            } else {
                admin.cloneSnapshot(snapshot.snapshot(), table);
            }
            step.accept(String.format(java.util.Locale.ROOT, "hbase %s: back to snapshot %s in %.1f s", table, snapshot.snapshot(),
                    (System.nanoTime() - started) / 1e9));
        }
    }

    void delete(List<BackupManifest.HBaseSnapshot> snapshots) throws IOException {
        try (Connection c = ConnectionFactory.createConnection(HBaseClusters.clientConfiguration(zookeeper)); Admin admin = c.getAdmin()) {
            for (BackupManifest.HBaseSnapshot s : snapshots) {
                if (admin.listSnapshots().stream().anyMatch(d -> d.getName().equals(s.snapshot()))) admin.deleteSnapshot(s.snapshot());
            }
        }
    }

    static String snapshotName(String backupId, TableName table) {
        return "pinfeed-" + backupId + "-" + table.getNamespaceAsString() + "-" + table.getQualifierAsString();
    }
}
