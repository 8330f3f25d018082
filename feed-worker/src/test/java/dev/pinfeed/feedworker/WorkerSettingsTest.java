package dev.pinfeed.feedworker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.PinfeedConfig;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class WorkerSettingsTest {

    private static PinfeedConfig config(String key, String value) {
        Properties p = new Properties();
        p.setProperty(key, value);
        return PinfeedConfig.of(p);
    }

    @Test
    void theBatchBudgetComesFromItsKeyAndDefaultsTo15Seconds() {
        assertThat(WorkerSettings.from(config("feed.worker.batch-budget-ms", "2500")).batchBudget()).isEqualTo(Duration.ofMillis(2_500));
        assertThat(WorkerSettings.from(config("feed.pool-max", "500")).batchBudget()).isEqualTo(Duration.ofSeconds(15));
    }

    @Test
    void aBatchBudgetOfNothingIsRefusedNamingItsKey() {
        for (String bad : new String[] {"0", "-1"}) {
            assertThatThrownBy(() -> WorkerSettings.from(config("feed.worker.batch-budget-ms", bad)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("feed.worker.batch-budget-ms must be > 0");
        }
    }
}
