package dev.pinfeed.materializer;

import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** An IT on the shared stack with a fresh {@link Fixture} (topics, group, ids) per test. */
@ExtendWith(StackExtension.class)
abstract class FixtureIT {

    protected Fixture f;

    @BeforeEach
    void openFixture(TestStack stack) throws Exception {
        f = new Fixture(stack);
    }

    @AfterEach
    void closeFixture() {
        f.close();
    }
}
