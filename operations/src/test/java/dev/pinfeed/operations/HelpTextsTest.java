package dev.pinfeed.operations;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** Each top-level command's help file and the command's options stay in step, and --help prints the file. */
class HelpTextsTest {

    private static final Pattern LONG_OPTION = Pattern.compile("(?<![\\w-])--[a-z][a-z0-9-]*");
    private static final Set<String> STANDARD = Set.of("--help", "--version");

    private static CommandLine root() {
        CommandLine cmd = new CommandLine(new OperationsCli(() -> {
            throw new AssertionError("help must not load the configuration");
        }));
        HelpTexts.install(cmd);
        return cmd;
    }

    @Test
    void everyTopLevelCommandHasAHelpFileNamingExactlyItsOptions() {
        root().getSubcommands().forEach((name, sub) -> {
            if (name.equals("help")) return;
            String text = HelpTexts.of(name).orElseThrow(() -> new AssertionError("no help file for " + name));
            Set<String> declared = new TreeSet<>();
            collect(sub, declared);
            declared.removeAll(STANDARD);
            Set<String> mentioned = new TreeSet<>();
            Matcher m = LONG_OPTION.matcher(text);
            while (m.find()) mentioned.add(m.group());
            mentioned.removeAll(STANDARD);
            assertThat(mentioned).as("options the help file of %s names", name).isEqualTo(declared);
            assertThat(text).as(name).startsWith("usage: ./pinfeed " + name);
        });
    }

    @Test
    void helpPrintsTheFileWithoutLoadingAnything() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = OperationsCli.run(() -> {
            throw new AssertionError("help must not load the configuration");
        }, new PrintStream(out, true, StandardCharsets.UTF_8), System.err, "verify", "--help");
        assertThat(code).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(HelpTexts.of("verify").orElseThrow());
    }

    private static void collect(CommandLine cmd, Set<String> into) {
        for (OptionSpec o : cmd.getCommandSpec().options()) {
            List<String> longNames = new ArrayList<>();
            for (String n : o.names()) if (n.startsWith("--")) longNames.add(n);
            into.addAll(longNames);
        }
        cmd.getSubcommands().values().forEach(sub -> collect(sub, into));
    }
}
