package dev.pinfeed.infra.stack;

import dev.pinfeed.config.HostPort;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One Redis instance with an append-only file fsynced every second; a replica follows its master. With a password
 * (the local stack's {@code redis.password}) it requires it ({@code requirepass}) and replicates with it
 * ({@code masterauth}), both from a private config file so the password is never on a command line.
 */
final class RedisServerSpec implements ServerSpec {

    private final StackLayout layout;
    private final String name;
    private final HostPort address;
    private final HostPort replicaOf;
    /** Null: open to anyone (a spare server of a test). */
    private final String password;

    RedisServerSpec(StackLayout layout, String name, HostPort address, HostPort replicaOf, String password) {
        this.layout = layout;
        this.name = name;
        this.address = address;
        this.replicaOf = replicaOf;
        this.password = password;
    }

    private Path authFile() {
        return layout.home().resolve("run").resolve(name + "-auth.conf");
    }

    @Override public String name() { return name; }
    @Override public String role() { return replicaOf == null ? "Redis (AOF everysec, hourly RDB)" : "Redis replica of " + replicaOf; }
    @Override public String endpoint() { return address.toString(); }
    @Override public Path logFile() { return layout.logFile(name + ".log"); }

    @Override
    public void writeFiles() {
        layout.dataDir(name);
        layout.logsDir();
        if (password != null) {
            String quoted = "\"" + password.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
            AtomicFiles.writePrivate(authFile(), "requirepass " + quoted + "\nmasterauth " + quoted + "\n");
        }
    }

    @Override
    public List<String> command() {
        List<String> cmd = new ArrayList<>(List.of(Binaries.find("redis-server")));
        if (password != null) cmd.add(authFile().toString()); // a config file must come first
        cmd.addAll(List.of("--port", String.valueOf(address.port()),
                "--bind", address.host(), "--dir", layout.dataPath(name).toString(), "--daemonize", "no",
                "--appendonly", "yes", "--appendfsync", "everysec",
                // Seed 004: a BGSAVE every hour (when anything changed) on a master, the RDB a backup can copy; replicas none.
                "--save", replicaOf == null ? "3600 1" : "",
                "--repl-diskless-sync-delay", "0", "--logfile", logFile().toString()));
        if (replicaOf != null) {
            cmd.addAll(List.of("--replicaof", replicaOf.host(), String.valueOf(replicaOf.port())));
        }
        return cmd;
    }

    @Override
    public boolean healthy() {
        return "+PONG".equals(Probes.redisCommand(address.port(), password, "PING"));
    }
}
