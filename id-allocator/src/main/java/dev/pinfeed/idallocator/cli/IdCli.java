package dev.pinfeed.idallocator.cli;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.idallocator.IdSettings;
import dev.pinfeed.idallocator.InvalidIdException;
import dev.pinfeed.idallocator.LocalIdBlock;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.SequenceStore;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.idallocator.TimeSortableId;
import dev.pinfeed.idallocator.TimeSortableLayout;
import dev.pinfeed.idallocator.mysql.MysqlSequenceStore;
import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code ./pinfeed id ...}. Exit codes: 0 done, 2 bad input (reason on stderr), 1 could not do it
 * (store unreachable, bad configuration).
 */
public final class IdCli {

    static final int OK = 0;
    static final int FAILED = 1;
    static final int BAD_INPUT = 2;

    static final String USAGE = String.join("\n",
            "usage: pinfeed id <command>",
            "  decode <id>                               shard, type, typeName, localId of a sharded id",
            "  decode --time <id>                        timestamp, logical shard, sequence of a time-sortable id",
            "  new --type <type> --shard <n> [--count <n>]  lease new sharded ids from the shard's MySQL database",
            "  epoch                                     the time layout's epoch and when its 41 bits run out",
            "  types                                     the type registry");

    private final PrintStream out;
    private final PrintStream err;
    private final Supplier<PinfeedConfig> config;
    private final Function<PinfeedConfig, SequenceStore> stores;

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
        Deque<String> rest = new ArrayDeque<>(Arrays.asList(args));
        String command = rest.poll();
        try {
            if (command == null || command.equals("help") || command.equals("--help")) {
                out.println(USAGE);
                return command == null ? BAD_INPUT : OK;
            }
            switch (command) {
                case "decode" -> decode(rest);
                case "new" -> newIds(rest);
                case "epoch", "time-layout" -> epoch(expectNoMore(rest));
                case "types" -> types(expectNoMore(rest));
                default -> throw new UsageException("unknown command '" + command + "'");
            }
            return OK;
        } catch (UsageException e) {
            err.println("pinfeed id: " + e.getMessage() + " (pinfeed id help for usage)");
            return BAD_INPUT;
        } catch (IllegalArgumentException e) { // InvalidIdException and shards outside the shard map
            err.println("pinfeed id: " + e.getMessage());
            return BAD_INPUT;
        } catch (RuntimeException e) {
            err.println("pinfeed id: " + e.getMessage());
            return FAILED;
        }
    }

    private void decode(Deque<String> args) {
        boolean time = args.remove("--time");
        if (args.size() != 1) throw new UsageException("decode takes exactly one id");
        String text = args.poll();
        if (time) {
            TimeSortableLayout layout = IdSettings.from(config.get()).timeLayout();
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
    }

    private void newIds(Deque<String> args) {
        Map<String, String> options = options(args, "--type", "--shard", "--count");
        if (!options.containsKey("--type") || !options.containsKey("--shard")) {
            throw new UsageException("new needs --type <type> and --shard <n>");
        }
        ObjectType type = ObjectType.byName(options.get("--type"));
        int shard = intOption(options, "--shard", -1);
        int count = intOption(options, "--count", 1);
        if (count < 1 || count > 10_000) throw new UsageException("--count " + count + " is out of range 1-10000");
        ShardedId.compose(shard, type, ShardedId.MIN_LOCAL_ID); // reject a bad shard before connecting
        try (SequenceStore store = stores.apply(config.get())) {
            LocalIdBlock block = store.lease(shard, type.id(), count);
            for (long local = block.start(); local < block.end(); local++) out.println(ShardedId.compose(shard, type, local));
        }
    }

    private void epoch(Deque<String> unused) {
        TimeSortableLayout layout = IdSettings.from(config.get()).timeLayout();
        print("epoch", layout.epoch());
        print("negativeAsSignedFrom", layout.signBitReachedAt());
        print("exhaustedAt", layout.exhaustedAt());
        print("idsPerMsPerShard", TimeSortableLayout.SEQUENCES_PER_MILLI);
        print("logicalShards", TimeSortableLayout.MAX_SHARD + 1);
    }

    private void types(Deque<String> unused) {
        for (ObjectType t : ObjectType.values()) out.println(t.id() + "\t" + t.typeName());
    }

    private void print(String key, Object value) {
        out.println(key + "=" + value);
    }

    private static Deque<String> expectNoMore(Deque<String> args) {
        if (!args.isEmpty()) throw new UsageException("unexpected argument '" + args.peek() + "'");
        return args;
    }

    private static Map<String, String> options(Deque<String> args, String... known) {
        Map<String, String> options = new HashMap<>();
        while (!args.isEmpty()) {
            String name = args.poll();
            if (!Arrays.asList(known).contains(name)) throw new UsageException("unknown option '" + name + "'");
            String value = args.poll();
            if (value == null) throw new UsageException(name + " needs a value");
            options.put(name, value);
        }
        return options;
    }

    private static int intOption(Map<String, String> options, String name, int fallback) {
        String value = options.get(name);
        if (value == null) return fallback;
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new InvalidIdException(name + " '" + value + "' is not an integer");
        }
    }

    /** Wrong command line shape; reported with a pointer to the usage text. */
    private static final class UsageException extends IllegalArgumentException {
        UsageException(String message) {
            super(message);
        }
    }
}
