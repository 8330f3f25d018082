package dev.pinfeed.idallocator.cli;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.idallocator.IdSettings;
import dev.pinfeed.idallocator.LocalIdBlock;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.SequenceStore;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.idallocator.TimeSortableId;
import dev.pinfeed.idallocator.TimeSortableLayout;
import dev.pinfeed.idallocator.mysql.MysqlSequenceStore;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ./pinfeed id ...}. Exit codes: 0 done, 2 bad input (reason on stderr, one line), 1 could not do it
 * (store unreachable, bad configuration). {@code --help} on any command prints its usage and does nothing else.
 */
@Command(name = "pinfeed id", mixinStandardHelpOptions = true, version = "pinfeed id",
        description = "Decodes and leases pinfeed ids.",
        subcommands = {IdCli.Decode.class, IdCli.New.class, IdCli.Epoch.class, IdCli.Types.class, CommandLine.HelpCommand.class})
public final class IdCli implements Callable<Integer> {

    static final int OK = Cli.OK;
    static final int FAILED = Cli.FAILED;
    static final int BAD_INPUT = Cli.USAGE;

    private final PrintStream out;
    private final PrintStream err;
    private final Supplier<PinfeedConfig> config;
    private final Function<PinfeedConfig, SequenceStore> stores;

    @Spec CommandSpec spec;

    public IdCli(PrintStream out, PrintStream err, Supplier<PinfeedConfig> config, Function<PinfeedConfig, SequenceStore> stores) {
        this.out = out;
        this.err = err;
        this.config = config;
        this.stores = stores;
    }

    public static void main(String[] args) {
        if (System.getProperty("log4j2.configurationFile") == null) {
            System.setProperty("log4j2.configurationFile", "log4j2-id-cli.xml");
        }
        System.exit(new IdCli(System.out, System.err, PinfeedConfig::load, MysqlSequenceStore::from).run(args));
    }

    public int run(String... args) {
        CommandLine cmd = Cli.commandLine(this, out, err);
        // "decode -5" is an id to reject with a reason, not an unknown option.
        cmd.getSubcommands().get("decode").setUnmatchedOptionsArePositionalParams(true);
        return Cli.execute(cmd, args);
    }

    /** No command: the usage, as a usage error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return BAD_INPUT;
    }

    /** Base of the commands: output in the {@code key=value} form scripts read. */
    abstract static class Sub implements Callable<Integer> {
        @ParentCommand IdCli cli;
        @Spec CommandSpec spec;

        PrintWriter out() {
            return spec.commandLine().getOut();
        }

        void print(String key, Object value) {
            out().println(key + "=" + value);
        }
    }

    @Command(name = "decode", mixinStandardHelpOptions = true,
            description = {"Shard, type, typeName, localId of a sharded id;", "with --time: timestamp, logical shard, sequence of a time-sortable id."})
    static final class Decode extends Sub {
        @Option(names = "--time", description = "Decode a time-sortable id (the configured epoch).") boolean time;
        @Parameters(arity = "0..*", paramLabel = "ID") List<String> ids;

        @Override
        public Integer call() {
            if (ids == null || ids.size() != 1) throw Cli.usage(spec, "decode takes exactly one id");
            String text = ids.get(0);
            if (time) {
                TimeSortableLayout layout = IdSettings.from(cli.config.get()).timeLayout();
                TimeSortableId id = layout.parse(text);
                print("id", Long.toUnsignedString(id.id()));
                print("timestamp", id.timestamp());
                print("millisSinceEpoch", id.millisSinceEpoch());
                print("shard", id.shard());
                print("sequence", id.sequence());
            } else {
                ShardedId id = ShardedId.parse(text);
                print("id", id.value());
                print("shard", id.shard());
                print("type", id.typeId());
                print("typeName", id.typeName());
                print("localId", id.localId());
            }
            return OK;
        }
    }

    @Command(name = "new", mixinStandardHelpOptions = true, description = "Leases new sharded ids from the shard's MySQL database.")
    static final class New extends Sub {
        @Option(names = "--type", paramLabel = "TYPE", description = "Object type (pinfeed id types lists them).") String type;
        @Option(names = "--shard", paramLabel = "N", description = "Logical shard.") Integer shard;
        @Option(names = "--count", paramLabel = "N", description = "How many, 1-10000 (default: ${DEFAULT-VALUE}).", defaultValue = "1") int count;

        @Override
        public Integer call() {
            if (type == null || shard == null) throw Cli.usage(spec, "new needs --type <type> and --shard <n>");
            ObjectType objectType = ObjectType.byName(type);
            if (count < 1 || count > 10_000) throw Cli.usage(spec, "--count " + count + " is out of range 1-10000");
            ShardedId.compose(shard, objectType, ShardedId.MIN_LOCAL_ID); // reject a bad shard before connecting
            try (SequenceStore store = cli.stores.apply(cli.config.get())) {
                LocalIdBlock block = store.lease(shard, objectType.id(), count);
                for (long local = block.start(); local < block.end(); local++) out().println(ShardedId.compose(shard, objectType, local));
            }
            return OK;
        }
    }

    @Command(name = "epoch", aliases = "time-layout", mixinStandardHelpOptions = true,
            description = "The time layout's epoch and when its 41 bits run out.")
    static final class Epoch extends Sub {
        @Override
        public Integer call() {
            TimeSortableLayout layout = IdSettings.from(cli.config.get()).timeLayout();
            print("epoch", layout.epoch());
            print("negativeAsSignedFrom", layout.signBitReachedAt());
            print("exhaustedAt", layout.exhaustedAt());
            print("idsPerMsPerShard", TimeSortableLayout.SEQUENCES_PER_MILLI);
            print("logicalShards", TimeSortableLayout.MAX_SHARD + 1);
            return OK;
        }
    }

    @Command(name = "types", mixinStandardHelpOptions = true, description = "The type registry.")
    static final class Types extends Sub {
        @Override
        public Integer call() {
            for (ObjectType t : ObjectType.values()) out().println(t.id() + "\t" + t.typeName());
            return OK;
        }
    }
}
