package dev.pinfeed.operations.backup;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.clikit.Progress;
import dev.pinfeed.clikit.StepLines;
import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.feedstore.hbase.HBaseClusters;
import dev.pinfeed.idallocator.OpenShards;
import dev.pinfeed.mysqlshards.MysqlShardConfig;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.operations.OperationsCli;
import dev.pinfeed.operations.replay.KafkaGroups;
import dev.pinfeed.processorruntime.KafkaClients;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redismasters.RedisClientSettings;
import dev.pinfeed.redismasters.RedisMasterMap;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code ./pinfeed backup create|list|restore}: backups of every store, with the Kafka offsets to replay from. */
@Command(name = "backup", mixinStandardHelpOptions = true,
        description = {"Backups of the MySQL shards, the Redis instances and the HBase feed tables, each with the consumer groups'",
                "offsets at that moment, and restores followed by a replay (docs/operations.md, Backups and restore)."},
        subcommands = {BackupCommand.Create.class, BackupCommand.ListBackups.class, BackupCommand.Restore.class})
public final class BackupCommand implements Callable<Integer> {

    static final List<String> STORES = List.of("mysql", "redis", "hbase");
    /** Ids leased after a backup are in no dump: a restored sequence skips this many (at 1 000 per lease, 16 k leases). */
    static final long DEFAULT_ID_GAP = 1L << 24;

