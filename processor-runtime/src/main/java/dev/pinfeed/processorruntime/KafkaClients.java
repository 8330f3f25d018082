package dev.pinfeed.processorruntime;

import dev.pinfeed.config.PinfeedConfig;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Every Kafka client setting pinfeed uses, in one place: the processors' consumers, the durable
 * producers (ingest's publisher, dead letters, the fan-out chunks) and admin clients.
 */
public final class KafkaClients {

    /** Key of the per-replica instance name: distinct for every replica of one processor (default "0"). */
    public static final String INSTANCE = "processor.instance";

    private KafkaClients() {}

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
        return c;
    }

    /**
     * A consumer outside any group (rebuilds, verification, tests that read a topic back): assigned
     * partitions, never commits.
     */
    public static Properties reader(PinfeedConfig config) {
        return reader(config.kafkaBootstrap());
    }

    public static Properties reader(String bootstrap) {
        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        return c;
    }

    /**
     * A durable producer: acks=all and idempotence, so a broker retry never duplicates or reorders a
     * key's records; small linger so concurrent sends share a round trip; a full buffer fails fast
     * (max.block.ms 1 s) instead of blocking a request thread; Kafka gives up on a record (25 s)
     * before callers stop waiting (30 s), so a failed send is reported by Kafka itself.
     */
    public static Properties producer(PinfeedConfig config, String clientId) {
        return producer(config.kafkaBootstrap(), clientId);
    }

    /** {@link #producer(PinfeedConfig, String)} for a bootstrap list given directly (load harness, tests). */
    public static Properties producer(String bootstrap, String clientId) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
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
        return p;
    }

    /** An admin client. */
    public static Properties admin(PinfeedConfig config) {
        Properties p = new Properties();
        p.put("bootstrap.servers", config.kafkaBootstrap());
        p.put("request.timeout.ms", "10000");
        p.put("default.api.timeout.ms", "15000");
        return p;
    }
}
