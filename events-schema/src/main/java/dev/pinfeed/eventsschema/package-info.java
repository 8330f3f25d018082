/**
 * pinfeed's domain events (Avro classes generated from {@code src/main/avro}), which topic each goes
 * to ({@link dev.pinfeed.eventsschema.EventTopics}), a small Confluent schema-registry client and the
 * Confluent wire-format Kafka serde.
 */
package dev.pinfeed.eventsschema;
