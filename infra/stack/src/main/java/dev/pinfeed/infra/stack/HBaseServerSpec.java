package dev.pinfeed.infra.stack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * A standalone HBase: master, region server and its own ZooKeeper in one process, data on the
 * local filesystem. The stack runs two (primary and standby) on different ports.
 */
final class HBaseServerSpec implements ServerSpec {

    /**
     * Master, region server and ZooKeeper in one JVM (see {@link #writeFiles} for how it is shared): {@value #HEAP_KEY},
     * by default {@value #DEFAULT_HEAP}, the size the load tests were measured with.
     */
    static final String HEAP_KEY = "stack.hbase.heap";
    static final String DEFAULT_HEAP = "1536m";
    /** The standby's heap, by default {@value #HEAP_KEY}'s: it takes the primary's writes but few reads. */
    static final String STANDBY_HEAP_KEY = "stack.hbase.standby.heap";
    /** A memstore chunk: under half a G1 region of the smallest size, so not humongous (see {@link #writeFiles}). */
    static final int MSLAB_CHUNK_BYTES = 256 * 1024;

    private final StackLayout layout;
    private final String name;
    private final String role;
    private final int zkPort;
    private final int masterPort;
    private final int regionServerPort;
    private final Path dir;
    private final String heap;

    HBaseServerSpec(StackLayout layout, String name, String role, int zkPort, int masterPort, int regionServerPort, String heap) {
        this.layout = layout;
        this.name = name;
        this.role = role;
        this.zkPort = zkPort;
        this.masterPort = masterPort;
        this.regionServerPort = regionServerPort;
        this.dir = layout.dataPath(name);
        this.heap = heap;
    }

    @Override public String name() { return name; }
    /** Its {@code -Xmx}. */
    String heap() { return heap; }
    @Override public String role() { return role; }
    @Override public String endpoint() { return "zk 127.0.0.1:" + zkPort; }
    /** A restart after kill -9 splits the WALs and reassigns every region: 80–120 s on a loaded 2-core box, 15–30 s on an idle one. */
    @Override public Duration startTimeout() { return Duration.ofSeconds(300); }
    @Override public Duration stopGrace() { return Duration.ofSeconds(15); }
    @Override public Path logFile() { return layout.logFile(name + ".log"); }

