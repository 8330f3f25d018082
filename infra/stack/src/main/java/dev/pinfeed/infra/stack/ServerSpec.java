package dev.pinfeed.infra.stack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** How to prepare, launch and health-check one kind of server of the local stack. */
interface ServerSpec {

    /** Unique name: also the pid, log and data directory name. */
    String name();

    /** What it is, for the endpoint table. */
    String role();

    /** Where clients reach it. */
    String endpoint();

    /**
     * Writes its config files. Idempotent and safe to run concurrently with itself (every write is
     * atomic): it runs on every start, from any number of shells or threads. No external programs.
     */
    default void writeFiles() throws Exception {}

    /**
     * One-time initialization of its data directory that may run external programs. The stack runs
     * it under the server's lock; it must leave either a complete directory or none.
     */
    default void initialize() throws Exception {}

    /** The command line; pure (everything it needs was written by {@link #writeFiles}). */
    List<String> command();

    /** True when it answers like a working server. Must return within a few seconds. */
    boolean healthy();

    /** Live and ready; servers are both when they answer. Must return within a few seconds. */
    default Health health() {
        return healthy() ? Health.UP : Health.down("not answering at " + endpoint());
    }

    /** The log a user should read when it fails. */
    Path logFile();

    default Duration startTimeout() {
        return Duration.ofSeconds(60);
    }

    default Duration stopGrace() {
        return Duration.ofSeconds(15);
    }

    /**
     * What a probe found: live (the process serves) and ready (it can do its work), with the reason when
     * not, e.g. the failing dependencies a 503 names.
     */
    record Health(boolean live, boolean ready, String detail) {

        static final Health UP = new Health(true, true, null);

        static Health down(String detail) {
            return new Health(false, false, detail);
        }

        static Health notReady(String detail) {
            return new Health(true, false, detail);
        }

        boolean up() {
            return live && ready;
        }
    }
}
