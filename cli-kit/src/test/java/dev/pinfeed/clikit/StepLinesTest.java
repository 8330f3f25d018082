package dev.pinfeed.clikit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class StepLinesTest {

    private String run(Progress.Mode mode) {
        StringWriter text = new StringWriter();
        try (StepLines lines = new StepLines(new PrintWriter(text), mode, "[p] ")) {
            lines.step("old master does not answer");
            lines.waiting("waiting: 1 s of 30 s");
            lines.waiting("waiting: 3 s of 30 s");
            lines.step("replica promoted");
            lines.waiting("waiting: 5 s of 30 s");
        }
        return text.toString().replace(System.lineSeparator(), "\n");
    }

    @Test
    void onATerminalEachWaitLineReplacesTheOneBefore() {
        assertThat(run(Progress.Mode.TTY)).isEqualTo("[p] old master does not answer\n"
                + "\r[p] waiting: 1 s of 30 s\033[K\r[p] waiting: 3 s of 30 s\033[K\n"
                + "[p] replica promoted\n"
                + "\r[p] waiting: 5 s of 30 s\033[K\n");
    }

    @Test
    void elsewhereEveryLineStays() {
        assertThat(run(Progress.Mode.PLAIN)).isEqualTo("[p] old master does not answer\n[p] waiting: 1 s of 30 s\n"
                + "[p] waiting: 3 s of 30 s\n[p] replica promoted\n[p] waiting: 5 s of 30 s\n");
    }
}
