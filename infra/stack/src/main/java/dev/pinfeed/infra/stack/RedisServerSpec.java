package dev.pinfeed.infra.stack;

import dev.pinfeed.config.HostPort;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** One Redis instance with an append-only file fsynced every second; a replica follows its master. */
final class RedisServerSpec implements ServerSpec {

    private final StackLayout layout;
    private final String name;
    private final HostPort address;
    private final HostPort replicaOf;

    RedisServerSpec(StackLayout layout, String name, HostPort address, HostPort replicaOf) {
        this.layout = layout;
        this.name = name;
        this.address = address;
        this.replicaOf = replicaOf;
    }

    @Override public String name() { return name; }
    @Override public String role() { return replicaOf == null ? "Redis (AOF everysec, hourly RDB)" : "Redis replica of " + replicaOf; }
    @Override public String endpoint() { return address.toString(); }
    @Override public Path logFile() { return layout.logFile(name + ".log"); }

    @Override
    public void writeFiles() {
        layout.dataDir(name);
        layout.logsDir();
    }

    @Override
    public List<String> command() {
        List<String> cmd = new ArrayList<>(List.of(Binaries.find("redis-server"), "--port", String.valueOf(address.port()),
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
        return "+PONG".equals(Probes.redisCommand(address.port(), "PING"));
    }
}
