package dev.pinfeed.console.redis;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.console.pipeline.PipelineSources.AddressProbe;
import dev.pinfeed.redismasters.RedisClientSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import redis.clients.jedis.Jedis;

/**
 * A Redis server: PING on a fresh connection with the deployment's credentials and TLS ({@link RedisClientSettings}),
 * then ROLE, so a master map that points at a replica shows it.
 */
public final class RedisPingProbe implements AddressProbe {

    private final RedisClientSettings settings;
    private final Duration timeout;

    public RedisPingProbe(PinfeedConfig config, Duration timeout) {
        this.settings = RedisClientSettings.from(config);
        this.timeout = timeout;
    }

    @Override
    public String check(String address) {
        try (Jedis redis = settings.plainConnection(HostPort.parse(address), timeout, timeout)) {
            redis.ping();
            List<Object> role = redis.role();
            String name = role.isEmpty() ? "unknown" : role.get(0) instanceof byte[] raw ? new String(raw, StandardCharsets.UTF_8) : String.valueOf(role.get(0));
            if (name.equals("master") && role.size() > 2 && role.get(2) instanceof List<?> replicas) {
                return "master, " + replicas.size() + (replicas.size() == 1 ? " replica" : " replicas");
            }
            return name;
        }
    }
}
