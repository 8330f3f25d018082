package dev.pinfeed.console;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.console.hbase.HBaseAdminView;
import dev.pinfeed.console.http.HttpAdminEndpoints;
import dev.pinfeed.console.http.SchemaRegistryProbe;
import dev.pinfeed.console.kafka.DeadLetterCounter;
import dev.pinfeed.console.kafka.KafkaAdminView;
import dev.pinfeed.console.mysql.JdbcHostProbe;
import dev.pinfeed.console.pipeline.PipelineMonitor;
import dev.pinfeed.console.pipeline.PipelineSettings;
import dev.pinfeed.console.pipeline.PipelineSources;
import dev.pinfeed.console.pipeline.SampledPipelineMonitor;
import dev.pinfeed.console.redis.RedisPingProbe;
import dev.pinfeed.console.zookeeper.ZooKeeperMaps;
import dev.pinfeed.console.zookeeper.ZooKeeperProbe;
import dev.pinfeed.processorruntime.ProcessContext;
import java.time.Clock;
import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;

/** Wires the pipeline monitor of the console process over its stores (composition root). */
final class PipelineMonitors {

    private PipelineMonitors() {}

    static PipelineMonitor start(ProcessContext ctx) throws InterruptedException {
        return start(ctx.config(), ctx.curator(), ctx.clock());
    }

    /** The monitor over {@code config}'s stores, sampling in the background; {@code zk} stays the caller's. */
    static SampledPipelineMonitor start(PinfeedConfig config, CuratorFramework zk, Clock clock) {
        PipelineSettings settings = PipelineSettings.from(config);
        Duration timeout = settings.probeTimeout();
        // Settings first (they may refuse the configuration), then the clients that hold connections.
        HttpAdminEndpoints admin = new HttpAdminEndpoints(timeout);
        SchemaRegistryProbe registry = new SchemaRegistryProbe(config, timeout);
        JdbcHostProbe mysql = new JdbcHostProbe(config, timeout);
        RedisPingProbe redis = new RedisPingProbe(config, timeout);
        HBaseAdminView hbase = new HBaseAdminView(config);
        KafkaAdminView kafka = new KafkaAdminView(config);
        DeadLetterCounter deadLetters;
        try {
            // Reads at most two thirds of a probe's deadline per sample, leaving room for the end-offset lookup.
            deadLetters = new DeadLetterCounter(config, clock, timeout.multipliedBy(2).dividedBy(3));
        } catch (RuntimeException e) {
            kafka.close();
            throw e;
        }
        PipelineSources sources = new PipelineSources(admin, kafka, deadLetters, registry, new ZooKeeperProbe(zk), hbase,
                new ZooKeeperMaps(zk, config), mysql, redis);
        return new SampledPipelineMonitor(settings, sources, clock).start();
    }
}