    @ParentCommand OperationsCli root;
    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        throw Cli.usage(spec, "say what to do: " + String.join(", ", spec.subcommands().keySet()));
    }

    static List<String> stores(CommandSpec spec, List<String> asked) {
        if (asked == null || asked.isEmpty()) return STORES;
        for (String s : asked) if (!STORES.contains(s)) throw Cli.usage(spec, "--stores takes " + String.join(", ", STORES) + ", not '" + s + "'");
        return asked;
    }

    /** {@code 90s}, {@code 30m}, {@code 1h}. */
    static Duration period(CommandSpec spec, String text) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)([smh])").matcher(text.trim());
        if (!m.matches()) throw Cli.usage(spec, "--every takes a number and s, m or h (e.g. 1h, 30m), not '" + text + "'");
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }

    static OpenShards shards(CommandSpec spec, String text) {
        if (text == null) return null;
        try {
            return OpenShards.parse(text);
        } catch (IllegalArgumentException e) {
            throw Cli.usage(spec, "--mysql-shards takes FIRST-LAST[,FIRST-LAST...], e.g. 0-63: " + e.getMessage());
        }
    }

    static List<String> hbaseTables(PinfeedConfig config, List<String> asked) {
        if (asked != null && !asked.isEmpty()) return asked;
        return config.list("backup.hbase.tables").isEmpty()
                ? List.of(HBaseClusters.POOLS.getNameAsString(), HBaseClusters.MATERIALIZED_FEED.getNameAsString())
                : config.list("backup.hbase.tables");
    }

    private static MysqlShardMap shardMap(CuratorFramework zk, PinfeedConfig config) throws Exception {
        return MysqlShardConfig.current(zk, config);
    }

    private static RedisMasterMap redisMasters(CuratorFramework zk, PinfeedConfig config) throws Exception {
        return RedisMasterConfig.read(zk, RedisMasterConfig.znode(config), config.redisInstances());
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Backs up the stores into a new directory of the backup directory.")
    static final class Create implements Callable<Integer> {
        @ParentCommand BackupCommand backup;
        @Spec CommandSpec spec;

        @Option(names = "--dir", paramLabel = "DIR", description = "the backup directory (default backup.dir, else .pinfeed/backups)") String dir;
        @Option(names = "--stores", split = ",", paramLabel = "STORE", description = "mysql, redis, hbase (default all)") List<String> stores;
        @Option(names = "--mysql-shards", paramLabel = "FIRST-LAST[,...]", description = "only these shard databases") String mysqlShards;
        @Option(names = "--hbase-tables", split = ",", paramLabel = "TABLE", description = "tables to snapshot (default the feed tables)")
        List<String> hbaseTables;
        @Option(names = "--every", paramLabel = "DURATION", description = "keep running, one backup per period (e.g. 1h, 30m)") String everyText;
        @Option(names = "--keep", paramLabel = "N", description = "with --every: delete all but the newest N backups") Integer keep;
        @Option(names = "--admin", paramLabel = "HOST:PORT",
                description = "with --every: where health and metrics are served (default backup.admin.http, else 127.0.0.1:8095)") String admin;

        @Override
        public Integer call() throws Exception {
            List<String> which = stores(spec, stores);
            OpenShards only = shards(spec, mysqlShards);
            Duration every = everyText == null ? null : period(spec, everyText);
            if (keep != null && (every == null || keep < 1)) throw Cli.usage(spec, "--keep N (N >= 1) goes with --every");
            if (every != null && every.compareTo(Duration.ofMinutes(1)) < 0) throw Cli.usage(spec, "--every must be at least 1m");
            if (admin != null && every == null) throw Cli.usage(spec, "--admin goes with --every");
            HostPort adminAddress = null;
            if (admin != null) {
                try {
                    adminAddress = HostPort.parse(admin);
                } catch (IllegalArgumentException e) {
                    throw Cli.usage(spec, "--admin takes HOST:PORT, not '" + admin + "'");
                }
            }
            PinfeedConfig config = backup.root.config();
            PrintWriter out = spec.commandLine().getOut();
            BackupDirectory directory = BackupDirectory.of(config, dir);
            Callable<Long> once = () -> {
                BackupManifest m = createOne(config, directory, which, only, hbaseTables(config, hbaseTables), out);
                out.printf(Locale.ROOT, "backup %s: %s in %s, %.1f s%n", m.id(), MysqlBackup.megabytes(m.bytes()), directory.root().resolve(m.id()),
                        Duration.between(m.startedAt(), m.finishedAt()).toMillis() / 1000.0);
                out.flush();
                if (keep != null) prune(config, directory, keep, out);
                return m.bytes();
            };
            if (every == null) {
                once.call();
                return Cli.OK;
            }
            if (adminAddress == null) adminAddress = config.find("backup.admin.http").map(HostPort::parse).orElse(ScheduledBackups.DEFAULT_ADMIN);
            try (ScheduledBackups schedule = new ScheduledBackups(adminAddress.host(), adminAddress.port(), Clock.systemUTC(), out)) {
                while (true) {
                    schedule.run(once);
                    Thread.sleep(every.toMillis());
                }
            }
        }

        private static BackupManifest createOne(PinfeedConfig config, BackupDirectory directory, List<String> which, OpenShards only,
                                                List<String> tables, PrintWriter out) throws Exception {
            Instant started = Clock.systemUTC().instant();
            String id = BackupDirectory.idAt(started);
            Path partial = directory.begin(id);
            StepLines lines = new StepLines(out, Progress.mode(false), "[pinfeed] ");
            try (lines; CuratorFramework zk = CuratorClients.start(config);
                 KafkaGroups kafka = new KafkaGroups(Admin.create(KafkaClients.admin(config)))) {
                // First the offsets: every store's copy is at least this new, so replaying from here misses nothing.
                Map<String, Map<String, Long>> offsets = new TreeMap<>();
                for (String group : kafka.groups()) {
                    Map<String, Long> byPartition = new TreeMap<>();
                    kafka.committed(group).forEach((tp, o) -> byPartition.put(tp.toString(), o));
                    if (!byPartition.isEmpty()) offsets.put(group, byPartition);
                }
                lines.step("kafka: committed offsets of " + offsets.size() + " consumer groups recorded");
                List<BackupManifest.MysqlDump> mysql = which.contains("mysql")
                        ? new MysqlBackup(config, lines::step, lines::waiting).create(shardMap(zk, config), only, partial) : List.of();
                List<BackupManifest.RedisSnapshot> redis = which.contains("redis")
                        ? new RedisBackup(RedisClientSettings.from(config), lines::step, lines::waiting).create(redisMasters(zk, config), partial) : List.of();
                List<BackupManifest.HBaseSnapshot> hbase = which.contains("hbase")
                        ? HBaseBackup.of(config, lines::step).create(tables, id, partial) : List.of();
                BackupManifest m = new BackupManifest(id, started, Clock.systemUTC().instant(), mysql, redis, hbase, offsets);
                m.write(partial);
                directory.commit(partial, id);
                return m;
            } catch (Exception | Error e) {
                BackupDirectory.deleteTree(partial);
                throw e;
            }
        }

        private static void prune(PinfeedConfig config, BackupDirectory directory, int keep, PrintWriter out) throws Exception {
            List<BackupManifest> all = directory.list();
            for (int i = 0; i < all.size() - keep; i++) {
                BackupManifest old = all.get(i);
                if (!old.hbase().isEmpty()) HBaseBackup.of(config, line -> {}).delete(old.hbase());
                directory.delete(old.id());
                out.println("[pinfeed] deleted backup " + old.id() + " (keeping the newest " + keep + ")");
            }
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The backups of the backup directory, oldest first.")
    static final class ListBackups implements Callable<Integer> {
        @ParentCommand BackupCommand backup;
        @Spec CommandSpec spec;

        @Option(names = "--dir", paramLabel = "DIR", description = "the backup directory") String dir;

        @Override
        public Integer call() throws Exception {
            BackupDirectory directory = BackupDirectory.of(backup.root.config(), dir);
            PrintWriter out = spec.commandLine().getOut();
            List<BackupManifest> all = directory.list();
            if (all.isEmpty()) {
                out.println("no backups in " + directory.root());
                return Cli.OK;
            }
            out.printf(Locale.ROOT, "%-17s %-21s %8s %10s  %s%n", "ID", "STARTED", "SECONDS", "SIZE", "CONTENTS");
            for (BackupManifest m : all) {
                List<String> contents = new ArrayList<>();
                m.mysql().forEach(d -> contents.add(d.host() + " (shards " + d.shards() + ")"));
                m.redis().forEach(r -> contents.add(r.instance()));
                m.hbase().forEach(h -> contents.add(h.table()));
                out.printf(Locale.ROOT, "%-17s %-21s %8.1f %10s  %s%n", m.id(), m.startedAt().truncatedTo(java.time.temporal.ChronoUnit.SECONDS),
                        Duration.between(m.startedAt(), m.finishedAt()).toMillis() / 1000.0, MysqlBackup.megabytes(m.bytes()), String.join(", ", contents));
            }
            out.println("in " + directory.root());
            return Cli.OK;
        }
    }

    @Command(name = "restore", mixinStandardHelpOptions = true,
            description = {"Puts a store back to a backup, then says (or with --replay runs) the replay that brings it up to now."})
    static final class Restore implements Callable<Integer> {
        @ParentCommand BackupCommand backup;
        @Spec CommandSpec spec;

        @Parameters(paramLabel = "ID", description = "a backup of ./pinfeed backup list") String id;
        @Option(names = "--store", required = true, paramLabel = "STORE", description = "mysql, redis or hbase") String store;
        @Option(names = "--dir", paramLabel = "DIR", description = "the backup directory") String dir;
        @Option(names = "--mysql-shards", paramLabel = "FIRST-LAST[,...]", description = "mysql: only these shards (default all in the backup)")
        String mysqlShards;
        @Option(names = "--id-gap", paramLabel = "N", description = "mysql: local ids every restored sequence skips (default 16777216)")
        Long idGap;
        @Option(names = "--redis-instances", split = ",", paramLabel = "INSTANCE", description = "redis: only these instances") List<String> instances;
        @Option(names = "--redis-keys", paramLabel = "PATTERN", description = "redis: only keys matching this pattern (default *)") String pattern;
        @Option(names = "--hbase-tables", split = ",", paramLabel = "TABLE", description = "hbase: only these tables") List<String> tables;
        @Option(names = "--replay", description = "then replay the store's views from the backup's start (and verify)") boolean replay;

        @Override
        public Integer call() throws Exception {
            if (!STORES.contains(store)) throw Cli.usage(spec, "--store takes " + String.join(", ", STORES) + ", not '" + store + "'");
            OpenShards only = shards(spec, mysqlShards);
            long gap = idGap == null ? DEFAULT_ID_GAP : idGap;
            if (gap < 0) throw Cli.usage(spec, "--id-gap must be >= 0");
            PinfeedConfig config = backup.root.config();
            PrintWriter out = spec.commandLine().getOut();
            BackupDirectory directory = BackupDirectory.of(config, dir);
            Path dirOfBackup = directory.dir(id);
            BackupManifest m = BackupManifest.read(dirOfBackup);
            StepLines lines = new StepLines(out, Progress.mode(false), "[pinfeed] ");
            List<String> views;
            try (lines; CuratorFramework zk = CuratorClients.start(config)) {
                switch (store) {
                    case "mysql" -> {
                        if (m.mysql().isEmpty()) throw new IllegalArgumentException("backup " + id + " holds no MySQL dump");
                        new MysqlBackup(config, lines::step, lines::waiting).restore(m, dirOfBackup, shardMap(zk, config), only, gap);
                        views = List.of("canonical");
                    }
                    case "redis" -> {
                        if (m.redis().isEmpty()) throw new IllegalArgumentException("backup " + id + " holds no Redis snapshot");
                        RedisMasterMap masters = redisMasters(zk, config);
                        RedisBackup redis = new RedisBackup(RedisClientSettings.from(config), lines::step, lines::waiting);
                        for (BackupManifest.RedisSnapshot s : m.redis()) {
                            if (instances != null && !instances.contains(s.instance())) continue;
                            HostPort master = masters.masterOf(s.instance());
                            redis.restore(s, dirOfBackup, master, pattern == null ? "*" : pattern);
                        }
                        views = List.of("graph");
                    }
                    default -> {
                        if (m.hbase().isEmpty()) throw new IllegalArgumentException("backup " + id + " holds no HBase snapshot");
                        HBaseBackup hbase = HBaseBackup.of(config, lines::step);
                        for (BackupManifest.HBaseSnapshot s : m.hbase()) {
                            if (tables == null || tables.contains(s.table())) hbase.restore(s, dirOfBackup);
                        }
                        views = List.of("pools");
                    }
                }
            }
            String from = m.startedAt().minus(REPLAY_MARGIN).truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
            out.printf(Locale.ROOT, "restored %s from backup %s (taken %s)%n", store, id, m.startedAt().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
            if (!replay) {
                for (String view : views) out.println("bring it up to now: ./pinfeed replay " + view + " --from " + from + "   (then it verifies)");
                return Cli.OK;
            }
            int worst = Cli.OK;
            for (String view : views) worst = Math.max(worst, backup.root.runNested("replay", view, "--from", from));
            return worst;
        }
    }

    /**
     * A replay from the backup's start minus this: a record published just before the backup but applied by
     * its processor only after the snapshot is in no copy. Replays are idempotent, so starting earlier only costs time.
     */
    static final Duration REPLAY_MARGIN = Duration.ofMinutes(10);
}
