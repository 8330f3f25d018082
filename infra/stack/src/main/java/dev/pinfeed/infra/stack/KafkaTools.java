package dev.pinfeed.infra.stack;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Kafka's own command-line tools, run from the broker's classpath against the stack's bootstrap server. */
final class KafkaTools {

    static final Map<String, String> MAIN_CLASSES = new TreeMap<>(Map.of(
            "consumer-groups", "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
            "topics", "org.apache.kafka.tools.TopicCommand",
            "get-offsets", "org.apache.kafka.tools.GetOffsetShell",
            "console-consumer", "org.apache.kafka.tools.consumer.ConsoleConsumer",
            "console-producer", "org.apache.kafka.tools.ConsoleProducer"));

    private KafkaTools() {}

    /** The tool's arguments with {@code --bootstrap-server} added when the caller gave none. */
    static List<String> withBootstrap(List<String> args, String bootstrap) {
        List<String> all = new ArrayList<>(args);
        boolean given = args.stream().anyMatch(a -> a.equals("--bootstrap-server") || a.startsWith("--bootstrap-server="));
        if (!given) {
            all.add("--bootstrap-server");
            all.add(bootstrap);
        }
        return all;
    }

    static List<String> command(StackLayout layout, String tool, List<String> args, String bootstrap) {
        String main = MAIN_CLASSES.get(tool);
        return JavaCommand.withHeap("256m")
                .logTo(layout.logFile("kafka-tools.log"), "WARN", Log4jConfig.SERVERS.write(layout))
                .run(layout.classpathOf("infra/kafka-server"), main, withBootstrap(args, bootstrap).toArray(String[]::new));
    }
}
