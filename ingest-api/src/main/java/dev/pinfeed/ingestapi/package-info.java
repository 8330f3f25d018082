/** The producers' HTTP write API: validates, assigns IDs and publishes events to Kafka. Not built yet: see the open issues. */
package dev.pinfeed.ingestapi;
