package dev.pinfeed.console.zookeeper;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.PinfeedConfig.ReplicatedHost;
import dev.pinfeed.console.pipeline.PipelineSnapshot.MysqlShards;
import dev.pinfeed.console.pipeline.PipelineSnapshot.RedisMaster;
import dev.pinfeed.console.pipeline.PipelineSources.ShardMaps;
import dev.pinfeed.mysqlshards.MysqlShardConfig;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redismasters.RedisMasterMap;
import dev.pinfeed.redisshards.RedisShardConfig;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * The live maps as they stand in the application ZooKeeper, read at each sample (three small znodes) rather than
 * watched: the console follows no map, it shows them, and reading never seeds or registers anything. A znode not
 * there yet means the configured map is in force, as for the services.
 */
public final class ZooKeeperMaps implements ShardMaps {

    /** The key {@link RedisShards#open} reads the virtual-shard map's znode from. */
    private static final String REDIS_SHARDS_ZNODE_KEY = "graph.redis.shards.znode";

    private final CuratorFramework zk;
    private final PinfeedConfig config;

    public ZooKeeperMaps(CuratorFramework zk, PinfeedConfig config) {
        this.zk = zk;
        this.config = config;
    }

    @Override
    public List<MysqlShards> mysqlShards() throws Exception {
        MysqlShardMap map = read(MysqlShardConfig.znode(config), text -> MysqlShardMap.parse(text, MysqlShardMap.HostAddresses.from(config)))
                .orElseGet(() -> MysqlShardMap.from(config));
        List<MysqlShards> out = new ArrayList<>();
        for (String host : map.hosts()) {
            List<MysqlShardMap.Range> ranges = map.ranges().stream().filter(r -> r.host().equals(host)).toList();
            ReplicatedHost addresses = map.host(host);
            out.add(new MysqlShards(host, ranges.stream().map(r -> r.first() + "-" + r.last()).collect(Collectors.joining(",")),
                    ranges.stream().mapToInt(r -> r.last() - r.first() + 1).sum(), addresses.master().toString(),
                    addresses.replicaIfAny().map(Object::toString).orElse(null)));
        }
        return out;
    }

    @Override
    public List<RedisMaster> redisMasters() throws Exception {
        List<ReplicatedHost> configured = config.redisInstances();
        RedisMasterMap masters = read(RedisMasterConfig.znode(config), text -> RedisMasterMap.parse(text).checkedAgainst(configured))
                .orElseGet(() -> RedisMasterMap.configured(configured));
        RedisShardMap shards = read(config.get(REDIS_SHARDS_ZNODE_KEY, RedisShardConfig.ZNODE), RedisShardMap::parse)
                .orElseGet(() -> RedisShards.defaultShardMap(config));
        Map<String, ReplicatedHost> pairs = configured.stream().collect(Collectors.toMap(ReplicatedHost::name, h -> h));
        List<RedisMaster> out = new ArrayList<>();
        for (String instance : masters.instances()) {
            HostPort master = masters.masterOf(instance);
            ReplicatedHost pair = pairs.get(instance);
            String other = pair.replica() == null ? null : RedisMasterMap.standbyOf(pair, master).toString();
            String virtual = shards.ranges().stream().filter(r -> r.instance().equals(instance)).map(r -> r.first() + "-" + r.last())
                    .collect(Collectors.joining(","));
            out.add(new RedisMaster(instance, master.toString(), other, virtual.isEmpty() ? null : virtual));
        }
        return out;
    }

    /** The znode's content parsed, or empty when there is no such znode. */
    private <T> Optional<T> read(String path, Function<String, T> parse) throws Exception {
        try {
            return Optional.of(parse.apply(new String(zk.getData().forPath(path), StandardCharsets.UTF_8)));
        } catch (KeeperException.NoNodeException absent) {
            return Optional.empty();
        }
    }
}
