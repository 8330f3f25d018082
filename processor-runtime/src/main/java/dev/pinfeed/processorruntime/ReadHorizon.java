package dev.pinfeed.processorruntime;

/**
 * How far the processors that write what a waiting record refers to have got: a time such that everything written to
 * their topics before it has been applied (their consumer groups committed past it). A record that refers to something
 * still missing once that time has passed its grace's end is missing for good; before that, the thing may still sit
 * unread in their backlog (a like whose pin the materializer has not reached yet).
 */
@FunctionalInterface
public interface ReadHorizon {

    /** No one to wait for: everything is as applied as it will be. */
    ReadHorizon CAUGHT_UP = () -> Long.MAX_VALUE;

    /** Epoch ms: everything written to the upstream topics before it has been applied; {@link Long#MIN_VALUE} until known. */
    long readAllUntil();
}
