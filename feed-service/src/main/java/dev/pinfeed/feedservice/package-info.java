/** The read API: feeds, objects and graph queries, with fallback reads from the standby HBase. Not built yet: see the open issues. */
package dev.pinfeed.feedservice;
