package dev.pinfeed.operations.shards;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.infra.stack.Binaries;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Shard databases dumped and loaded with MariaDB's own tools: {@code mariadb-dump --single-transaction
 * --master-data=2 --gtid} (one consistent snapshot, and the binlog position and GTID it stands at) and
 * {@code mariadb}. The password travels in the environment, never on a command line. With
 * {@code mysql.tls} on they connect over TLS ({@code --ssl}); with {@code verify} they also check the
 * server's certificate and name against the system's CAs (these clients read PEM files, not the JDBC
 * trust store).
 */
public final class MariaDbDump {

    /** Where a dump's snapshot stands in its host's binlog: file and offset, and the GTID position (may be empty). */
    public record Snapshot(BinlogPosition binlog, String gtid) {}

    private static final Pattern GTID_LINE = Pattern.compile("gtid_slave_pos='([^']*)'");
    static final String DATABASE_LINE = "-- Current Database: ";

    private final String user;
    private final String password;
    private final PinfeedConfig.MysqlTls tls;

    public MariaDbDump(String user, String password, PinfeedConfig.MysqlTls tls) {
        this.user = user;
        this.password = password;
        this.tls = tls;
    }

    /**
     * Dumps {@code databases} of {@code source} into {@code out} (tables dropped and created on load);
     * {@code dumped} hears the number of databases done. Returns where the snapshot stands.
     */
    public Snapshot dump(HostPort source, List<String> databases, Writer out, IntConsumer dumped) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Binaries.find("mariadb-dump"), "--no-defaults", "--protocol=TCP",
                "--host=" + source.host(), "--port=" + source.port(), "--user=" + user,
                "--single-transaction", "--master-data=2", "--gtid", "--skip-lock-tables", "--quick", "--hex-blob", "--tz-utc",
                // Shard tables have no triggers and no tablespaces: two queries less per table (thousands of tables per host).
                "--skip-triggers", "--no-tablespaces", "--databases"));
        command.addAll(databases);
        Process dumper = start(command);
        CompletableFuture<String> errors = CompletableFuture.supplyAsync(() -> stderr(dumper));
        BinlogPosition position = null;
        String gtid = "";
        int done = 0;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(dumper.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (line.startsWith("-- ")) {
                    if (position == null && line.startsWith("-- CHANGE MASTER TO")) position = BinlogPosition.fromDumpLine(line);
                    Matcher g = GTID_LINE.matcher(line);
                    if (line.startsWith("-- SET GLOBAL gtid_slave_pos") && g.find()) gtid = g.group(1);
                    if (line.startsWith(DATABASE_LINE)) {
                        if (done > 0) dumped.accept(done);
                        done++;
                    }
                }
                out.write(line);
                out.write('\n');
            }
        } catch (IOException e) {
            dumper.destroy();
            throw new IOException("dumping " + databases.size() + " databases of " + source + " failed: " + e.getMessage(), e);
        }
        int exit = dumper.waitFor();
        if (exit != 0) throw new IOException("mariadb-dump on " + source + " failed (exit " + exit + "): " + errors.join().strip());
        if (position == null) throw new IOException("mariadb-dump on " + source + " named no binlog position (is log-bin on?)");
        dumped.accept(done);
        return new Snapshot(position, gtid);
    }

    /** A running {@code mariadb} client on {@code target}: write a dump's lines to it, then {@link Loader#finish}. */
    public Loader loader(HostPort target) throws IOException {
        Process p = start(List.of(Binaries.find("mariadb"), "--no-defaults", "--protocol=TCP", "--host=" + target.host(),
                "--port=" + target.port(), "--user=" + user, "--batch"));
        return new Loader(target, p);
    }

    /** The input of one {@code mariadb} client process. */
    public static final class Loader extends Writer {
        private final HostPort target;
        private final Process process;
        private final BufferedWriter in;
        private final CompletableFuture<String> errors;

        private Loader(HostPort target, Process process) {
            this.target = target;
            this.process = process;
            this.in = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
            this.errors = CompletableFuture.supplyAsync(() -> stderr(process));
        }

        @Override
        public void write(char[] buf, int off, int len) throws IOException {
            try {
                in.write(buf, off, len);
            } catch (IOException e) {
                process.destroy();
                throw new IOException("loading into " + target + " failed: " + e.getMessage() + " " + errors.join().strip(), e);
            }
        }

        @Override
        public void flush() throws IOException {
            in.flush();
        }

        /** Closes the input and waits for the client: {@link IOException} with its error if it failed. */
        public void finish() throws IOException, InterruptedException {
            in.close();
            int exit = process.waitFor();
            if (exit != 0) throw new IOException("loading into " + target + " failed (exit " + exit + "): " + errors.join().strip());
        }

        @Override
        public void close() throws IOException {
            in.close();
            process.destroy();
        }
    }

    private Process start(List<String> command) throws IOException {
        List<String> secured = new ArrayList<>(command);
        // Options go before the positional arguments (the databases).
        switch (tls) {
            case OFF -> {}
            case ON -> secured.add(2, "--ssl");
            case VERIFY -> secured.addAll(2, List.of("--ssl", "--ssl-verify-server-cert"));
        }
        ProcessBuilder pb = new ProcessBuilder(secured);
        pb.environment().put("MYSQL_PWD", password);
        return pb.start();
    }

    private static String stderr(Process p) {
        try {
            return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return e.getMessage();
        }
    }
}
