package dev.pinfeed.operations.provision;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.operations.OperationsCli;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code ./pinfeed provision}: infra/definitions applied to the clusters the configuration names. */
@Command(name = "provision", mixinStandardHelpOptions = true,
        description = "Applies infra/definitions (topics, HBase tables and replication, shard databases, znodes) to the clusters PINFEED_CONFIG names. Idempotent.")
public final class ProvisionCommand implements Callable<Integer> {

    @ParentCommand OperationsCli root;
    @Spec CommandSpec spec;

    @Option(names = "--definitions", paramLabel = "DIR",
            description = "The definitions directory (default: infra/definitions of the pinfeed checkout).")
    Path definitions;

    @Option(names = "--only", paramLabel = "PARTS",
            description = "Only these parts, comma-separated: topics, registry, hbase, znodes, mysql (default: all, in that order).")
    String only;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Path dir = definitions != null ? definitions : defaultDefinitions();
        if (!Files.isDirectory(dir)) throw Cli.usage(spec, "no definitions directory " + dir + " (--definitions DIR)");
        Set<Provisioner.Part> parts;
        try {
            parts = only == null ? EnumSet.allOf(Provisioner.Part.class) : Provisioner.Part.parse(only);
        } catch (IllegalArgumentException e) {
            throw Cli.usage(spec, "--only: " + e.getMessage());
        }
        PinfeedConfig config = root.config();
        out.println("provisioning against " + config.source());
        new Provisioner(config, dir, line -> {
            out.println("[pinfeed] " + line);
            out.flush();
        }).apply(parts);
        return Cli.OK;
    }

    /** {@code <pinfeed.root or PINFEED_ROOT or the working directory>/infra/definitions}. */
    public static Path defaultDefinitions() {
        return OperationsCli.home().resolve("infra").resolve("definitions");
    }
}
