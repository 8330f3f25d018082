package dev.pinfeed.feedservice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.canonicalstore.reads.CacheListener;
import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.canonicalstore.reads.RecentLivePins;
import dev.pinfeed.config.PinfeedConfig;
import java.time.Clock;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class RecentPinsSettingsTest {

    private final CanonicalReads reads = new dev.pinfeed.canonicalstore.reads.InMemoryCanonicalReads();
    private final PinfeedConfig config = PinfeedConfig.of(new Properties());

    @Test
    void pagesAreHydratedThroughRecentPinsUnlessTheirTimeToLiveIsZero() {
        assertThat(FeedServiceServer.recentPins(config, reads, CacheListener.NONE, Clock.systemUTC())).isInstanceOf(RecentLivePins.class);
        assertThat(FeedServiceServer.recentPins(config.withOverrides(Map.of(FeedServiceServer.RECENT_PINS_TTL_MS, "0")), reads,
                CacheListener.NONE, Clock.systemUTC())).isSameAs(reads);
    }

    @Test
    void aNegativeTimeToLiveOrNoRoomIsRefusedNamingTheKey() {
        assertThatThrownBy(() -> FeedServiceServer.recentPins(config.withOverrides(Map.of(FeedServiceServer.RECENT_PINS_TTL_MS, "-1")), reads,
                CacheListener.NONE, Clock.systemUTC())).hasMessageContaining(FeedServiceServer.RECENT_PINS_TTL_MS);
        assertThatThrownBy(() -> FeedServiceServer.recentPins(config.withOverrides(Map.of(FeedServiceServer.RECENT_PINS_MAX, "0")), reads,
                CacheListener.NONE, Clock.systemUTC())).hasMessageContaining(FeedServiceServer.RECENT_PINS_MAX);
    }
}
