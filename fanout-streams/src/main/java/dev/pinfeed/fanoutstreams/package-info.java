/**
 * fanout-streams: fans each new pin (and each deleted one) out to the receivers the follower graph
 * names for its board, in bounded {@code FanoutChunk}s on {@code pinfeed.fanout.v1} for feed-worker.
 * A Kafka Streams app (exactly-once v2): {@link dev.pinfeed.fanoutstreams.FanoutProcessor} stores one
 * job per pin and works the jobs off round-robin from a wall-clock punctuator;
 * {@link dev.pinfeed.fanoutstreams.FanoutStepper} is the store-agnostic core (one chunk per step,
 * active-receiver policy); {@link dev.pinfeed.fanoutstreams.FanoutStreamsMain} is the process.
 */
package dev.pinfeed.fanoutstreams;
