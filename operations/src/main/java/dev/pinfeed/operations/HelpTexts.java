package dev.pinfeed.operations;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;

/**
 * The help of each top-level operations command is one plain-text file,
 * {@code src/main/resources/dev/pinfeed/operations/help/<command>.txt}: {@code ./pinfeed COMMAND --help} prints
 * it straight from the source tree (no build, nothing started) and {@code --help} of the built command prints
 * the same text. {@code HelpTextsTest} keeps each file and its command's options in step.
 */
public final class HelpTexts {

    static final String DIR = "help/";
    private static final String SECTION = "pinfeed-help";

    private HelpTexts() {}

    /** The help text of {@code command}, if it has a file. */
    public static Optional<String> of(String command) {
        try (InputStream in = HelpTexts.class.getResourceAsStream(DIR + command + ".txt")) {
            return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Makes each top-level subcommand of {@code root} that has a help file print that file as its usage. */
    static void install(CommandLine root) {
        root.getSubcommands().forEach((name, sub) -> of(name).ifPresent(text -> {
            CommandLine.Model.UsageMessageSpec usage = sub.getCommandSpec().usageMessage();
            usage.sectionKeys(List.of(SECTION));
            usage.sectionMap(Map.of(SECTION, help -> text));
        }));
    }
}
