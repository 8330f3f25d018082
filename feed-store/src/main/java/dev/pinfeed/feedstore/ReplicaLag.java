package dev.pinfeed.feedstore;

import java.util.OptionalLong;

/**
 * How far the standby is behind the primary right now, as some cheap measurement last saw it
 * ({@link SpeculativeReads} records it whenever the standby serves). Empty when unknown.
 */
@FunctionalInterface
public interface ReplicaLag {

    ReplicaLag UNKNOWN = OptionalLong::empty;

    OptionalLong millis();
}
