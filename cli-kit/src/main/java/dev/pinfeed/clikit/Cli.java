package dev.pinfeed.clikit;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The conventions every pinfeed command line follows (picocli underneath): {@code --help} prints usage and
 * does nothing else; exit 0 when done, 1 when it failed (or found something unhealthy), 2 on a usage error;
 * every error is one line on stderr, and a mistyped command, option or name gets the closest match.
 */
public final class Cli {

    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int USAGE = 2;
    /** Stopped by Ctrl-C or SIGTERM at a consistent point ({@link Interruption}): 128 + SIGINT, as a shell reports it. */
    public static final int INTERRUPTED = 130;

    private Cli() {}

    /** Parses and runs {@code command} (a picocli {@code @Command} object); returns the exit code. */
    public static int execute(Object command, PrintStream out, PrintStream err, String... args) {
        return execute(commandLine(command, out, err), args);
    }

    /** Runs a command line made by {@link #commandLine} and flushes its output (callers System.exit right after). */
    public static int execute(CommandLine cmd, String... args) {
        try {
            return cmd.execute(args);
        } finally {
            cmd.getOut().flush();
            cmd.getErr().flush();
        }
    }

    /** A picocli CommandLine with pinfeed's error handling and exit codes, printing to the given streams. */
    public static CommandLine commandLine(Object command, PrintStream out, PrintStream err) {
        CommandLine cmd = new CommandLine(command);
        cmd.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        cmd.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        cmd.setExitCodeExceptionMapper(e -> e instanceof IllegalArgumentException ? USAGE : FAILED);
        cmd.setParameterExceptionHandler((e, args) -> {
            CommandLine at = e.getCommandLine();
            at.getErr().println(name(at) + ": " + describe(e) + " (" + name(at) + " --help)");
            return USAGE;
        });
        cmd.setExecutionExceptionHandler((e, at, parsed) -> {
            at.getErr().println(name(at) + ": " + firstLine(e));
            return e instanceof IllegalArgumentException ? USAGE : FAILED;
        });
        return cmd;
    }

    /** A usage error raised by a command's own checks: reported like picocli's own (exit 2, one line). */
    public static CommandLine.ParameterException usage(CommandSpec spec, String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    /**
     * "unknown NAME 'x'; did you mean 'y'?" when {@code typed} is not among {@code known}: for free-form
     * names (servers, tools) checked by the command itself.
     */
    public static IllegalArgumentException unknown(String what, String typed, Collection<String> known) {
        return new IllegalArgumentException("no " + what + " '" + typed + "'" + didYouMean(typed, known)
                + " (" + what + "s: " + String.join(", ", known) + ")");
    }

    /** "; did you mean 'x'?" for the closest candidate within a few edits, else empty. */
    public static String didYouMean(String typed, Collection<String> candidates) {
        return closest(typed, candidates).map(c -> "; did you mean '" + c + "'?").orElse("");
    }

    /** The candidate with the fewest edits from {@code typed}, if it is close enough to be a typo of it. */
    public static Optional<String> closest(String typed, Collection<String> candidates) {
        String t = typed.toLowerCase(Locale.ROOT);
        return candidates.stream()
                .filter(c -> !c.equals(typed))
                .min(Comparator.comparingInt((String c) -> distance(t, c.toLowerCase(Locale.ROOT))).thenComparing(c -> c))
                .filter(c -> distance(t, c.toLowerCase(Locale.ROOT)) <= Math.max(2, Math.min(t.length(), c.length()) / 3)
                        || c.toLowerCase(Locale.ROOT).startsWith(t) && t.length() >= 3);
    }

    /** Levenshtein distance, counting a swap of two neighbours as one edit ("staus"/"stauts" → "status"). */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) d[i][0] = i;
        for (int j = 0; j <= b.length(); j++) d[0][j] = j;
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    /**
     * One line for the user: our own exceptions' message (it says what failed, in words), else the root
     * cause's type and first line (client exceptions, HBase's especially, carry whole remote stack traces).
     */
    public static String firstLine(Throwable e) {
        if (isOurs(e) && e.getMessage() != null && !e.getMessage().isBlank()) return firstLineOf(e.getMessage());
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        String msg = root.getMessage() == null ? "" : firstLineOf(root.getMessage());
        return (root.getClass().getSimpleName() + ": " + msg).trim();
    }

    private static String firstLineOf(String msg) {
        int nl = msg.indexOf('\n');
        return (nl < 0 ? msg : msg.substring(0, nl)).trim();
    }

    private static boolean isOurs(Throwable e) {
        return e instanceof IllegalArgumentException || e instanceof IllegalStateException
                || e.getClass().getName().startsWith("dev.pinfeed.");
    }

    private static String name(CommandLine at) {
        return at.getCommandSpec().qualifiedName();
    }

    private static String describe(CommandLine.ParameterException e) {
        if (!(e instanceof CommandLine.UnmatchedArgumentException u) || u.getUnmatched().isEmpty()) {
            return lowerFirst(e.getMessage());
        }
        String typed = u.getUnmatched().get(0);
        CommandSpec spec = e.getCommandLine().getCommandSpec();
        if (typed.startsWith("-")) {
            String option = typed.contains("=") ? typed.substring(0, typed.indexOf('=')) : typed;
            List<String> names = new ArrayList<>();
            for (OptionSpec o : spec.options()) names.addAll(List.of(o.names()));
            return "unknown option " + option + didYouMean(option, names);
        }
        if (!spec.subcommands().isEmpty()) {
            return "unknown command '" + typed + "'" + didYouMean(typed, spec.subcommands().keySet());
        }
        return "unexpected argument '" + typed + "'";
    }

    private static String lowerFirst(String s) {
        if (s == null || s.isEmpty()) return "bad command line";
        String line = s.lines().findFirst().orElse(s);
        return Character.toLowerCase(line.charAt(0)) + line.substring(1);
    }
}
