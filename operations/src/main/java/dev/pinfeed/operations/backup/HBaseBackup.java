package dev.pinfeed.operations.backup;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedstore.hbase.HBaseClusters;
import dev.pinfeed.feedstore.hbase.HBaseLayout;
import dev.pinfeed.feedstore.hbase.HBaseStage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.exceptions.DeserializationException;

/**
 * The HBase part of a backup: a snapshot of each table on the cluster it lives on (its stage's home,
 * {@link HBaseLayout}: by default pools on the primary, materialized_feed on the standby cluster; HBase's own, consistent
 * per region, cheap: it links the table's files), and the snapshot's rows exported into the backup
 * directory ({@link HBaseExportFile}): the snapshot is cloned into a scratch table (links again, and a
 * name no replication peer carries), scanned with every version, and the clone dropped. A restore puts a
 * table back to its snapshot while the cluster still has it (disabled for the moment of the restore:
 * feed reads fall back to the standby meanwhile; cloned if the table was dropped), else from the export:
 * the table emptied (or created from the exported descriptor) and the cells written back.
 */
final class HBaseBackup {

    private static final long PROGRESS_EVERY = 200_000;

    private final Function<TableName, String> zookeeperOf;
    private final Consumer<String> step;

    /** Every table on the cluster behind {@code zookeeper}. */
    HBaseBackup(String zookeeper, Consumer<String> step) {
        this(table -> zookeeper, step);
    }

    HBaseBackup(Function<TableName, String> zookeeperOf, Consumer<String> step) {
        this.zookeeperOf = zookeeperOf;
        this.step = step;
    }

    /** Each table on its stage's home cluster by {@code config}'s layout; a table of no stage on the primary. */
    static HBaseBackup of(PinfeedConfig config, Consumer<String> step) {
        HBaseLayout layout = HBaseLayout.from(config);
        return new HBaseBackup(table -> {
            String cluster;
            try {
                cluster = layout.home(HBaseStage.of(table));
            } catch (IllegalArgumentException noStage) {
                cluster = HBaseClusters.PRIMARY;
            }
            return HBaseClusters.zookeeper(config, cluster);
        }, step);
    }

    /** Snapshots {@code tables} and exports each into {@code dir} (the backup being written). */
    List<BackupManifest.HBaseSnapshot> create(List<String> tables, String backupId, Path dir) throws IOException {
        List<BackupManifest.HBaseSnapshot> out = new ArrayList<>();
        for (String table : tables) {
            TableName name = TableName.valueOf(table);
            try (Connection c = connect(name); Admin admin = c.getAdmin()) {
                String snapshot = snapshotName(backupId, name);
                long started = System.nanoTime();
                admin.snapshot(snapshot, name);
                step.accept(String.format(Locale.ROOT, "hbase %s: snapshot %s in %.1f s", table, snapshot, (System.nanoTime() - started) / 1e9));
                String file = "hbase/" + name.getNamespaceAsString() + "-" + name.getQualifierAsString() + ".cells.gz";
                long cells = export(c, admin, snapshot, name, dir.resolve(file));
                out.add(new BackupManifest.HBaseSnapshot(table, snapshot, file, cells, Files.size(dir.resolve(file))));
            }
        }
        return out;
    }

    private long export(Connection c, Admin admin, String snapshot, TableName table, Path file) throws IOException {
        long started = System.nanoTime();
        TableName scratch = TableName.valueOf(table.getNamespaceAsString(), "pinfeed_backup_export_" + Long.toHexString(System.nanoTime()));
        admin.cloneSnapshot(snapshot, scratch);
        try (HBaseExportFile.Writer out = new HBaseExportFile.Writer(file, TableDescriptorBuilder.toByteArray(admin.getDescriptor(table)));
             Table t = c.getTable(scratch); ResultScanner rows = t.getScanner(new Scan().readAllVersions().setCaching(1_000))) {
            for (Result r : rows) {
                for (Cell cell : r.rawCells()) {
                    out.cell(CellUtil.cloneRow(cell), CellUtil.cloneFamily(cell), CellUtil.cloneQualifier(cell), cell.getTimestamp(),
                            CellUtil.cloneValue(cell));
                    if (out.cells() % PROGRESS_EVERY == 0) step.accept("hbase " + table + ": exported " + out.cells() + " cells");
                }
            }
            step.accept(String.format(Locale.ROOT, "hbase %s: %d cells exported to the backup in %.1f s", table, out.cells(),
                    (System.nanoTime() - started) / 1e9));
            return out.cells();
        } finally {
            if (admin.tableExists(scratch)) {
                admin.disableTable(scratch);
                admin.deleteTable(scratch);
            }
        }
    }

