/**
 * Related pins (seed 002's second source of incoming pins), the core: board membership from the pins topic and the
 * related pins a like or a repin makes relevant to its user, over state ports, free of Kafka. The Kafka Streams
 * application {@code pinfeed-related} around it is {@code dev.pinfeed.fanoutstreams.kafka.RelatedTopology}.
 */
package dev.pinfeed.fanoutstreams.related;
