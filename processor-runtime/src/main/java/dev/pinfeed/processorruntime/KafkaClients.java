package dev.pinfeed.processorruntime;

import dev.pinfeed.config.PinfeedConfig;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Every Kafka client setting pinfeed uses, in one place: the processors' consumers, the durable
 * producers (ingest's publisher, dead letters, the fan-out chunks), admin clients and Kafka Streams.
 *
 * <p>The deployment adds any Kafka client property without code (security above all): {@value #ALL_CLIENTS}{@code <property>}
 * reaches every client, {@code kafka.producer.}, {@code kafka.consumer.}, {@code kafka.admin.} or
 * {@code kafka.streams.}{@code <property>} one kind and wins over the former; both win over pinfeed's
 * tunable defaults below. The settings pinfeed's guarantees rest on ({@link #PROTECTED}) cannot be passed
 * through: trying is a configuration error, not a silent override.
 */
public final class KafkaClients {

    /** Key of the per-replica instance name: distinct for every replica of one processor (default "0"). */
    public static final String INSTANCE = "processor.instance";

    /** Prefix of the properties passed to every Kafka client. */
    public static final String ALL_CLIENTS = "kafka.client.";

    /** The kinds of client, each with the prefix of the properties passed to it alone. */
    enum Kind {
        PRODUCER("kafka.producer."), CONSUMER("kafka.consumer."), ADMIN("kafka.admin."), STREAMS("kafka.streams.");

        final String prefix;

        Kind(String prefix) {
            this.prefix = prefix;
        }
    }

    /**
     * Properties no pass-through may set, and why: the endpoint has its own key ({@code kafka.bootstrap});
     * no lost or duplicated record (acks, idempotence, transactions, exactly-once); offsets committed only
     * by the loop after the records were applied, uncommitted transactions never read; the group and
     * application ids name the consumers' state. Kafka Streams' per-client forms ({@code producer.acks},
     * {@code main.consumer.isolation.level}, …) count as the same property.
     */
    static final Set<String> PROTECTED = Set.of(
            "bootstrap.servers",
            ProducerConfig.ACKS_CONFIG, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, ProducerConfig.TRANSACTIONAL_ID_CONFIG,
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, ConsumerConfig.ISOLATION_LEVEL_CONFIG, ConsumerConfig.GROUP_ID_CONFIG,
            "processing.guarantee", "application.id");

    /** Kafka Streams' prefixes addressing one of its embedded clients (StreamsConfig's; this module does not link Streams). */
    private static final List<String> STREAMS_CLIENT_PREFIXES = List.of("main.consumer.", "restore.consumer.", "global.consumer.",
            "consumer.", "producer.", "admin.");

    private KafkaClients() {}

    /**
     * {@code settings} with the configured pass-through for {@code kind} on top: {@value #ALL_CLIENTS}* first,
     * then the kind's own. Throws {@link IllegalStateException} naming the key that tries to set a
     * {@link #PROTECTED} property — whichever client is being built, so a bad key fails every process at start.
     */
    static Properties withPassThrough(PinfeedConfig config, Kind kind, Properties settings) {
        Map<String, String> own = Map.of();
        for (Kind k : Kind.values()) {
            Map<String, String> checked = checkedPassThrough(config, k.prefix); // every kind's keys checked, used or not
            if (k == kind) own = checked;
        }
        settings.putAll(checkedPassThrough(config, ALL_CLIENTS));
        settings.putAll(own);
        return settings;
    }

    private static Map<String, String> checkedPassThrough(PinfeedConfig config, String prefix) {
        Map<String, String> values = config.withPrefix(prefix);
        for (String property : values.keySet()) {
            String plain = property;
            for (String clientPrefix : STREAMS_CLIENT_PREFIXES) {
                if (plain.startsWith(clientPrefix)) {
                    plain = plain.substring(clientPrefix.length());
                    break;
                }
            }
            if (PROTECTED.contains(plain)) {
                throw new IllegalStateException("configuration key '" + prefix + property + "' sets '" + plain
                        + "', which pinfeed fixes itself and cannot be overridden" + (plain.equals("bootstrap.servers") ? ": use kafka.bootstrap" : ""));
            }
        }
        return values;
    }

    /**
     * A processor's consumer: offsets committed by the loop only after the records before them were
     * applied (never auto-commit), committed transactions only, a new group reads the whole history.
     * Static membership ({@code group.instance.id}): a replica restarted with the same instance name
     * gets its partitions back at once instead of waiting out a rebalance (measured before this: ~45 s
     * in "(Re-)joining group" after a kill -9); a replica that never returns loses them after the
     * session timeout.
     */
    public static Properties consumer(PinfeedConfig config, String groupId) {
        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.kafkaBootstrap());
        c.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        String instance = groupId + "-" + config.get(INSTANCE, "0");
        c.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instance);
        c.put(ConsumerConfig.CLIENT_ID_CONFIG, instance);
        c.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, Integer.toString(config.getInt("processor.session-timeout-ms", 30_000)));
        c.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "3000");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(config.getInt("processor.max-poll-records", 500)));
        // A batch waiting on a slow store must not cost the partitions: the loop parks instead of blocking.
        c.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, "300000");
        return withPassThrough(config, Kind.CONSUMER, c);
    }

    /**
     * A consumer outside any group (rebuilds, verification, tests that read a topic back): assigned
     * partitions, never commits.
     */
    public static Properties reader(PinfeedConfig config) {
        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.kafkaBootstrap());
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        return withPassThrough(config, Kind.CONSUMER, c);
    }

    /**
     * A durable producer: acks=all and idempotence, so a broker retry never duplicates or reorders a
     * key's records; small linger so concurrent sends share a round trip; a full buffer fails fast
     * (max.block.ms 1 s) instead of blocking a request thread; Kafka gives up on a record (25 s)
     * before callers stop waiting (30 s), so a failed send is reported by Kafka itself.
     */
    public static Properties producer(PinfeedConfig config, String clientId) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.kafkaBootstrap());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "2");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(128 * 1024));
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "1000");
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "15000");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "25000");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        return withPassThrough(config, Kind.PRODUCER, p);
    }

    /** An admin client. */
    public static Properties admin(PinfeedConfig config) {
        Properties p = new Properties();
        p.put("bootstrap.servers", config.kafkaBootstrap());
        p.put("request.timeout.ms", "10000");
        p.put("default.api.timeout.ms", "15000");
        return withPassThrough(config, Kind.ADMIN, p);
    }

    /**
     * A Kafka Streams application: {@code settings} (the application's own: id, guarantee, topology
     * settings) on the configured cluster. Streams hands unprefixed client properties, such as the
     * security settings, to each client it embeds.
     */
    public static Properties streams(PinfeedConfig config, Properties settings) {
        Properties p = new Properties();
        p.put("bootstrap.servers", config.kafkaBootstrap());
        p.putAll(settings);
        return withPassThrough(config, Kind.STREAMS, p);
    }
}
