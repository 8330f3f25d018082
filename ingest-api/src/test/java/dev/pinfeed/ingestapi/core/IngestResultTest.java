package dev.pinfeed.ingestapi.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.ingestapi.core.IngestRejection.Reason;
import dev.pinfeed.ingestapi.core.IngestResult.Item;
import java.util.List;
import org.junit.jupiter.api.Test;

class IngestResultTest {

    @Test
    void theStoredFormKeepsEveryItemWithItsIdsAndReason() {
        IngestResult result = new IngestResult(List.of(
                new Item("UserCreated", 11, 12, null),
                new Item("PinLiked", 0, 13, null),
                Item.rejected("PinCreated", IngestRejection.restored(Reason.UNKNOWN_ID, "boardId", "no such board", null)),
                new Item("PinCreated", 21, 22, IngestRejection.restored(Reason.UNCONFIRMED, null, "no ack", null)),
                Item.rejected("PinLiked", IngestRejection.restored(Reason.DELETED, "pinId", "a deleted pin", null))));

        IngestResult back = IngestResult.deserialize(result.serialize());

        assertThat(back.items()).extracting(Item::eventType, Item::createdId, Item::eventId, Item::accepted).containsExactly(
                org.assertj.core.groups.Tuple.tuple("UserCreated", 11L, 12L, true),
                org.assertj.core.groups.Tuple.tuple("PinLiked", 0L, 13L, true),
                org.assertj.core.groups.Tuple.tuple("PinCreated", 0L, 0L, false),
                org.assertj.core.groups.Tuple.tuple("PinCreated", 21L, 22L, false),
                org.assertj.core.groups.Tuple.tuple("PinLiked", 0L, 0L, false));
        assertThat(back.items().get(2).rejection().field()).isEqualTo("boardId");
        assertThat(back.items().get(3).rejection().reason()).isEqualTo(Reason.UNCONFIRMED);
        assertThat(back.items().get(4).rejection().reason()).isEqualTo(Reason.DELETED);
        assertThat(back.retryable()).isFalse();
    }

    @Test
    void anAcceptedItemWithoutAnEventIdIsRefused() {
        assertThatThrownBy(() -> IngestResult.deserialize("{\"v\":1,\"items\":[{\"type\":\"UserCreated\",\"id\":\"5\"}]}"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("no eventId");
    }
}
