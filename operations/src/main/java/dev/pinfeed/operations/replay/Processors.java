package dev.pinfeed.operations.replay;

import java.nio.file.Path;
import java.util.Optional;

/**
 * How a replay stops and starts the processes that keep a view. On the local stack it does that itself
 * ({@link LocalStackProcessors}); on a deployment it cannot reach it asks the operator and watches the
 * consumer group ({@link OperatorProcessors}).
 */
public interface Processors {

    /** What stops and starts the processes, for the messages ("the local stack", "you"). */
    String describe();

    /** Whether the app runs now; empty when this side cannot tell (the group's members tell). */
    Optional<Boolean> running(String app);

    /** Stops every instance of {@code app} and keeps it stopped until {@link #start}; returns once they stopped. */
    void stop(String app, String why) throws Exception;

    /** Starts {@code app} again; returns once it runs (its consumer group catching up is the replay's to watch). */
    void start(String app) throws Exception;

    /** Where {@code app} keeps local state this side can delete (a Kafka Streams state directory), if it can. */
    Optional<Path> localStateDir(String app);
}
