package dev.pinfeed.canonicalstore.reads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.canonicalstore.CanonicalLayout.Json;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class CanonicalObjectsTest {

    @Test
    void aPinsInterestsRoundTripInOrderAndAPinWithoutAnyStoresNoField() {
        String tagged = Json.pin(1L, 1_000L, 2L, 3L, "oak", null, null, null, List.of(40L, 30L));
        assertThat(tagged).contains("\"interests\":[40,30]");
        assertThat(CanonicalObjects.pin(tagged, 0).orElseThrow().interests()).containsExactly(40L, 30L);

        String plain = Json.pin(1L, 1_000L, 2L, 3L, "oak", null, null, null, List.of());
        assertThat(plain).doesNotContain(Json.INTERESTS).isEqualTo(Json.pin(1L, 1_000L, 2L, 3L, "oak", null, null, null));
        assertThat(CanonicalObjects.pin(plain, 0).orElseThrow().interests()).isEmpty();
    }

    @Test
    void anInterestReadsBackFromItsJson() {
        assertThat(CanonicalObjects.interest(Json.interest(9L, 5_000L, "ceramics")))
                .isEqualTo(new CanonicalInterest(9L, "ceramics", Instant.ofEpochMilli(5_000L)));
    }

    @Test
    void aPinReadAgainFromTheSameTextCarriesEachCallsCountsAndChangedTextIsReadAnew() {
        String oak = Json.pin(77L, 1_000L, 2L, 3L, "oak", null, null, null);
        CanonicalPin first = CanonicalObjects.pin(oak, 5, 6, 7).orElseThrow();
        CanonicalPin again = CanonicalObjects.pin(new String(oak), 8, 9, 10).orElseThrow();
        assertThat(List.of(first.likes(), first.comments(), first.repins())).containsExactly(5L, 6L, 7L);
        assertThat(List.of(again.likes(), again.comments(), again.repins())).containsExactly(8L, 9L, 10L);
        assertThat(again.details()).isEqualTo("oak");

        assertThat(CanonicalObjects.pin(Json.pin(77L, 1_000L, 2L, 3L, "walnut", null, null, null), 0).orElseThrow().details()).isEqualTo("walnut");
        assertThat(CanonicalObjects.pin(oak.replace("{", "{\"active\":false,"), 0)).as("deleted since").isEmpty();
    }
}
