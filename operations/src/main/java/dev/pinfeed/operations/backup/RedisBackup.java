package dev.pinfeed.operations.backup;

import dev.pinfeed.canonicalstore.CanonicalCacheKeys;
import dev.pinfeed.config.HostPort;
import dev.pinfeed.infra.stack.Binaries;
import dev.pinfeed.redismasters.RedisClientSettings;
import dev.pinfeed.redismasters.RedisMasterMap;
import java.io.IOException;
import java.time.Duration;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.params.RestoreParams;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The Redis part of a backup (seed 004: "BGSave and copy hourly backups"): an RDB snapshot of each
 * instance's master, fetched over the replication protocol ({@code redis-cli --rdb}), so it works for a
 * remote server and needs no access to its data directory. A restore opens the RDB in a scratch
 * {@code redis-server} of its own and writes its keys back into the live master ({@code DUMP} /
 * {@code RESTORE REPLACE}, TTLs kept), optionally only the keys matching a pattern: the instance stays up.
 */
final class RedisBackup {

    private static final int BATCH = 500;

    private final RedisClientSettings clientSettings;
    private final Consumer<String> step;
    private final Consumer<String> waiting;

    /** {@code clientSettings}: how to reach the instances' masters (the scratch server of a restore is plain). */
    RedisBackup(RedisClientSettings clientSettings, Consumer<String> step, Consumer<String> waiting) {
        this.clientSettings = clientSettings;
        this.step = step;
        this.waiting = waiting;
    }

    List<BackupManifest.RedisSnapshot> create(RedisMasterMap masters, Path backup) throws IOException, InterruptedException {
        List<BackupManifest.RedisSnapshot> out = new ArrayList<>();
        Files.createDirectories(backup.resolve("redis"));
        for (String instance : masters.instances()) {
            HostPort master = masters.masterOf(instance);
            String file = "redis/" + instance + ".rdb";
            long started = System.nanoTime();
            ProcessBuilder cli = new ProcessBuilder();
            List<String> command = new ArrayList<>(List.of(Binaries.find("redis-cli"), "-h", master.host(), "-p", Integer.toString(master.port())));
            command.addAll(clientSettings.redisCliArguments(cli.environment()));
            command.addAll(List.of("--rdb", backup.resolve(file).toString()));
            run(cli.command(command), "redis-cli --rdb on " + instance + " (" + master + ")");
            long bytes = Files.size(backup.resolve(file));
            step.accept(String.format(Locale.ROOT, "redis %s: RDB snapshot of %s in %.1f s (%s)", instance, master,
                    (System.nanoTime() - started) / 1e9, MysqlBackup.megabytes(bytes)));
            out.add(new BackupManifest.RedisSnapshot(instance, master.toString(), file, bytes));
        }
        return out;
    }

    /**
     * Writes the keys of {@code snapshot} matching {@code pattern} into {@code master}, except the canonical
     * store's caches ({@link CanonicalCacheKeys#isCacheKey}: stale after a restore, they refill on read);
     * returns how many.
     */
    long restore(BackupManifest.RedisSnapshot snapshot, Path backup, HostPort master, String pattern) throws IOException, InterruptedException {
        Path scratch = Files.createTempDirectory("pinfeed-redis-restore");
        Files.copy(backup.resolve(snapshot.file()), scratch.resolve("dump.rdb"), StandardCopyOption.REPLACE_EXISTING);
        int port = freePort();
        Process server = new ProcessBuilder(Binaries.find("redis-server"), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--dir", scratch.toString(), "--dbfilename", "dump.rdb", "--appendonly", "no", "--save", "", "--daemonize", "no")
                .redirectErrorStream(true).redirectOutput(scratch.resolve("redis.log").toFile()).start();
        long restored = 0;
        long skipped = 0;
        try (Jedis from = awaitUp(new HostPort("127.0.0.1", port), server, scratch); Jedis to = connect(clientSettings, master)) {
            long keys = from.dbSize();
            byte[] cursor = ScanParams.SCAN_POINTER_START_BINARY;
            ScanParams match = new ScanParams().match(pattern).count(BATCH);
            do {
                ScanResult<byte[]> page = from.scan(cursor, match);
                cursor = page.getCursorAsBytes();
                List<byte[]> batch = page.getResult();
                if (batch.isEmpty()) continue;
                Pipeline read = from.pipelined();
                List<Response<byte[]>> dumps = new ArrayList<>();
                List<Response<Long>> ttls = new ArrayList<>();
                for (byte[] key : batch) {
                    dumps.add(read.dump(key));
                    ttls.add(read.pttl(key));
                }
                read.sync();
                Pipeline write = to.pipelined();
                for (int i = 0; i < batch.size(); i++) {
                    byte[] value = dumps.get(i).get();
                    if (value == null) continue; // expired meanwhile
                    if (CanonicalCacheKeys.isCacheKey(new String(batch.get(i), StandardCharsets.UTF_8))) {
                        skipped++;
                        continue;
                    }
                    long ttl = ttls.get(i).get();
                    write.restore(batch.get(i), Math.max(ttl, 0), value, RestoreParams.restoreParams().replace());
                    restored++;
                }
                write.sync();
                waiting.accept("redis " + snapshot.instance() + ": " + restored + " keys restored (" + keys + " in the snapshot)");
            } while (!java.util.Arrays.equals(cursor, ScanParams.SCAN_POINTER_START_BINARY));
        } finally {
            server.destroy();
            server.waitFor();
            BackupDirectory.deleteTree(scratch);
        }
        step.accept("redis " + snapshot.instance() + ": " + restored + " keys matching '" + pattern + "' restored into " + master + " ("
                + skipped + " canonical cache keys left out: they refill from MySQL)");
        return restored;
    }

    private static Jedis awaitUp(HostPort address, Process server, Path scratch) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            if (!server.isAlive()) {
                throw new IOException("the scratch redis-server could not open the snapshot: "
                        + Files.readString(scratch.resolve("redis.log"), StandardCharsets.UTF_8).strip());
            }
            Jedis j = null;
            try {
                j = connect(RedisClientSettings.none(), address); // connects at once: the scratch server pinfeed started, no auth
                j.ping();
                if (!j.info("persistence").contains("loading:1")) return j;
            } catch (RuntimeException notYet) {
                // still starting or loading
            }
            if (j != null) j.close();
            if (System.nanoTime() > deadline) throw new IOException("the scratch redis-server did not load the snapshot within 60 s");
            Thread.sleep(50);
        }
    }

    private static Jedis connect(RedisClientSettings settings, HostPort address) {
        return settings.plainConnection(address, Duration.ofSeconds(10), Duration.ofSeconds(10));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void run(ProcessBuilder command, String what) throws IOException, InterruptedException {
        Process p = command.redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) throw new IOException(what + " failed: " + output.strip());
    }
}
