package dev.pinfeed.operations.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What needs no server: the manifest, the backup directory's partial/complete rule, dump parsing. */
class BackupFilesTest {

    @TempDir Path root;

    @Test
    void aManifestRoundTripsAndOnlyCommittedBackupsAreListed() throws Exception {
        BackupDirectory dir = new BackupDirectory(root);
        Instant at = Instant.parse("2026-11-28T12:00:00Z");
        String id = BackupDirectory.idAt(at);
        assertThat(id).isEqualTo("20261128T120000Z");
        Path partial = dir.begin(id);
        BackupManifest m = new BackupManifest(id, at, at.plusSeconds(42),
                List.of(new BackupManifest.MysqlDump("mysql001", "mysql/mysql001.sql.gz", "0-63", "mysql-bin.000003:77", "0-1-9", 1234)),
                List.of(new BackupManifest.RedisSnapshot("redis001", "127.0.0.1:16379", "redis/redis001.rdb", 99)),
                List.of(new BackupManifest.HBaseSnapshot("pinfeed:pools", "pinfeed-" + id + "-pinfeed-pools", "hbase/pinfeed-pools.cells.gz", 12, 345)),
                Map.of("pinfeed-materializer", Map.of("pinfeed.users.v1-0", 17L)));
        m.write(partial);
        assertThat(dir.list()).isEmpty(); // still partial: a crashed backup never passes for one
        dir.commit(partial, id);
        assertThat(dir.list()).containsExactly(m);
        assertThat(m.bytes()).as("dumps, RDBs and HBase exports").isEqualTo(1333 + 345);
        assertThatThrownBy(() -> dir.begin(id)).hasMessageContaining("already exists");
        assertThatThrownBy(() -> dir.dir("20000101T000000Z")).hasMessageContaining("no backup 20000101T000000Z");
        dir.delete(id);
        assertThat(Files.exists(root.resolve(id))).isFalse();
    }

    @Test
    void dumpLinesNameTheirShardAndShardListsPrintAsRanges() {
        assertThat(MysqlBackup.shardOf("-- Current Database: `db04300`")).isEqualTo(4300);
        assertThat(MysqlBackup.shardOf("-- Current Database: `pinfeed_meta`")).isEqualTo(-1);
        assertThat(MysqlBackup.shardOf("-- Current Database: `db4300`")).isEqualTo(-1);
        assertThat(MysqlBackup.spans(List.of(0, 1, 2, 5, 7, 8))).isEqualTo("0-2,5,7-8");
        assertThat(MysqlBackup.spans(List.of())).isEmpty();
    }
}
