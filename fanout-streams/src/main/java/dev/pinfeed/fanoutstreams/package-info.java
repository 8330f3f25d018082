/**
 * fanout-streams: fans each new pin (and each deleted one) out to the receivers the follower graph
 * names for its board, in bounded {@code FanoutChunk}s on {@code pinfeed.fanout.v1} for feed-worker.
 * This package is the core, free of client libraries: {@link dev.pinfeed.fanoutstreams.FanoutStepper}
 * (one chunk per step, the active-receiver policy) over {@link dev.pinfeed.fanoutstreams.FanoutJob}s.
 * The Kafka Streams app around it (exactly-once v2, the job store, the round-robin punctuator, dead
 * letters, the process) is {@link dev.pinfeed.fanoutstreams.kafka}.
 */
package dev.pinfeed.fanoutstreams;
