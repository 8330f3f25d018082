package dev.pinfeed.materializer;

import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalWriter;
import dev.pinfeed.canonicalstore.redis.RedisCacheInvalidator;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.mysqlshards.MysqlShardConfig;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.processorruntime.ConsumerLoop;
import dev.pinfeed.processorruntime.ProcessContext;
import dev.pinfeed.processorruntime.ProcessorGroups;
import dev.pinfeed.processorruntime.ProcessMain;
import dev.pinfeed.redisshards.RedisShards;
import java.time.Duration;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;

/**
 * The materializer as a process: {@code java -cp materializer/target/classes:$(cat materializer/target/classpath.txt)
 * dev.pinfeed.materializer.MaterializerMain}. Consumes the users, boards, pins, likes and comments topics
 * ({@code materializer.topic.users|boards|pins|likes|comments|interests}; group {@code materializer.group}, default
 * {@value #GROUP}) into the canonical tables of the MySQL shards (live shard map from ZooKeeper) and
 * invalidates the canonical caches on the graph's Redis instances. Admin endpoint at
 * {@code materializer.admin.http}: ready = in its Kafka group, every MySQL master and Redis instance answers.
 */
public final class MaterializerMain {

    public static final String NAME = "materializer";
    public static final String GROUP = ProcessorGroups.MATERIALIZER;

    private MaterializerMain() {}

    public static void main(String[] args) {
        ProcessMain.run(NAME, MaterializerMain::start);
    }

    /**
     * What the materializer opens and runs, in the context it is given: the live process's ({@link #main}), or a
     * bounded one that applies a range of its topics ({@code ./pinfeed replay ... --to}, {@link ProcessContext#bounded}).
     */
    public static void start(ProcessContext ctx) throws Exception {
        PinfeedConfig config = ctx.config();
        ctx.step("serving the admin endpoint", ctx::serveAdmin);
        CuratorFramework zk = ctx.step("connecting to ZooKeeper " + config.appZookeeper(), ctx::curator);
        MysqlShardConfig shardMap = ctx.closeOnExit(ctx.step("reading the MySQL shard map", () -> MysqlShardConfig.watch(zk, config)));
        ShardDataSources sources = ctx.closeOnExit(ShardDataSources.from(config, shardMap, NAME,
                config.getInt("materializer.mysql.pool-size", 4), Map.of()));
        ShardedDb db = ctx.closeOnExit(new ShardedDb(sources));
        MysqlCanonicalWriter writer = ctx.closeOnExit(new MysqlCanonicalWriter(db));
        RedisShards redis = ctx.closeOnExit(ctx.step("reading the Redis shard and master maps", () -> RedisShards.open(config, zk)));
        RedisCacheInvalidator cache = ctx.closeOnExit(RedisCacheInvalidator.connect(redis.masters(), redis.shards()));

        // Asked at each probe, so a shard move or failover is followed.
        for (String host : shardMap.current().hosts()) {
            ctx.readiness("mysql " + host, () -> writer.ping(shardMap.current().shardsOn(host).get(0)));
        }
        for (String instance : cache.instances()) ctx.readiness("redis " + instance, () -> cache.ping(instance));

        MaterializerTopics topics = MaterializerTopics.from(config);
        ConsumerLoop.Settings settings = ConsumerLoop.Settings.of(NAME, group(config), topics.all())
                .withWaitGrace(Duration.ofSeconds(config.getInt("materializer.wait-grace-seconds", 60)));
        ctx.consume(settings, new MaterializerHandler(new EventPlanner(), writer, cache, topics, ctx.meters()));
    }

    /** The materializer's consumer group: {@code materializer.group}, else {@value #GROUP}. */
    public static String group(PinfeedConfig config) {
        return ProcessorGroups.materializer(config);
    }
}
