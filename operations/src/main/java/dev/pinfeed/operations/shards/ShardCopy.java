package dev.pinfeed.operations.shards;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.infra.stack.Binaries;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;

/**
 * Copies shard databases from one host to another with MariaDB's own tools: {@code mariadb-dump
 * --single-transaction --master-data=2} (a consistent snapshot and the binlog position it stands at)
 * piped into {@code mariadb} on the target. The password travels in the environment, never on a
 * command line.
 */
final class ShardCopy {

    private final String user;
    private final String password;

    ShardCopy(String user, String password) {
        this.user = user;
        this.password = password;
    }

    /**
     * Copies {@code databases} from {@code source} to {@code target} (tables dropped and created there) and
     * returns the source's binlog position of the snapshot; {@code copied} hears the number of databases done.
     */
    BinlogPosition copy(HostPort source, HostPort target, List<String> databases, IntConsumer copied) throws IOException, InterruptedException {
        List<String> dump = new ArrayList<>(List.of(Binaries.find("mariadb-dump"), "--no-defaults", "--protocol=TCP",
                "--host=" + source.host(), "--port=" + source.port(), "--user=" + user,
                "--single-transaction", "--master-data=2", "--skip-lock-tables", "--quick", "--hex-blob", "--tz-utc", "--databases"));
        dump.addAll(databases);
        List<String> load = List.of(Binaries.find("mariadb"), "--no-defaults", "--protocol=TCP", "--host=" + target.host(),
                "--port=" + target.port(), "--user=" + user, "--batch");
        Process dumper = start(dump);
        Process loader = start(load);
        CompletableFuture<String> dumpErrors = CompletableFuture.supplyAsync(() -> read(dumper));
        CompletableFuture<String> loadErrors = CompletableFuture.supplyAsync(() -> read(loader));
        BinlogPosition position = null;
        int done = 0;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(dumper.getInputStream(), StandardCharsets.UTF_8));
             BufferedWriter out = new BufferedWriter(new OutputStreamWriter(loader.getOutputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (position == null && line.startsWith("-- CHANGE MASTER TO")) position = BinlogPosition.fromDumpLine(line);
                if (line.startsWith("-- Current Database: ")) {
                    if (done > 0) copied.accept(done);
                    done++;
                }
                out.write(line);
                out.write('\n');
            }
        } catch (IOException e) {
            dumper.destroy();
            loader.destroy();
            throw new IOException("copying " + databases.size() + " databases from " + source + " to " + target + " failed: " + e.getMessage()
                    + " " + loadErrors.join().strip(), e);
        }
        int dumpExit = dumper.waitFor();
        int loadExit = loader.waitFor();
        if (dumpExit != 0) throw new IOException("mariadb-dump on " + source + " failed (exit " + dumpExit + "): " + dumpErrors.join().strip());
        if (loadExit != 0) throw new IOException("loading the dump into " + target + " failed (exit " + loadExit + "): " + loadErrors.join().strip());
        if (position == null) throw new IOException("mariadb-dump on " + source + " named no binlog position (is log-bin on?)");
        copied.accept(done);
        return position;
    }

    private Process start(List<String> command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("MYSQL_PWD", password);
        return pb.start();
    }

    private static String read(Process p) {
        try {
            return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return e.getMessage();
        }
    }
}
