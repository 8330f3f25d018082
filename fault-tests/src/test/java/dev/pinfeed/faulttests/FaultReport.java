package dev.pinfeed.faulttests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;

/**
 * One results line per fault, printed and appended to {@code target/fault-results.md} (a row of the
 * table in docs/benchmarks.md): fault, outage duration, reads attempted and answered during the
 * fault, availability, p99 during the fault, writes acknowledged, writes found afterwards, notes.
 */
record FaultReport(String fault, double downSeconds, long readsAttempted, long readsOk, double p99Ms, long writesAcknowledged,
                   long writesFound, String notes) {

    static FaultReport of(String fault, Outage outage, List<Samples.Sample> readsDuringFault, int okStatus, long acknowledged, long found,
                          String notes) {
        return new FaultReport(fault, outage.downFor().toMillis() / 1000.0, readsDuringFault.size(), Samples.count(readsDuringFault, okStatus),
                Samples.percentileMs(readsDuringFault, 99), acknowledged, found, notes);
    }

    double availability() {
        return readsAttempted == 0 ? Double.NaN : 100.0 * readsOk / readsAttempted;
    }

    String row() {
        return String.format(Locale.ROOT, "| %s | %.1f s | %d | %d | %.3f %% | %.0f ms | %d | %d | %s |", fault, downSeconds, readsAttempted, readsOk,
                availability(), p99Ms, writesAcknowledged, writesFound, notes);
    }

    void publish() {
        String row = row();
        System.out.println("FAULT-RESULT " + row);
        try {
            Path file = Path.of("target", "fault-results.md");
            Files.createDirectories(file.getParent());
            Files.writeString(file, row + System.lineSeparator(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            System.err.println("[fault] could not append to target/fault-results.md: " + e);
        }
    }
}
