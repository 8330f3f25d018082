package dev.pinfeed.fanoutstreams.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.events.FanoutAction;
import dev.pinfeed.fanoutstreams.FanoutJob;
import dev.pinfeed.followergraph.Receiver;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class FanoutJobCodecTest {

    @Test
    void aJobInProgressSurvivesTheRoundTrip() {
        FanoutJob job = new FanoutJob(FanoutAction.REMOVE, 11, 12, 13, 14, 15, 16, 7, "c:opaque|42", false,
                List.of(new Receiver(100, true), new Receiver(101, false)), 2,
                new FanoutJob.Origin("pinfeed.pins.v1", 3, 99, "13".getBytes(), new byte[] {0, 1, 2},
                        List.of(new FanoutJob.Header("pinfeed.dlq.redrive.from", "0:41".getBytes()), new FanoutJob.Header("empty", null))));

        FanoutJob back = FanoutJobCodec.decode(FanoutJobCodec.encode(job));

        assertThat(back).usingRecursiveComparison().isEqualTo(job);
    }

    @Test
    void aFreshJobHasNoCursorAndAnUnknownOriginKeepsItsNulls() {
        FanoutJob job = FanoutJob.start(FanoutAction.ADD, 1, 2, 3, 4, 5, 6, FanoutJob.Origin.UNKNOWN);

        FanoutJob back = FanoutJobCodec.decode(FanoutJobCodec.encode(job));

        assertThat(back.cursor()).isNull();
        assertThat(back.exhausted()).isFalse();
        assertThat(back.origin().key()).isNull();
        assertThat(back.origin().value()).isNull();
        assertThat(back).usingRecursiveComparison().isEqualTo(job);
    }

    @Test
    void aJobStoredBeforeOriginsHadHeadersStillReads() {
        FanoutJob job = new FanoutJob(FanoutAction.ADD, 11, 12, 13, 14, 15, 16, 2, null, false, List.of(), 0,
                new FanoutJob.Origin("pinfeed.pins.v1", 1, 7, "13".getBytes(), new byte[] {5}, List.of()));
        byte[] current = FanoutJobCodec.encode(job);
        // Version 1: the same bytes without the trailing header count (and without version 3's parentPinId, version 4's interests).
        byte[] version1 = Arrays.copyOf(current, current.length - Integer.BYTES - Long.BYTES - Integer.BYTES);
        version1[0] = 1;

        FanoutJob back = FanoutJobCodec.decode(version1);

        assertThat(back).usingRecursiveComparison().isEqualTo(job);
        assertThat(back.origin().headers()).isEmpty();
    }

    @Test
    void aRepinsJobKeepsItsParentAndAJobStoredBeforeRepinsReadsAsAnOriginal() {
        FanoutJob repin = FanoutJob.start(FanoutAction.ADD, 1, 2, 3, 4, 5, 6, FanoutJob.Origin.UNKNOWN).ofRepin(77);
        assertThat(FanoutJobCodec.decode(FanoutJobCodec.encode(repin)).parentPinId()).isEqualTo(77);

        FanoutJob original = FanoutJob.start(FanoutAction.ADD, 1, 2, 3, 4, 5, 6, FanoutJob.Origin.UNKNOWN);
        byte[] current = FanoutJobCodec.encode(original);
        // Version 2: the same bytes without the trailing parentPinId (and version 4's interest count).
        byte[] version2 = Arrays.copyOf(current, current.length - Integer.BYTES - Long.BYTES);
        version2[0] = 2;
        assertThat(FanoutJobCodec.decode(version2)).usingRecursiveComparison().isEqualTo(original);
    }

    @Test
    void aJobsInterestsAndItsInterestReceiversSurviveAndAJobStoredBeforeInterestsReadsWithNone() {
        FanoutJob tagged = new FanoutJob(FanoutAction.ADD, 11, 12, 13, 14, 15, 16, 1, FanoutStepperInterests.cursor(1), false,
                List.of(new Receiver(100, true), Receiver.ofInterest(101), new Receiver(102, false)), 0, FanoutJob.Origin.UNKNOWN, 0,
                List.of(501L, 502L));
        FanoutJob back = FanoutJobCodec.decode(FanoutJobCodec.encode(tagged));
        assertThat(back).usingRecursiveComparison().isEqualTo(tagged);
        assertThat(back.buffered()).extracting(Receiver::viaInterest).containsExactly(false, true, false);

        FanoutJob plain = new FanoutJob(FanoutAction.ADD, 11, 12, 13, 14, 15, 16, 1, "c", false,
                List.of(new Receiver(100, true), new Receiver(102, false)), 0, FanoutJob.Origin.UNKNOWN, 44);
        byte[] current = FanoutJobCodec.encode(plain);
        // Version 3: the same bytes without the trailing interest count; a receiver's flag byte was viaOwner as a boolean.
        byte[] version3 = Arrays.copyOf(current, current.length - Integer.BYTES);
        version3[0] = 3;
        assertThat(FanoutJobCodec.decode(version3)).usingRecursiveComparison().isEqualTo(plain);
    }

    /** An interests-phase walk cursor, as the stepper writes it. */
    private static final class FanoutStepperInterests {
        static String cursor(int index) {
            return dev.pinfeed.fanoutstreams.FanoutStepper.interestCursor(index, "abc");
        }
    }

    @Test
    void anUnknownLayoutVersionIsRefused() {
        byte[] bytes = FanoutJobCodec.encode(FanoutJob.start(FanoutAction.ADD, 1, 2, 3, 4, 5, 6, FanoutJob.Origin.UNKNOWN));
        bytes[0] = 9;
        assertThatThrownBy(() -> FanoutJobCodec.decode(bytes)).hasMessageContaining("version 9");
    }
}
