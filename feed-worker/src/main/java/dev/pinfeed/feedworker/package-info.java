/** Fans each new pin out to its receivers' priority-queue pools in HBase. Not built yet: see the open issues. */
package dev.pinfeed.feedworker;