    /** Puts {@code snapshot}'s table back: from the cluster's snapshot if it still has it, else from the export in {@code dir}. */
    void restore(BackupManifest.HBaseSnapshot snapshot, Path dir) throws IOException {
        TableName table = TableName.valueOf(snapshot.table());
        try (Connection c = connect(table); Admin admin = c.getAdmin()) {
            boolean known = admin.listSnapshots().stream().anyMatch(s -> s.getName().equals(snapshot.snapshot()));
            long started = System.nanoTime();
            if (known) {
                if (admin.tableExists(table)) {
                    if (admin.isTableEnabled(table)) admin.disableTable(table);
                    admin.restoreSnapshot(snapshot.snapshot());
                    admin.enableTable(table);
                } else {
                    admin.cloneSnapshot(snapshot.snapshot(), table);
                }
                step.accept(String.format(Locale.ROOT, "hbase %s: back to snapshot %s in %.1f s", table, snapshot.snapshot(),
                        (System.nanoTime() - started) / 1e9));
                return;
            }
            if (snapshot.export() == null || !Files.exists(dir.resolve(snapshot.export()))) {
                throw new IllegalStateException("the HBase cluster has no snapshot " + snapshot.snapshot() + " (deleted, or another cluster)"
                        + " and the backup holds no export of " + table);
            }
            long cells = load(c, admin, table, dir.resolve(snapshot.export()));
            step.accept(String.format(Locale.ROOT, "hbase %s: %d cells written back from the backup's export (the cluster has no snapshot %s)"
                    + " in %.1f s", table, cells, snapshot.snapshot(), (System.nanoTime() - started) / 1e9));
        }
    }

    private long load(Connection c, Admin admin, TableName table, Path file) throws IOException {
        try (HBaseExportFile.Reader in = new HBaseExportFile.Reader(file)) {
            TableDescriptor descriptor;
            try {
                descriptor = TableDescriptorBuilder.parseFrom(in.descriptor());
            } catch (DeserializationException e) {
                throw new IOException(file + ": unreadable table descriptor", e);
            }
            if (admin.tableExists(table)) {
                if (admin.isTableEnabled(table)) admin.disableTable(table);
                admin.truncateTable(table, true);
            } else {
                admin.createTable(descriptor);
            }
            long cells = 0;
            try (BufferedMutator writer = c.getBufferedMutator(table)) {
                for (HBaseExportFile.ExportedCell cell = in.next(); cell != null; cell = in.next()) {
                    writer.mutate(new Put(cell.row()).addColumn(cell.family(), cell.qualifier(), cell.timestamp(), cell.value()));
                    if (++cells % PROGRESS_EVERY == 0) step.accept("hbase " + table + ": " + cells + " cells written back");
                }
            }
            return cells;
        }
    }

    void delete(List<BackupManifest.HBaseSnapshot> snapshots) throws IOException {
        for (BackupManifest.HBaseSnapshot s : snapshots) {
            try (Connection c = connect(TableName.valueOf(s.table())); Admin admin = c.getAdmin()) {
                if (admin.listSnapshots().stream().anyMatch(d -> d.getName().equals(s.snapshot()))) admin.deleteSnapshot(s.snapshot());
            }
        }
    }

    private Connection connect(TableName table) throws IOException {
        return ConnectionFactory.createConnection(HBaseClusters.clientConfiguration(zookeeperOf.apply(table)));
    }

    static String snapshotName(String backupId, TableName table) {
        return "pinfeed-" + backupId + "-" + table.getNamespaceAsString() + "-" + table.getQualifierAsString();
    }
}
