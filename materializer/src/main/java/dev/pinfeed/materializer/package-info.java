/** Content generator: turns pools into the materialized home feed in HBase. Not built yet: see the open issues. */
package dev.pinfeed.materializer;
