package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;

class DemoDatasetRetryTest {

    private static final Duration PATIENCE = Duration.ofMinutes(5);

    /** Answers in a given order on a fake clock: a timed-out attempt costs a minute, a pause its length. */
    private static final class Ingest {
        long nanos;
        int attempts;
        final Deque<DemoDataset.Answer> answers = new ArrayDeque<>();

        Ingest then(int status) {
            answers.add(new DemoDataset.Answer(status, "{\"status\":" + status + "}"));
            return this;
        }

        Ingest thenNoAnswer() {
            answers.add(new DemoDataset.Answer(-1, null));
            return this;
        }

        DemoDataset.Answer send() {
            attempts++;
            DemoDataset.Answer a = answers.size() > 1 ? answers.poll() : answers.peek();
            if (a.status() == -1) {
                nanos += Duration.ofSeconds(60).toNanos();
                return null;
            }
            return a;
        }

        String post() throws Exception {
            return DemoDataset.untilAnswered("POST /v1/events", this::send, () -> nanos, ms -> nanos += Duration.ofMillis(ms).toNanos(), PATIENCE);
        }
    }

    @Test
    void aRequestWithoutAnAnswerIsSentAgainAndGetsTheAnswerOnceItsFirstRunEnded() throws Exception {
        Ingest ingest = new Ingest().thenNoAnswer().thenNoAnswer().then(409).then(409).then(202);

        assertThat(ingest.post()).isEqualTo("{\"status\":202}");
        assertThat(ingest.attempts).isEqualTo(5);
    }

    @Test
    void givesUpOnceThePatienceIsSpentNamingWhatItLastGot() {
        assertThatThrownBy(() -> new Ingest().then(503).post()).hasMessageContaining("answered 503");
        assertThatThrownBy(() -> new Ingest().thenNoAnswer().post()).hasMessageContaining("got no answer for 300 s");
        Ingest busy = new Ingest().then(503);
        assertThatThrownBy(busy::post).isInstanceOf(IllegalStateException.class);
        assertThat(busy.nanos).isBetween(PATIENCE.toNanos(), PATIENCE.plusSeconds(1).toNanos());
    }

    @Test
    void aRefusalIsNotSentAgain() {
        Ingest ingest = new Ingest().then(400);

        assertThatThrownBy(ingest::post).hasMessageContaining("answered 400");
        assertThat(ingest.attempts).isEqualTo(1);
    }
}
