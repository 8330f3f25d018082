package dev.pinfeed.feedservice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.canonicalstore.reads.CacheListener;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedstore.InMemoryMaterializedFeedStore;
import dev.pinfeed.feedstore.MaterializedFeedStore;
import dev.pinfeed.feedstore.QuietPools;
import dev.pinfeed.feedstore.ReadAheadFeedStore;
import dev.pinfeed.feedstore.RememberedQuietPools;
import java.time.Clock;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ReadAheadSettingsTest {

    private final MaterializedFeedStore feeds = new InMemoryMaterializedFeedStore();
    private final PinfeedConfig config = PinfeedConfig.of(new Properties());

    private MaterializedFeedStore readAhead(Map<String, String> overrides) {
        return FeedServiceServer.readAhead(config.withOverrides(overrides), feeds, CacheListener.NONE, Clock.systemUTC());
    }

    @Test
    void pagesAreReadAheadAndFirstPageViewsKeptUnlessBothTimesToLiveAreZero() {
        assertThat(readAhead(Map.of())).isInstanceOf(ReadAheadFeedStore.class);
        assertThat(readAhead(Map.of(FeedServiceServer.READ_AHEAD_TTL_MS, "0"))).isInstanceOf(ReadAheadFeedStore.class);
        assertThat(readAhead(Map.of(FeedServiceServer.FIRST_PAGE_TTL_MS, "0"))).isInstanceOf(ReadAheadFeedStore.class);
        assertThat(readAhead(Map.of(FeedServiceServer.READ_AHEAD_TTL_MS, "0", FeedServiceServer.FIRST_PAGE_TTL_MS, "0"))).isSameAs(feeds);
    }

    @Test
    void quietPoolsAreRememberedUnlessTheTimeToLiveIsZero() {
        assertThat(FeedServiceServer.rememberedQuietPools(config, QuietPools.NONE, Clock.systemUTC())).isInstanceOf(RememberedQuietPools.class);
        assertThat(FeedServiceServer.rememberedQuietPools(config.withOverrides(Map.of(FeedServiceServer.QUIET_POOLS_REMEMBER_MS, "0")),
                QuietPools.NONE, Clock.systemUTC())).isSameAs(QuietPools.NONE);
        assertThatThrownBy(() -> FeedServiceServer.rememberedQuietPools(config.withOverrides(Map.of(FeedServiceServer.QUIET_POOLS_REMEMBER_MS, "-1")),
                QuietPools.NONE, Clock.systemUTC())).hasMessageContaining(FeedServiceServer.QUIET_POOLS_REMEMBER_MS);
    }

    @Test
    void settingsOutOfRangeAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> readAhead(Map.of(FeedServiceServer.READ_AHEAD_TTL_MS, "-1"))).hasMessageContaining(FeedServiceServer.READ_AHEAD_TTL_MS);
        assertThatThrownBy(() -> readAhead(Map.of(FeedServiceServer.FIRST_PAGE_TTL_MS, "-1"))).hasMessageContaining(FeedServiceServer.FIRST_PAGE_TTL_MS);
        assertThatThrownBy(() -> readAhead(Map.of(FeedServiceServer.READ_AHEAD_PAGES, "1"))).hasMessageContaining(FeedServiceServer.READ_AHEAD_PAGES);
        assertThatThrownBy(() -> readAhead(Map.of(FeedServiceServer.READ_AHEAD_MAX_USERS, "0")))
                .hasMessageContaining(FeedServiceServer.READ_AHEAD_MAX_USERS);
    }
}
