package dev.pinfeed.operations.replay;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.fanoutstreams.FanoutSettings;
import dev.pinfeed.fanoutstreams.kafka.FanoutStreamsMain;
import dev.pinfeed.fanoutstreams.related.RelatedSettings;
import dev.pinfeed.feedworker.process.FeedWorkerMain;
import dev.pinfeed.graphprocessor.GraphProcessorMain;
import dev.pinfeed.materializer.MaterializerMain;
import dev.pinfeed.materializer.MaterializerTopics;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A view an operator can replay: the app (process) that keeps it, the consumer groups it reads with and their
 * topics (from the same configuration keys the app reads), the Kafka Streams application where the view is
 * one, and the {@code ./pinfeed verify} command line that checks it.
 *
 * @param streams the Kafka Streams application id (its group, and the prefix of its internal topics), when it is one
 * @param stateDir where the Streams application keeps its local state ({@code <dir>/<application id>}), when it is one
 */
public record ReplayView(String name, String app, List<Group> groups, Optional<String> streams, Optional<Path> stateDir, List<String> verify) {

    /** A consumer group of the view and the topics it reads. */
    public record Group(String id, List<String> topics) {}

    public static final List<String> NAMES = List.of("graph", "canonical", "pools", "fanout", "related");

    public static ReplayView of(String name, PinfeedConfig config) {
        return switch (name) {
            case "graph" -> new ReplayView(name, GraphProcessorMain.NAME, List.of(new Group(GraphProcessorMain.group(config),
                    GraphProcessorMain.topics(config))), Optional.empty(), Optional.empty(), List.of("graph"));
            case "canonical" -> new ReplayView(name, MaterializerMain.NAME, List.of(new Group(MaterializerMain.group(config),
                    MaterializerTopics.from(config).all())), Optional.empty(), Optional.empty(), List.of("canonical"));
            case "pools" -> {
                List<String> topics = FeedWorkerMain.topics(config);
                String group = FeedWorkerMain.group(config);
                yield new ReplayView(name, FeedWorkerMain.NAME, List.of(new Group(group, topics),
                        new Group(FeedWorkerMain.bulkGroup(group), List.of(FeedWorkerMain.bulkLane(topics)))), Optional.empty(),
                        Optional.empty(), List.of("pools", "--all"));
            }
            case "fanout" -> {
                FanoutSettings f = FanoutSettings.from(config);
                yield new ReplayView(name, FanoutStreamsMain.NAME, List.of(new Group(f.applicationId(), List.of(f.inputTopic()))),
                        Optional.of(f.applicationId()), Optional.of(f.stateDir()), List.of("pools", "--all"));
            }
            case "related" -> {
                // fanout-streams' second Kafka Streams application: its stores are rebuilt from the pins and likes topics.
                RelatedSettings r = RelatedSettings.from(config);
                yield new ReplayView(name, FanoutStreamsMain.NAME, List.of(new Group(r.applicationId(), List.of(r.pinsTopic(), r.likesTopic()))),
                        Optional.of(r.applicationId()), Optional.of(r.stateDir()), List.of("pools", "--all"));
            }
            default -> throw new IllegalArgumentException("no view '" + name + "' (views: " + String.join(", ", NAMES) + ")");
        };
    }

    public List<String> groupIds() {
        return groups.stream().map(Group::id).toList();
    }
}
