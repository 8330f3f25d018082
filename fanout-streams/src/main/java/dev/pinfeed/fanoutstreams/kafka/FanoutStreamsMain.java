package dev.pinfeed.fanoutstreams.kafka;

import dev.pinfeed.fanoutstreams.FanoutSettings;
import dev.pinfeed.fanoutstreams.related.RelatedSettings;
import dev.pinfeed.feedstore.CelebrityPins;
import dev.pinfeed.feedstore.InterestPins;
import dev.pinfeed.feedstore.redis.RedisCelebrityPins;
import dev.pinfeed.feedstore.redis.RedisInterestPins;
import dev.pinfeed.feedstore.redis.RedisLastReadStore;
import dev.pinfeed.followergraph.redis.GraphConnections;
import dev.pinfeed.processorruntime.KafkaClients;
import dev.pinfeed.processorruntime.ProcessMain;
import dev.pinfeed.redisshards.RedisShards;
import org.apache.curator.framework.CuratorFramework;

/**
 * The fan-out as a process: {@code java -cp fanout-streams/target/classes:$(cat fanout-streams/target/classpath.txt)
 * dev.pinfeed.fanoutstreams.FanoutStreamsMain}. Reads {@code fanout.input-topic} (pins), writes
 * FanoutChunks to {@code fanout.output-topic} (pinfeed.fanout.v1) as Kafka Streams application
 * {@code fanout.application-id} (pinfeed-fanout), state under {@code fanout.state-dir}. Admin endpoint
 * at {@code fanout-streams.admin.http}: liveness (the Streams client is not in ERROR, no dead thread),
 * readiness (RUNNING, every graph Redis instance answers, no store outage seen by a fan-out step
 * lately), /metrics (Kafka Streams' own, consumer lag included, and the fanout_* meters).
 *
 * <p>Beside it, unless {@code related.enabled} is false, the related-pins application ({@link RelatedStreamsApp},
 * Kafka Streams application {@code related.application-id}, pinfeed-related): its own client and stores, in the same
 * process so that no deployment needs another app; its probes are the endpoint's {@code related-streams} checks and
 * its meters ({@code related_*}, its Streams client's) are on the same /metrics.
 */
public final class FanoutStreamsMain {

    public static final String NAME = "fanout-streams";

    private FanoutStreamsMain() {}

    public static void main(String[] args) {
        ProcessMain.run(NAME, ctx -> {
            FanoutSettings settings = ctx.step("reading the fanout.* settings", () -> FanoutSettings.from(ctx.config()));
            ctx.step("serving the admin endpoint", ctx::serveAdmin);
            CuratorFramework zk = ctx.step("connecting to ZooKeeper " + ctx.config().appZookeeper(), ctx::curator);
            GraphConnections graph = ctx.closeOnExit(ctx.step("opening the follower graph in Redis",
                    () -> GraphConnections.open(ctx.config(), zk, RedisShards.keyPrefix(ctx.config()))));
            for (String instance : graph.store().instances()) ctx.readiness(instance, () -> graph.store().ping(instance));
            RedisLastReadStore lastReads = ctx.closeOnExit(RedisLastReadStore.open(ctx.config(), graph.redis(), graph.store().keys().prefix()));
            RedisCelebrityPins celebrityPins = ctx.closeOnExit(RedisCelebrityPins.open(ctx.config(), graph.redis(), graph.store().keys().prefix()));
            RedisInterestPins interestPins = ctx.closeOnExit(RedisInterestPins.open(ctx.config(), graph.redis(), graph.store().keys().prefix()));
            FanoutStreamsApp app = ctx.closeOnExit(ctx.step("starting Kafka Streams application " + settings.applicationId(),
                    () -> FanoutStreamsApp.start(settings, ctx.config(), ctx.config().get(KafkaClients.INSTANCE, "0"),
                            ctx.registry(), graph.store(), lastReads, settings.celebrityFollowers() > 0 ? celebrityPins : CelebrityPins.NONE,
                            settings.popularInterestFollowers() > 0 ? interestPins : InterestPins.NONE, ctx.meters(),
                            ctx.clock())));
            ctx.liveness("kafka-streams", app::checkLive);
            ctx.readiness("kafka-streams", app::checkReady);
            RelatedSettings related = ctx.step("reading the related.* settings", () -> RelatedSettings.from(ctx.config()));
            if (related.enabled()) {
                RelatedStreamsApp relatedApp = ctx.closeOnExit(ctx.step("starting Kafka Streams application " + related.applicationId(),
                        () -> RelatedStreamsApp.start(related, ctx.config(), ctx.config().get(KafkaClients.INSTANCE, "0"), ctx.registry(),
                                ctx.meters(), ctx.clock())));
                ctx.liveness("related-streams", relatedApp::checkLive);
                ctx.readiness("related-streams", relatedApp::checkReady);
            }
            ctx.describe(settings.inputTopic() + " → " + settings.outputTopic() + " as " + settings.applicationId() + ", chunks of "
                    + settings.chunkSize() + ", active days " + settings.activeDays() + ", celebrities from " + settings.celebrityFollowers() + " followers, popular interests from "
                    + settings.popularInterestFollowers() + " followers" + ", state " + settings.stateDir()
                    + (related.enabled() ? "; related pins: " + related.pinsTopic() + " + " + related.likesTopic() + " → " + related.outputTopic()
                    + " as " + related.applicationId() + ", " + related.maxPerPin() + " per action, " + related.boardPins() + " pins per board"
                    : "; related pins off"));
        });
    }
}
