package dev.pinfeed.operations.provision;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.config.zookeeper.ZooKeeperAuth;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import dev.pinfeed.config.Sha256;
import dev.pinfeed.feedstore.hbase.HBaseClusters;
import dev.pinfeed.feedstore.hbase.HBaseLayout;
import dev.pinfeed.feedstore.hbase.HBaseStage;
import dev.pinfeed.mysqlshards.MysqlShardConfig;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import java.io.IOException;
import java.net.URI;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfig;
import org.apache.hadoop.hbase.replication.ReplicationPeerDescription;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;

/**
 * Applies infra/definitions (topics, HBase tables and replication, shard databases, application
 * znodes) to whatever clusters the configuration names. Every step is idempotent, so it runs at
 * every local-stack start and as {@code ./pinfeed provision} against real clusters.
 */
public final class Provisioner {

    /** The znode (under the application namespace) holding the live shard map. */
    public static final String SHARD_MAP_ZNODE = MysqlShardConfig.ZNODE;
    /** The peer on {@code hbase-primary} shipping its stages to {@code hbase-standby}. */
    static final String REPLICATION_PEER = "standby";
    /** The peer on {@code hbase-standby} shipping its stages back to {@code hbase-primary}. */
    static final String REPLICATION_PEER_BACK = "primary";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final PinfeedConfig config;
    private final Path definitions;
    private final Consumer<String> progress;

    public Provisioner(PinfeedConfig config, Path definitions, Consumer<String> progress) {
        this.config = config;
        this.definitions = definitions;
        this.progress = progress;
    }

    /** What provisioning applies, in this order; each part needs only its own servers up. */
    public enum Part {
        /** Kafka topics. */
        TOPICS,
        /** The schema registry's compatibility level. */
        REGISTRY,
        /** HBase tables on both clusters and their replication peers. */
        HBASE,
        /** The application's znodes (the live MySQL shard map). */
        ZNODES,
        /** The shard databases on every MySQL master (and their replicas). */
        MYSQL;

