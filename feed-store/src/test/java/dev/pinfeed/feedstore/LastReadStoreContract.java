package dev.pinfeed.feedstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What every {@link LastReadStore} does; run against the in-memory store (unit) and Redis (IT). */
public abstract class LastReadStoreContract {

    protected abstract LastReadStore store();

    protected abstract long freshUser();

    @Test
    void aBatchReadAnswersEveryRecordedUserAndLeavesOutTheOthers() {
        long reader = freshUser();
        long other = freshUser();
        long never = freshUser();
        store().recordRead(reader, 1_767_225_600_000L);
        store().recordRead(other, 1_767_225_700_000L);
        assertThat(store().lastReads(List.of(reader, never, other, reader)))
                .containsOnly(Map.entry(reader, 1_767_225_600_000L), Map.entry(other, 1_767_225_700_000L));
        assertThat(store().lastReads(List.of())).isEmpty();
    }

    @Test
    void theLaterReadWinsWhateverTheOrderOfTheRecords() {
        long u = freshUser();
        store().recordRead(u, 1_767_312_000_000L);
        store().recordRead(u, 1_767_225_600_000L); // a late record of an earlier read
        assertThat(store().lastReads(List.of(u))).containsOnly(Map.entry(u, 1_767_312_000_000L));
        store().recordRead(u, 1_767_400_000_000L);
        assertThat(store().lastReads(List.of(u))).containsOnly(Map.entry(u, 1_767_400_000_000L));
    }

    /** A fan-out page: a thousand receivers in one call, spread over the instances. */
    @Test
    void aPageOfAThousandReceiversIsAnsweredInOneCall() {
        List<Long> users = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) users.add(freshUser());
        for (int i = 0; i < users.size(); i += 2) store().recordRead(users.get(i), 1_767_225_600_000L + i);
        Map<Long, Long> reads = store().lastReads(users);
        assertThat(reads).hasSize(500);
        for (int i = 0; i < users.size(); i += 2) assertThat(reads).containsEntry(users.get(i), 1_767_225_600_000L + i);
    }
}
