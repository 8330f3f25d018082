package dev.pinfeed.feedworker;

import dev.pinfeed.config.StoreUnavailableException;

/**
 * What became of one input event: applied, waiting (for another store to catch up, or behind an
 * earlier event of the same key that is waiting), unavailable (a store is down: retry), deferred (the batch's time ran
 * out before it: retry), or rejected
 * (it can never apply: dead letter, with the reason of {@link dev.pinfeed.eventsschema.DeadLetters}).
 */
public record Verdict(Kind kind, String reason, String detail, StoreUnavailableException outage, boolean behind) {

    public enum Kind { APPLIED, WAITING, UNAVAILABLE, REJECTED, DEFERRED }

    static final Verdict APPLIED = new Verdict(Kind.APPLIED, "", "", null, false);

    static Verdict waiting(String reason, String detail) {
        return new Verdict(Kind.WAITING, reason, detail, null, false);
    }

    static Verdict unavailable(StoreUnavailableException e) {
        return new Verdict(Kind.UNAVAILABLE, e.store(), e.getMessage(), e, false);
    }

    /** Not handled: the batch's time ran out on the events before it (its stores slow under load); retried on a later turn. */
    static Verdict deferred(String detail) {
        return new Verdict(Kind.DEFERRED, "", detail, null, false);
    }

    static Verdict rejected(String reason, String detail) {
        return new Verdict(Kind.REJECTED, reason, detail, null, false);
    }

    /** The fate of an event queued behind {@code blocker}, an earlier event of its key that did not apply. */
    public static Verdict behind(Verdict blocker) {
        return new Verdict(blocker.kind, blocker.reason, "behind an earlier event of its key: " + blocker.detail, blocker.outage, true);
    }

    public boolean applied() {
        return kind == Kind.APPLIED;
    }
}
