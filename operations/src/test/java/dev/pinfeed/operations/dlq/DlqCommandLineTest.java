package dev.pinfeed.operations.dlq;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.operations.OperationsCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A bad command line is refused in one line, exit 2, before anything is read or connected. */
class DlqCommandLineTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "dlq|say what to do: list, show, redrive, purge",
            "dlq show 7|bad dead-letter id '7'",
            "dlq show|missing required parameter: 'ID'",
            "dlq redrive|say which dead letters: --reason R",
            "dlq redrive --processor pinfeed-materializer|say which dead letters",
            "dlq redrive --ids 0:1 --reason invalid|--ids selects exactly its dead letters",
            "dlq redrive --reason missing-refrence|no reason 'missing-refrence'; did you mean 'missing-reference'?",
            "dlq redrive --ids 0:1,zero|bad dead-letter id 'zero'",
            "dlq redrive --reason invalid --since yesterday|bad TIME 'yesterday'",
            "dlq list --since 2026-11-28T10:00|bad TIME",
            "dlq purge|missing required option: '--before=TIME'",
            "dlq purge --before soon|bad TIME 'soon'",
            "dlq lsit|unknown command 'lsit'; did you mean 'list'?"})
    void isAUsageErrorWithoutLoadingTheConfiguration(String line, String message) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OperationsCli.run(() -> {
            throw new AssertionError("a bad command line must not load the configuration");
        }, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                line.split(" "));
        String printed = err.toString(StandardCharsets.UTF_8);
        assertThat(code).as(printed).isEqualTo(2);
        assertThat(printed).contains(message);
        assertThat(printed.lines()).hasSize(1);
    }
}
