package dev.pinfeed.processorruntime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.ConfigurationFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One switch turns every process's log lines into JSON objects; without it they stay text. */
class LogFormatTest {

    private final String propertyBefore = System.getProperty(LogFormat.PROPERTY);

    @AfterEach
    void restoreTheSwitch() {
        if (propertyBefore == null) System.clearProperty(LogFormat.PROPERTY);
        else System.setProperty(LogFormat.PROPERTY, propertyBefore);
    }

    @Test
    void thePropertyWinsOverTheEnvironmentAndTextIsTheDefault() {
        assertThat(LogFormat.of(null, null)).isEqualTo(LogFormat.TEXT);
        assertThat(LogFormat.of(null, "json")).isEqualTo(LogFormat.JSON);
        assertThat(LogFormat.of("JSON", null)).isEqualTo(LogFormat.JSON);
        assertThat(LogFormat.of("text", "json")).isEqualTo(LogFormat.TEXT);
        assertThatThrownBy(() -> LogFormat.of(null, "xml")).hasMessage("PINFEED_LOG_FORMAT must be text or json: 'xml'");
    }

    @Test
    void withTheSwitchALogCallIsOneJsonObjectOnStdout() throws Exception {
        LogFormat.JSON.select();

        List<String> lines = linesOf(System.out, () -> log("fan-out of pin {} took {} ms", 42, 7));

        assertThat(lines).hasSize(1);
        JsonNode line = new ObjectMapper().readTree(lines.get(0));
        assertThat(line.path("message").asText()).isEqualTo("fan-out of pin 42 took 7 ms");
        assertThat(line.path("log.level").asText()).isEqualTo("INFO");
        assertThat(line.path("log.logger").asText()).isEqualTo("dev.pinfeed.logformat");
    }

    @Test
    void withoutItTheLineIsTextOnStderr() {
        LogFormat.TEXT.select();

        List<String> lines = linesOf(System.err, () -> log("fan-out of pin {} took {} ms", 42, 7));

        assertThat(lines).singleElement().asString().matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  logformat - fan-out of pin 42 took 7 ms");
    }

    /** Logs through a context of its own built from the processes' configuration, read after the switch was set. */
    private static void log(String format, Object... args) {
        LoggerContext context = new LoggerContext("log-format-test");
        try {
            context.start(ConfigurationFactory.getInstance().getConfiguration(context, "log4j2-pinfeed",
                    ProcessMain.class.getResource("/log4j2-pinfeed.xml").toURI()));
            context.getLogger("dev.pinfeed.logformat").info(format, args);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        } finally {
            context.stop();
        }
    }

    /** The lines {@code action} writes to {@code stream} (System.out or System.err), captured. */
    private static List<String> linesOf(PrintStream stream, Runnable action) {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8);
        boolean out = stream == System.out;
        if (out) System.setOut(capture);
        else System.setErr(capture);
        try {
            action.run();
        } finally {
            if (out) System.setOut(stream);
            else System.setErr(stream);
        }
        return captured.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
