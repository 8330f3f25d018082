package dev.pinfeed.infra.stack;

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

    /** One-time initialization of its data directory and config files (idempotent). */
    default void prepare() throws Exception {}

    List<String> command();

    /** True when it answers like a working server. Must return within a few seconds. */
    boolean healthy();

    default Duration startTimeout() {
        return Duration.ofSeconds(60);
    }

    default Duration stopGrace() {
        return Duration.ofSeconds(15);
    }
}