        /** Parts by their lower-case names, comma-separated ("topics,mysql"). */
        public static Set<Part> parse(String names) {
            Set<Part> parts = EnumSet.noneOf(Part.class);
            for (String name : names.split(",")) {
                String n = name.trim();
                parts.add(Arrays.stream(values()).filter(p -> p.name().equalsIgnoreCase(n)).findFirst().orElseThrow(() ->
                        new IllegalArgumentException("no part '" + n + "' (one of: " + Arrays.stream(values())
                                .map(p -> p.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", ")) + ")")));
            }
            return parts;
        }
    }

    public void all() throws Exception {
        apply(EnumSet.allOf(Part.class));
    }

    public void apply(Set<Part> parts) throws Exception {
        if (parts.contains(Part.TOPICS)) kafkaTopics();
        if (parts.contains(Part.REGISTRY)) registryCompatibility();
        if (parts.contains(Part.HBASE)) {
            hbaseTables(config.hbasePrimaryZookeeper(), true);
            hbaseTables(config.hbaseStandbyZookeeper(), false);
            progress.accept("hbase layout: " + HBaseLayout.from(config));
            hbaseReplication();
        }
        if (parts.contains(Part.ZNODES)) appZnodes();
        if (parts.contains(Part.MYSQL)) mysqlShards();
    }

    private JsonNode definition(String file) {
        try {
            return JSON.readTree(definitions.resolve(file).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + definitions.resolve(file) + ": " + e.getMessage(), e);
        }
    }

    // ---------------------------------------------------------------- Kafka

    public void kafkaTopics() throws Exception {
        try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(
                dev.pinfeed.processorruntime.KafkaClients.admin(config))) {
            Set<String> existing = admin.listTopics().names().get();
            int created = 0;
            for (JsonNode t : definition("topics.json").path("topics")) {
                String name = t.path("name").asText();
                int partitions = t.path("partitions").asInt(1);
                short rf = (short) t.path("replicationFactor").asInt(-1);
                Map<String, String> configs = new HashMap<>();
                t.path("configs").fields().forEachRemaining(e -> configs.put(e.getKey(), e.getValue().asText()));
                if (!existing.contains(name)) {
                    admin.createTopics(List.of(new NewTopic(name, Optional.of(partitions),
                            rf < 0 ? Optional.empty() : Optional.of(rf)).configs(configs))).all().get();
                    created++;
                    continue;
                }
                TopicDescription d = admin.describeTopics(List.of(name)).allTopicNames().get().get(name);
                if (d.partitions().size() < partitions) {
                    admin.createPartitions(Map.of(name, NewPartitions.increaseTo(partitions))).all().get();
                } else if (d.partitions().size() > partitions) {
                    progress.accept("warning: topic " + name + " has " + d.partitions().size() + " partitions, definition says "
                            + partitions + " (partitions never shrink)");
                }
                List<AlterConfigOp> ops = configs.entrySet().stream()
                        .map(e -> new AlterConfigOp(new ConfigEntry(e.getKey(), e.getValue()), AlterConfigOp.OpType.SET)).toList();
                if (!ops.isEmpty()) {
                    admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, name), ops)).all().get();
                }
            }
            progress.accept("kafka topics ready (" + created + " created)");
        }
    }

    // ---------------------------------------------------------------- HBase

    record TableDefinition(TableName name, List<ColumnFamilyDescriptor> families, List<String> replicatedFamilies) {}

    List<TableDefinition> hbaseTableDefinitions() {
        JsonNode root = definition("hbase-tables.json");
        String ns = root.path("namespace").asText("default");
        List<TableDefinition> tables = new ArrayList<>();
        for (JsonNode t : root.path("tables")) {
            List<ColumnFamilyDescriptor> families = new ArrayList<>();
            List<String> replicated = new ArrayList<>();
            for (JsonNode f : t.path("families")) {
                boolean rep = f.path("replicated").asBoolean(false);
                families.add(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes(f.path("name").asText()))
                        .setMaxVersions(f.path("maxVersions").asInt(1))
                        .setBloomFilterType(BloomType.valueOf(f.path("bloom").asText("ROW")))
                        .setScope(rep ? 1 : 0)
                        .build());
                if (rep) replicated.add(f.path("name").asText());
            }
            tables.add(new TableDefinition(TableName.valueOf(ns, t.path("name").asText()), families, replicated));
        }
        return tables;
    }

    /** Event schemas evolve BACKWARD_TRANSITIVE: a new schema must read every older version's data. */
    static final String REGISTRY_COMPATIBILITY = "BACKWARD_TRANSITIVE";

    /** Sets the registry's global compatibility level (Confluent REST API PUT /config; idempotent). */
    public void registryCompatibility() throws Exception {
        URI url = URI.create(config.schemaRegistryUrl().replaceAll("/+$", "") + "/config");
        java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest.newBuilder(url).timeout(java.time.Duration.ofSeconds(10))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .PUT(java.net.http.HttpRequest.BodyPublishers.ofString("{\"compatibility\":\"" + REGISTRY_COMPATIBILITY + "\"}"));
        HttpSchemaRegistryClient.authorization(config).ifPresent(value -> request.header("Authorization", value));
        java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(request.build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("setting the registry's compatibility at " + url + " failed: HTTP " + r.statusCode() + " " + r.body());
        }
        progress.accept("schema registry: global compatibility " + REGISTRY_COMPATIBILITY);
    }

    public void hbaseTables(String zookeeper, boolean primary) throws IOException {
        try (org.apache.hadoop.hbase.client.Connection c = ConnectionFactory.createConnection(
                HBaseClusters.clientConfiguration(zookeeper)); Admin admin = c.getAdmin()) {
            int created = 0;
            for (TableDefinition t : hbaseTableDefinitions()) {
                String ns = t.name().getNamespaceAsString();
                try {
                    admin.getNamespaceDescriptor(ns);
                } catch (NamespaceNotFoundException e) {
                    admin.createNamespace(NamespaceDescriptor.create(ns).build());
                }
                if (!admin.tableExists(t.name())) {
                    admin.createTable(TableDescriptorBuilder.newBuilder(t.name()).setColumnFamilies(t.families()).build());
                    created++;
                }
            }
            progress.accept("hbase " + (primary ? "primary" : "standby") + " tables ready (" + created + " created)");
        }
    }

    /** The replication peer a cluster ships its stages through: named after the cluster it ships to. */
    static String peerOn(String cluster) {
        return cluster.equals(HBaseClusters.PRIMARY) ? REPLICATION_PEER : REPLICATION_PEER_BACK;
    }

    /**
     * What the peer on {@code cluster} ships: the replicated families of the tables of the stages whose home
     * is {@code cluster} ({@link HBaseLayout}); a table of no stage goes with the primary. Empty: no peer there.
     */
    static Map<TableName, List<String>> shippedFrom(String cluster, HBaseLayout layout, List<TableDefinition> tables) {
        Map<TableName, List<String>> tableCfs = new HashMap<>();
        for (TableDefinition t : tables) {
            if (t.replicatedFamilies().isEmpty()) continue;
            String home;
            try {
                home = layout.home(HBaseStage.of(t.name()));
            } catch (IllegalArgumentException noStage) {
                home = HBaseClusters.PRIMARY;
            }
            if (home.equals(cluster)) tableCfs.put(t.name(), List.copyOf(t.replicatedFamilies()));
        }
        return tableCfs;
    }

    /**
     * Each cluster ships the replicated families of its own stages to the other (table-cfs peers, seed 002's hot
     * standby both ways): by default {@code hbase-primary} ships {@code pools} through its peer {@value #REPLICATION_PEER},
     * {@code hbase-standby} ships {@code materialized_feed} back through its peer {@value #REPLICATION_PEER_BACK}.
     * Idempotent: a missing peer is added, one shipping other tables is updated (so re-running it converts a stack
     * provisioned for one cluster), one a cluster no longer needs (no stage lives there) is removed. Replicated
     * families are given {@code REPLICATION_SCOPE 1} where a table lacks it.
     */
    public void hbaseReplication() throws IOException {
        HBaseLayout layout = HBaseLayout.from(config);
        List<TableDefinition> tables = hbaseTableDefinitions();
        for (String cluster : List.of(HBaseClusters.PRIMARY, HBaseClusters.STANDBY)) {
            String target = HBaseLayout.other(cluster);
            String peerId = peerOn(cluster);
            Map<TableName, List<String>> tableCfs = shippedFrom(cluster, layout, tables);
            try (org.apache.hadoop.hbase.client.Connection c = ConnectionFactory.createConnection(
                    HBaseClusters.clientConfiguration(HBaseClusters.zookeeper(config, cluster))); Admin admin = c.getAdmin()) {
                for (TableDefinition t : tables) replicationScopes(admin, t);
                Optional<ReplicationPeerDescription> existing = admin.listReplicationPeers().stream()
                        .filter(d -> d.getPeerId().equals(peerId)).findFirst();
                if (tableCfs.isEmpty()) {
                    if (existing.isPresent()) {
                        admin.removeReplicationPeer(peerId);
                        progress.accept("hbase replication " + cluster + " -> " + target + ": peer '" + peerId + "' removed (no stage lives on "
                                + cluster + ")");
                    }
                    continue;
                }
                ReplicationPeerConfig peer = ReplicationPeerConfig.newBuilder()
                        .setClusterKey(clusterKey(HBaseClusters.zookeeper(config, target)))
                        .setReplicateAllUserTables(false).setTableCFsMap(tableCfs).build();
                if (existing.isEmpty()) {
                    admin.addReplicationPeer(peerId, peer);
                } else if (!sameTableCfs(existing.get().getPeerConfig().getTableCFsMap(), tableCfs)
                        || existing.get().getPeerConfig().replicateAllUserTables()) {
                    admin.updateReplicationPeerConfig(peerId, peer);
                }
                if (existing.isPresent() && !existing.get().isEnabled()) {
                    progress.accept("warning: hbase replication peer '" + peerId + "' on " + cluster + " is disabled (left so)");
                }
                progress.accept("hbase replication " + cluster + " -> " + target + " ready (peer '" + peerId + "': "
                        + tableCfs.keySet().stream().map(TableName::getNameAsString).sorted().toList() + ")");
            }
        }
    }

    /** Table-cfs maps equal up to order (a null or empty family list means every family). */
    static boolean sameTableCfs(Map<TableName, List<String>> a, Map<TableName, List<String>> b) {
        if (a == null) return b == null || b.isEmpty();
        if (!a.keySet().equals(b.keySet())) return false;
        for (Map.Entry<TableName, List<String>> e : a.entrySet()) {
            List<String> x = e.getValue() == null ? List.of() : e.getValue();
            List<String> y = b.get(e.getKey()) == null ? List.of() : b.get(e.getKey());
            if (!new java.util.HashSet<>(x).equals(new java.util.HashSet<>(y))) return false;
        }
        return true;
    }

    /** A replicated family of an existing table without {@code REPLICATION_SCOPE 1} gets it. */
    private void replicationScopes(Admin admin, TableDefinition t) throws IOException {
        if (t.replicatedFamilies().isEmpty() || !admin.tableExists(t.name())) return;
        org.apache.hadoop.hbase.client.TableDescriptor d = admin.getDescriptor(t.name());
        for (String family : t.replicatedFamilies()) {
            ColumnFamilyDescriptor cf = d.getColumnFamily(Bytes.toBytes(family));
            if (cf != null && cf.getScope() != 1) {
                admin.modifyColumnFamily(t.name(), ColumnFamilyDescriptorBuilder.newBuilder(cf).setScope(1).build());
                progress.accept("hbase " + t.name() + ": family " + family + " now replicated (REPLICATION_SCOPE 1)");
            }
        }
    }

    /** {@code host1,host2:2181} → {@code host1,host2:2181:/hbase}, the form a replication peer takes. */
    static String clusterKey(String zookeeperQuorum) {
        String[] entries = zookeeperQuorum.split(",");
        String port = entries[0].contains(":") ? entries[0].substring(entries[0].lastIndexOf(':') + 1) : "2181";
        String hosts = String.join(",", Arrays.stream(entries).map(e -> e.replaceAll(":\\d+$", "")).toList());
        return hosts + ":" + port + ":/hbase";
    }

    // ---------------------------------------------------------------- ZooKeeper (application config)

    /**
     * The live MySQL shard map znode: seeded from the configuration when absent, a legacy-form map
     * rewritten as JSON (its ranges kept, addresses from the configuration), an operator's JSON edit
     * kept. An unusable stored map is left alone with a warning (the servers are fine; services
     * watching it refuse to start until it is fixed).
     */
    public void appZnodes() throws Exception {
        try (CuratorFramework zk = CuratorClients.start(config)) {
            if (!zk.blockUntilConnected(20, java.util.concurrent.TimeUnit.SECONDS)) {
                throw new IllegalStateException("application ZooKeeper " + config.appZookeeper() + " does not answer");
            }
            String znode = "zookeeper /" + config.appZookeeperNamespace() + SHARD_MAP_ZNODE;
            try {
                MysqlShardConfig.Provisioned done = MysqlShardConfig.provision(zk, SHARD_MAP_ZNODE, MysqlShardMap.from(config),
                        MysqlShardMap.HostAddresses.from(config));
                progress.accept(znode + " ready (" + switch (done) {
                    case SEEDED -> "seeded from mysql.shards";
                    case UPGRADED -> "legacy text rewritten as JSON";
                    case KEPT -> "kept";
                } + ")");
            } catch (IllegalStateException e) {
                progress.accept("warning: " + e.getMessage());
            }
            // Znodes from before authentication was configured (or made by a client without it) become pinfeed's too.
            Optional<ZooKeeperAuth> auth = ZooKeeperAuth.from(config);
            if (auth.isPresent()) {
                int secured = CuratorClients.secure(zk, auth.get());
                if (secured > 0) progress.accept("zookeeper /" + config.appZookeeperNamespace() + ": " + secured
                        + " znodes now writable by " + auth.get().user() + " only");
            }
        }
    }

    // ---------------------------------------------------------------- MySQL shards

    /**
     * Creates every shard database of the shard map on its host's master with the tables of
     * mysql-shard-schema.sql. A host whose recorded schema hash matches is skipped, so a warm
     * start costs one query per host.
     */
    public void mysqlShards() throws Exception {
        MysqlShardMap shards = MysqlShardMap.from(config);
        String schema = Files.readString(definitions.resolve("mysql-shard-schema.sql"));
        List<String> statements = splitStatements(schema);
        String hash = Sha256.hex(shards.format() + "\n" + schema);
        ExecutorService pool = Executors.newFixedThreadPool(config.mysqlHosts().size());
        try {
            List<Future<?>> work = new ArrayList<>();
            for (PinfeedConfig.ReplicatedHost host : config.mysqlHosts()) {
                work.add(pool.submit(() -> {
                    provisionHost(host, shards.shardsOn(host.name()), statements, hash);
                    return null;
                }));
            }
            for (Future<?> f : work) f.get();
        } finally {
            pool.shutdown();
        }
    }

    /**
     * Shard databases created on this many connections to a host's master at once: a CREATE TABLE mostly waits (the
     * replica's acknowledgement, the DDL log's writes), so several connections overlap those waits: on the local stack (two
     * hosts, each with its replica, on 2 cores) 2 048 shard databases per master in 147 s, ~260 s on one connection.
     */
    static final int CONNECTIONS_PER_HOST = 4;
    /** How long provisioning waits for a host's replica to apply the new shard databases. */
    static final int REPLICA_PATIENCE_SECONDS = 600;
    private static final int BATCH = 128;
    private static final int REPORT_EVERY = 512;

    private void provisionHost(PinfeedConfig.ReplicatedHost host, List<Integer> shards, List<String> statements, String hash)
            throws Exception {
        try (Connection c = connect(host.master()); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE IF NOT EXISTS pinfeed_meta");
            st.execute("CREATE TABLE IF NOT EXISTS pinfeed_meta.shard_schema (host VARCHAR(64) PRIMARY KEY, "
                    + "schema_hash CHAR(64) NOT NULL, shard_count INT NOT NULL, applied_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP)");
            try (PreparedStatement q = c.prepareStatement("SELECT schema_hash FROM pinfeed_meta.shard_schema WHERE host = ?")) {
                q.setString(1, host.name());
                try (ResultSet rs = q.executeQuery()) {
                    if (rs.next() && rs.getString(1).equals(hash)) {
                        progress.accept("mysql " + host.name() + ": " + shards.size() + " shard databases ready");
                        return;
                    }
                }
            }
            createShardDatabases(host, shards, statements);
            try (PreparedStatement u = c.prepareStatement("REPLACE INTO pinfeed_meta.shard_schema (host, schema_hash, shard_count) VALUES (?, ?, ?)")) {
                u.setString(1, host.name());
                u.setString(2, hash);
                u.setInt(3, shards.size());
                u.executeUpdate();
            }
        }
    }

    private Connection connect(HostPort server) throws SQLException {
        return DriverManager.getConnection(config.mysqlJdbcUrl(server), config.mysqlUser(), config.mysqlPassword());
    }

    /**
     * Creates shard databases on {@code host} ({@link #createShardDatabases(Statement, String, List, List, Consumer)} on
     * {@link #CONNECTIONS_PER_HOST} connections, each with every n-th shard), then waits until its replica has them too.
     */
    void createShardDatabases(PinfeedConfig.ReplicatedHost host, List<Integer> shards, List<String> statements) throws Exception {
        createInParallel(host, shards, statements);
        awaitReplica(host);
    }

    private void createInParallel(PinfeedConfig.ReplicatedHost host, List<Integer> shards, List<String> statements) throws Exception {
        int connections = Math.min(CONNECTIONS_PER_HOST, shards.size());
        if (connections == 0) return;
        AtomicInteger done = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int k = 0; k < connections; k++) {
                List<Integer> mine = new ArrayList<>();
                for (int i = k; i < shards.size(); i += connections) mine.add(shards.get(i));
                work.add(pool.submit(() -> {
                    try (Connection c = connect(host.master()); Statement st = c.createStatement()) {
                        createInBatches(st, mine, statements, n -> report(host.name(), done.addAndGet(n), n, shards.size(), progress));
                    }
                    return null;
                }));
            }
            for (Future<?> f : work) f.get();
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Waits until the host's replica has applied everything its master logged so far (the new shard databases): a
     * replica applies DDL one statement at a time, so it may trail a master that ran it on several connections, and
     * a failover to it or a read from it right after provisioning must find the tables.
     */
    private void awaitReplica(PinfeedConfig.ReplicatedHost host) throws SQLException {
        if (host.replicaIfAny().isEmpty()) return;
        String position;
        try (Connection master = connect(host.master()); Statement st = master.createStatement();
             ResultSet rs = st.executeQuery("SELECT @@gtid_binlog_pos")) {
            rs.next();
            position = rs.getString(1);
        }
        progress.accept("mysql " + host.name() + ": waiting for its replica " + host.replica() + " to apply them (at most "
                + REPLICA_PATIENCE_SECONDS + " s)");
        try (Connection replica = connect(host.replica()); PreparedStatement wait = replica.prepareStatement("SELECT MASTER_GTID_WAIT(?, ?)")) {
            wait.setString(1, position);
            wait.setInt(2, REPLICA_PATIENCE_SECONDS);
            try (ResultSet rs = wait.executeQuery()) {
                if (!rs.next() || rs.getInt(1) != 0) {
                    throw new IllegalStateException("mysql " + host.name() + ": its replica " + host.replica() + " has not applied the new shard"
                            + " databases (GTID " + position + ") after " + REPLICA_PATIENCE_SECONDS + " s");
                }
            }
        }
        progress.accept("mysql " + host.name() + ": its replica has them");
    }

    /**
     * Creates shard databases with the tables of mysql-shard-schema.sql ({@code statements}), idempotently,
     * in batches of 128 on one connection, reporting every 512 to {@code progress}.
     */
    public static void createShardDatabases(Statement st, String host, List<Integer> shards, List<String> statements,
                                            Consumer<String> progress) throws SQLException {
        AtomicInteger done = new AtomicInteger();
        createInBatches(st, shards, statements, n -> report(host, done.addAndGet(n), n, shards.size(), progress));
    }

    private static void createInBatches(Statement st, List<Integer> shards, List<String> statements, IntConsumer batchDone)
            throws SQLException {
        int pending = 0;
        for (int shard : shards) {
            String db = MysqlShardMap.databaseName(shard);
            st.addBatch("CREATE DATABASE IF NOT EXISTS " + db);
            for (String s : statements) {
                st.addBatch("USE " + db);
                st.addBatch(s);
            }
            if (++pending == BATCH) {
                st.executeBatch();
                batchDone.accept(pending);
                pending = 0;
            }
        }
        if (pending > 0) {
            st.executeBatch();
            batchDone.accept(pending);
        }
    }

    /** A progress line when {@code done} (just grown by {@code added}) crossed a multiple of 512 or reached {@code total}. */
    private static void report(String host, int done, int added, int total, Consumer<String> progress) {
        if (done / REPORT_EVERY > (done - added) / REPORT_EVERY || done == total) {
            progress.accept("mysql " + host + ": shard databases " + done + "/" + total);
        }
    }

    /** The statements of {@code definitions}/mysql-shard-schema.sql. */
    public static List<String> shardSchema(Path definitions) throws IOException {
        return splitStatements(Files.readString(definitions.resolve("mysql-shard-schema.sql")));
    }

    static List<String> splitStatements(String sql) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : sql.split("\n")) {
            String trimmed = line.trim();
            if (trimmed.startsWith("--") || trimmed.isEmpty()) continue;
            current.append(line).append('\n');
            if (trimmed.endsWith(";")) {
                out.add(current.toString().trim().replaceAll(";$", ""));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) out.add(current.toString().trim());
        return out;
    }
}
