package dev.pinfeed.ingestapi.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.ingestapi.core.IdempotencyStore.Begin;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What every {@link IdempotencyStore} must do; run against the in-memory fake and real Redis. */
public abstract class IdempotencyStoreContract {

    protected abstract IdempotencyStore store();

    /** A key no earlier run used. */
    protected abstract String freshKey();

    /** Lets {@code d} of store time pass. */
    protected abstract void elapse(Duration d) throws InterruptedException;

    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration RETENTION = Duration.ofHours(1);

    @Test
    void theFirstRequestRunsARetryWaitsThenReplaysTheAnswer() {
        String key = freshKey();
        assertThat(store().begin("tok", key, "fp1", LEASE)).isInstanceOf(Begin.Started.class);
        assertThat(store().begin("tok", key, "fp1", LEASE)).isInstanceOf(Begin.InProgress.class);

        store().complete("tok", key, "fp1", "{\"id\":\"42\"}", RETENTION);

        assertThat(store().begin("tok", key, "fp1", LEASE))
                .isEqualTo(new Begin.Replay("{\"id\":\"42\"}"));
    }

    @Test
    void aDifferentBodyUnderTheSameKeyIsAMismatch() {
        String key = freshKey();
        store().begin("tok", key, "fp1", LEASE);
        store().complete("tok", key, "fp1", "{}", RETENTION);

        assertThat(store().begin("tok", key, "fp2", LEASE)).isInstanceOf(Begin.Mismatch.class);
    }

    @Test
    void keysAreScopedPerCaller() {
        String key = freshKey();
        store().begin("alice", key, "fp1", LEASE);
        assertThat(store().begin("bob", key, "fp1", LEASE)).isInstanceOf(Begin.Started.class);
    }

    @Test
    void anAbandonedKeyRunsAgain() {
        String key = freshKey();
        store().begin("tok", key, "fp1", LEASE);
        store().abandon("tok", key, "fp1");
        assertThat(store().begin("tok", key, "fp1", LEASE)).isInstanceOf(Begin.Started.class);
    }

    @Test
    void abandonLeavesAStoredAnswerAndAnotherBodysClaimAlone() {
        String done = freshKey();
        store().begin("tok", done, "fp1", LEASE);
        store().complete("tok", done, "fp1", "{}", RETENTION);
        store().abandon("tok", done, "fp1");
        assertThat(store().begin("tok", done, "fp1", LEASE)).isInstanceOf(Begin.Replay.class);

        String other = freshKey();
        store().begin("tok", other, "fp2", LEASE);
        store().abandon("tok", other, "fp1");
        assertThat(store().begin("tok", other, "fp2", LEASE)).isInstanceOf(Begin.InProgress.class);
    }

    @Test
    void anAnswerIsStoredEvenAfterTheLeaseLapsed() throws InterruptedException {
        String key = freshKey();
        store().begin("tok", key, "fp1", Duration.ofMillis(200));
        elapse(Duration.ofMillis(400));
        store().complete("tok", key, "fp1", "{\"id\":\"7\"}", RETENTION);
        assertThat(store().begin("tok", key, "fp1", LEASE)).isEqualTo(new Begin.Replay("{\"id\":\"7\"}"));
    }

    @Test
    void scopesContainingColonsDoNotCollide() {
        String key = freshKey();
        store().begin("a:b", "c:" + key, "fp1", LEASE);
        assertThat(store().begin("a", "b:c:" + key, "fp1", LEASE)).isInstanceOf(Begin.Started.class);
    }

    @Test
    void aLapsedLeaseLetsARetryRun() throws InterruptedException {
        String key = freshKey();
        store().begin("tok", key, "fp1", Duration.ofMillis(200));
        elapse(Duration.ofMillis(400));
        assertThat(store().begin("tok", key, "fp1", LEASE)).isInstanceOf(Begin.Started.class);
    }

    @Test
    void aRejectionResultIsStoredVerbatim() {
        String key = freshKey();
        store().begin("tok", key, "fp1", LEASE);
        String problem = "{\"type\":\"x\",\"status\":409,\"detail\":\"username 'ana' is taken\"}";
        store().complete("tok", key, "fp1", problem, RETENTION);
        assertThat(store().begin("tok", key, "fp1", LEASE)).isEqualTo(new Begin.Replay(problem));
    }
}