    @Override
    public void writeFiles() {
        Map<String, String> site = new LinkedHashMap<>();
        site.put("hbase.cluster.distributed", "false");
        site.put("hbase.rootdir", dir.resolve("root").toUri().toString());
        site.put("hbase.tmp.dir", dir.resolve("tmp").toString());
        site.put("hbase.zookeeper.quorum", "127.0.0.1");
        site.put("hbase.zookeeper.property.clientPort", String.valueOf(zkPort));
        site.put("hbase.zookeeper.property.dataDir", dir.resolve("zookeeper").toString());
        site.put("hbase.zookeeper.property.maxClientCnxns", "500");
        site.put("hbase.master.port", String.valueOf(masterPort));
        site.put("hbase.regionserver.port", String.valueOf(regionServerPort));
        site.put("hbase.master.info.port", "-1");
        site.put("hbase.regionserver.info.port", "-1");
        // The local filesystem has no hflush/hsync capability; HBase must be told that is acceptable here.
        site.put("hbase.unsafe.stream.capability.enforce", "false");
        site.put("hbase.wal.provider", "filesystem");
        site.put("hbase.replication", "true");
        // Ship WAL edits to the standby within ~0.1 s instead of the default ~2 s.
        site.put("replication.source.sleepforretries", "50");
        // A shipped batch is up to 64 MB by default, held whole by the standby while it applies it (and again
        // when a slow apply times out and the batch is re-sent): with a backlog behind a benchmark, that ran a
        // 1.5 GB standby out of heap. 4 MB batches bound it and still ship ~10 k pool rows each.
        site.put("replication.source.size.capacity", String.valueOf(4 * 1024 * 1024));
        site.put("hbase.regionserver.handler.count", "20");
        // Reads in queues of their own, scans apart from gets: a feed page's scans no longer wait behind the fan-out's
        // batches of pool writes (during a demo load's fan-out, first pages waited seconds in the one shared queue).
        site.put("hbase.ipc.server.callqueue.handler.factor", "0.2");
        site.put("hbase.ipc.server.callqueue.read.ratio", "0.6");
        site.put("hbase.ipc.server.callqueue.scan.ratio", "0.5");
        // Memstores and block cache default to 0.4 of the heap each, leaving a 512 MB server 100 MB to work
        // in: under the benchmarks its old generation sat at 99.9 % with a full GC every ~2 s (30 % of the
        // time in GC, 0.2 s stalls). 1536 MB with 0.3 each leaves ~600 MB of working room,
        // 640 MB (the dev stack's) ~250 MB.
        site.put("hbase.regionserver.global.memstore.size", "0.3");
        site.put("hfile.block.cache.size", "0.3");
        // Memstore chunks of 256 KB (2 MB by default): a heap under 4 GB has 1 MB G1 regions, where any object of
        // 512 KB or more is humongous. Each 2 MB chunk took whole regions of its own and started concurrent cycles:
        // ~115 humongous regions of the dev primary's 768 and pauses 7 % of the time under a fan-out backlog.
        site.put("hbase.hregion.memstore.mslab.chunksize", String.valueOf(MSLAB_CHUNK_BYTES));
        site.put("hbase.hregion.memstore.mslab.max.allocation", String.valueOf(MSLAB_CHUNK_BYTES / 4));
        // ZooKeeper runs inside this process and the master's shutdown hook stops it before the region
        // server's hook has deleted its znode: retrying that delete against a stopped ZooKeeper made every
        // stop take ~25 s (regions are closed and flushed ~2 s after SIGTERM). Nothing else retries a local ZK.
        site.put("zookeeper.recovery.retry", "0");
        // In local mode the master gives its own ZooKeeper sessions 10 s: a loaded 2-core box stalled the
        // standby's JVM for 7-10 s twice in one benchmark and its region server aborted on the expired
        // session (the primary then queues replication until someone restarts it). The servers and their
        // ZooKeeper share one process, so a longer session hides no dead server; ZooKeeper caps sessions at
        // 20 ticks, hence the 3 s tick.
        site.put("zookeeper.session.timeout.localHBaseCluster", "60000");
        site.put("hbase.zookeeper.property.tickTime", "3000");
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
        site.forEach((k, v) -> xml.append("  <property><name>").append(k).append("</name><value>").append(v)
                .append("</value></property>\n"));
        xml.append("</configuration>\n");
        StackLayout.ensure(confDir());
        AtomicFiles.writeIfChanged(confDir().resolve("hbase-site.xml"), xml.toString());
        Log4jConfig.SERVERS.write(layout);
    }

    private Path confDir() {
        return dir.resolve("conf");
    }

    @Override
    public List<String> command() {
        return JavaCommand.withHeap(heap).flags(JavaCommand.HBASE_OPENS)
                .logTo(logFile(), "WARN", Log4jConfig.SERVERS.file(layout))
                .property("hbase.log.dir", logFile().getParent())
                .run(confDir() + ":" + layout.classpathOf("infra/hbase-server"), "org.apache.hadoop.hbase.master.HMaster", "start");
    }

    @Override
    public boolean healthy() {
        if (!Probes.tcpOpen("127.0.0.1", zkPort) || !Probes.tcpOpen("127.0.0.1", regionServerPort)) return false;
        try (Connection c = ConnectionFactory.createConnection(clientConfiguration("127.0.0.1:" + zkPort));
             Admin admin = c.getAdmin()) {
            // Listing namespaces fails with PleaseHoldException until the master has finished initializing.
            return admin.isTableAvailable(TableName.META_TABLE_NAME) && !admin.getRegionServers().isEmpty()
                    && admin.listNamespaceDescriptors().length > 0;
        } catch (Exception e) {
            return false;
        }
    }

    /** Client settings that fail fast: a health probe must not sit in HBase's default retry loop. */
    static Configuration clientConfiguration(String zookeeperQuorum) {
        Configuration conf = HBaseConfiguration.create();
        String[] hostPort = zookeeperQuorum.split(",")[0].split(":");
        conf.set("hbase.zookeeper.quorum", zookeeperQuorum.replaceAll(":\\d+", ""));
        if (hostPort.length > 1) conf.set("hbase.zookeeper.property.clientPort", hostPort[1]);
        conf.setInt("hbase.client.retries.number", 3);
        conf.setInt("hbase.client.pause", 200);
        conf.setInt("hbase.rpc.timeout", 5_000);
        conf.setInt("hbase.client.operation.timeout", 10_000);
        conf.setInt("zookeeper.recovery.retry", 1);
        conf.setInt("zookeeper.session.timeout", 10_000);
        return conf;
    }
}
