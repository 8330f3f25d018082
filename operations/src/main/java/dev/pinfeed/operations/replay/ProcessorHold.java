package dev.pinfeed.operations.replay;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A view's processor held stopped while an operator's command changes what it owns (a replay moving its groups,
 * a repair writing its rows): stopped through {@link Processors}, then waited for until its consumer groups have
 * no member (static members of stopped processes are removed, as Kafka's reset tools do with {@code --force}),
 * and started again on {@link #release()} if it ran before. Closing releases it, so a failure never leaves a
 * processor down.
 */
public final class ProcessorHold implements AutoCloseable {

    private static final long POLL_MILLIS = 500;

    private final ReplayView view;
    private final Processors processors;
    private final KafkaGroups kafka;
    private final boolean force;
    private final Clock clock;
    private final Consumer<String> say;
    private final BooleanSupplier interrupted;
    private boolean wasRunning;
    /** The processors port knows whether it ran (the local stack): then its stop is ours, and its static members gone. */
    private boolean stoppedByUs;
    private boolean held;

    public ProcessorHold(ReplayView view, Processors processors, KafkaGroups kafka, boolean force, Clock clock, Consumer<String> say,
                         BooleanSupplier interrupted) {
        this.view = view;
        this.processors = processors;
        this.kafka = kafka;
        this.force = force;
        this.clock = clock;
        this.say = say;
        this.interrupted = interrupted;
    }

    /** Stops the view's processor and waits until its groups are empty; false when interrupted first (it runs again then). */
    public boolean stop(String why) throws Exception {
        Optional<Boolean> running = processors.running(view.app());
        wasRunning = running.orElse(true);
        stoppedByUs = running.isPresent();
        say.accept("stopping " + view.app() + " (" + processors.describe() + ")");
        held = true;
        processors.stop(view.app(), why);
        if (awaitGroupsEmpty()) return true;
        release();
        return false;
    }

    /** Whether the processor ran when it was stopped (a processor that was down stays down). */
    public boolean wasRunning() {
        return wasRunning;
    }

    /** Starts the processor again if it ran before; once. */
    public void release() throws Exception {
        if (!held) return;
        held = false;
        if (wasRunning) {
            say.accept("starting " + view.app() + " again");
            processors.start(view.app());
        }
    }

    private boolean awaitGroupsEmpty() throws InterruptedException {
        // Stopped by us (the local stack), or the operator vouches with --force: their static members are gone for good.
        boolean removeStatic = force || stoppedByUs;
        long noted = clock.millis();
        while (true) {
            if (interrupted.getAsBoolean()) return false;
            List<String> busy = new ArrayList<>();
            for (String group : view.groupIds()) {
                KafkaGroups.Membership m = kafka.membership(group);
                if (m.empty()) continue;
                if (removeStatic && m.staticIds().size() == m.members().size()) {
                    kafka.removeStaticMembers(group, m.staticIds());
                    m = kafka.membership(group);
                    if (m.empty()) continue;
                }
                busy.add(group + " " + m.members());
            }
            if (busy.isEmpty()) return true;
            if (clock.millis() - noted > 10_000) {
                noted = clock.millis();
                say.accept("still members in " + String.join("; ", busy) + (removeStatic ? "" : " (static members leave when their session "
                        + "times out, processor.session-timeout-ms; --force removes them once every instance is stopped)"));
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    @Override
    public void close() throws Exception {
        release();
    }
}
