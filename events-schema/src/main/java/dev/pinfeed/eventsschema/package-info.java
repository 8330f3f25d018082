/** Avro domain events, the schema-registry client and the Confluent wire-format serde. Not built yet: see the open issues. */
package dev.pinfeed.eventsschema;
