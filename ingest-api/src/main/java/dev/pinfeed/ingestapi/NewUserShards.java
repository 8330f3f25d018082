package dev.pinfeed.ingestapi;

import dev.pinfeed.idallocator.OpenShards;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Where new users go, following the live shard map: the shards it names for new users
 * ({@code ./pinfeed shards open}, {@code shards new-users}), else the configured {@code ids.open-shards}.
 * Converted once per map version, not per request.
 */
final class NewUserShards implements Supplier<OpenShards> {

    private final Supplier<MysqlShardMap> map;
    private final OpenShards configured;
    private volatile MysqlShardMap seen;
    private volatile OpenShards open;

    NewUserShards(Supplier<MysqlShardMap> map, OpenShards configured) {
        this.map = map;
        this.configured = configured;
    }

    @Override
    public OpenShards get() {
        MysqlShardMap now = map.get();
        if (now != seen) {
            open = now.newUsers().isEmpty() ? configured
                    : OpenShards.parse(now.newUsers().stream().map(s -> s.first() + "-" + s.last()).collect(Collectors.joining(",")));
            seen = now;
        }
        return open;
    }
}
