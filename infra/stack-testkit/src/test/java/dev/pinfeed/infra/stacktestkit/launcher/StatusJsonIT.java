package dev.pinfeed.infra.stacktestkit.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.infra.stack.StackCli;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code ./pinfeed status --json} against the shared stack (servers only; read-only). */
@ExtendWith(StackExtension.class)
class StatusJsonIT {

    @Test
    void everyServerIsUpWithPidAndMemory(TestStack stack) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int code = StackCli.run(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                "status", "--json", "--servers");

        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(code).isZero();
        JsonNode rows = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
        List<String> names = new ArrayList<>();
        rows.forEach(r -> names.add(r.get("name").asText()));
        assertThat(names).containsExactlyElementsOf(stack.servers().serverNames());
        for (JsonNode row : rows) {
            assertThat(row.fieldNames()).toIterable()
                    .containsExactly("name", "role", "endpoint", "state", "pid", "rssMb", "detail", "expected");
            if (stack.servers().appNames().contains(row.get("name").asText())) {
                assertThat(row.get("state").asText()).isIn("up", "sick", "down");
                continue;
            }
            assertThat(row.get("state").asText()).as(row.toString()).isEqualTo("up");
            assertThat(row.get("expected").asBoolean()).isTrue();
            assertThat(row.get("pid").asLong()).isPositive();
            assertThat(row.get("rssMb").asLong()).as(row.toString()).isPositive();
            assertThat(row.get("endpoint").asText()).isNotBlank();
        }
    }

    @Test
    void theTableSaysTheSame(TestStack stack) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = StackCli.run(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream()),
                "status", "--servers");
        assertThat(code).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("SERVER").contains("kafka", "hbase-primary", "total RSS");
    }
}
