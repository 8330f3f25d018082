package dev.pinfeed.feedservice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.canonicalstore.reads.CacheListener;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedstore.InMemoryMaterializedFeedStore;
import dev.pinfeed.feedstore.MaterializedFeedStore;
import dev.pinfeed.feedstore.ReadAheadFeedStore;
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
    void nextPagesReadAheadUnlessTheTimeToLiveIsZero() {
        assertThat(readAhead(Map.of())).isInstanceOf(ReadAheadFeedStore.class);
        assertThat(readAhead(Map.of(FeedServiceServer.READ_AHEAD_TTL_MS, "0"))).isSameAs(feeds);
    }

    @Test
    void settingsOutOfRangeAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> readAhead(Map.of(FeedServiceServer.READ_AHEAD_TTL_MS, "-1"))).hasMessageContaining(FeedServiceServer.READ_AHEAD_TTL_MS);
        assertThatThrownBy(() -> readAhead(Map.of(FeedServiceServer.READ_AHEAD_PAGES, "1"))).hasMessageContaining(FeedServiceServer.READ_AHEAD_PAGES);
        assertThatThrownBy(() -> readAhead(Map.of(FeedServiceServer.READ_AHEAD_MAX_USERS, "0")))
                .hasMessageContaining(FeedServiceServer.READ_AHEAD_MAX_USERS);
    }
}
