package dev.pinfeed.fanoutstreams.related;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.eventsschema.DecodeLimits;
import dev.pinfeed.eventsschema.EventTopics;
import java.nio.file.Path;

/**
 * The related-pins application's knobs, all from {@link PinfeedConfig} ({@code related.*}; docs/operations.md lists them).
 *
 * @param enabled       whether fanout-streams runs the application at all ({@code related.enabled}, true)
 * @param applicationId its Kafka Streams application id ({@code related.application-id}, pinfeed-related): its group and
 *                      the prefix of its internal topics (repartition and changelog)
 * @param pinsTopic     PinCreated / PinDeleted: board membership, and repins as actions ({@code related.pins-topic})
 * @param likesTopic    PinLiked: the likes that make pins related ({@code related.likes-topic})
 * @param outputTopic   where the related pins go as FanoutChunks tagged RELATED ({@code related.output-topic}, the fan-out topic)
 * @param deadLetterTopic poison input ({@code related.dead-letter-topic}, the shared dead-letter topic)
 * @param boardPins     the newest pins kept per board ({@code related.board-pins}, 50)
 * @param pinBoards     the newest boards kept per pin ({@code related.pin-boards}, 20)
 * @param maxPerPin     related pins one action sends at most ({@code related.max-per-pin}, 10)
 * @param maxActionsPerMinute a user's likes and saves per minute that ask for related pins at most
 *                      ({@code related.max-actions-per-minute}, 20; {@link ActionBudget})
 * @param threads       Kafka Streams threads ({@code related.threads}, 1)
 * @param stateDir      Kafka Streams' state directory ({@code related.state-dir}; default {@code fanout.state-dir}: each
 *                      application keeps its own sub-directory there)
 * @param decodeLimits  what one input event may make the decoder allocate ({@code events.decode.*})
 */
public record RelatedSettings(boolean enabled, String applicationId, String pinsTopic, String likesTopic, String outputTopic,
                              String deadLetterTopic, int boardPins, int pinBoards, int maxPerPin, int maxActionsPerMinute, int threads,
                              Path stateDir,
                              DecodeLimits decodeLimits) {

    public static final String APPLICATION_ID = "pinfeed-related";

    public RelatedSettings {
        if (boardPins < 2) throw new IllegalArgumentException("related.board-pins must be at least 2: " + boardPins);
        if (pinBoards < 1) throw new IllegalArgumentException("related.pin-boards must be at least 1: " + pinBoards);
        if (maxPerPin < 1) throw new IllegalArgumentException("related.max-per-pin must be at least 1: " + maxPerPin);
        if (maxActionsPerMinute < 1) {
            throw new IllegalArgumentException("related.max-actions-per-minute must be at least 1: " + maxActionsPerMinute);
        }
        if (threads < 1) throw new IllegalArgumentException("related.threads must be at least 1: " + threads);
    }

    public static RelatedSettings defaults() {
        return new RelatedSettings(true, APPLICATION_ID, EventTopics.PINS, EventTopics.LIKES, EventTopics.FANOUT, DeadLetters.TOPIC, 50, 20, 10, 20, 1,
                Path.of(System.getProperty("java.io.tmpdir"), "pinfeed-fanout-streams"), DecodeLimits.DEFAULTS);
    }

    public static RelatedSettings from(PinfeedConfig config) {
        RelatedSettings d = defaults();
        return new RelatedSettings(
                Boolean.parseBoolean(config.get("related.enabled", "true")),
                config.get("related.application-id", d.applicationId()),
                config.get("related.pins-topic", config.get("fanout.input-topic", d.pinsTopic())),
                config.get("related.likes-topic", d.likesTopic()),
                config.get("related.output-topic", config.get("fanout.output-topic", d.outputTopic())),
                config.get("related.dead-letter-topic", config.get("fanout.dead-letter-topic", DeadLetters.topic(config))),
                config.getInt("related.board-pins", d.boardPins()),
                config.getInt("related.pin-boards", d.pinBoards()),
                config.getInt("related.max-per-pin", d.maxPerPin()),
                config.getInt("related.max-actions-per-minute", d.maxActionsPerMinute()),
                config.getInt("related.threads", d.threads()),
                Path.of(config.get("related.state-dir", config.get("fanout.state-dir", d.stateDir().toString()))),
                DecodeLimits.from(config));
    }

    /** The same settings on other topics and application id (tests run on fresh names). */
    public RelatedSettings withTopics(String applicationId, String pins, String likes, String output, String deadLetters) {
        return new RelatedSettings(enabled, applicationId, pins, likes, output, deadLetters, boardPins, pinBoards, maxPerPin, maxActionsPerMinute,
                threads, stateDir, decodeLimits);
    }

    public RelatedSettings withStateDir(Path dir) {
        return new RelatedSettings(enabled, applicationId, pinsTopic, likesTopic, outputTopic, deadLetterTopic, boardPins, pinBoards, maxPerPin,
                maxActionsPerMinute, threads, dir, decodeLimits);
    }

    public RelatedSettings withCaps(int boardPins, int pinBoards, int maxPerPin) {
        return new RelatedSettings(enabled, applicationId, pinsTopic, likesTopic, outputTopic, deadLetterTopic, boardPins, pinBoards, maxPerPin,
                maxActionsPerMinute, threads, stateDir, decodeLimits);
    }

    public RelatedSettings withMaxActionsPerMinute(int perMinute) {
        return new RelatedSettings(enabled, applicationId, pinsTopic, likesTopic, outputTopic, deadLetterTopic, boardPins, pinBoards, maxPerPin,
                perMinute, threads, stateDir, decodeLimits);
    }
}
