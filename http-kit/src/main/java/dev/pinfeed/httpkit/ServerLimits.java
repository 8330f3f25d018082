package dev.pinfeed.httpkit;

import java.time.Duration;

/**
 * The server's defences against slow and hostile clients; see {@link HttpApp.Builder} for each setting.
 *
 * @param requestReadTimeout   first byte of a request until its head and whole body are read
 * @param responseWriteTimeout a response write making no progress is abandoned after this
 * @param idleTimeout          an idle keep-alive connection is closed after this
 * @param serverThreads        maximum threads of the server pool
 * @param maxConnections       open connections at most (accepting waits above)
 * @param uploadDrainLimit     bytes of an oversize upload read and discarded after its 413
 */
record ServerLimits(Duration requestReadTimeout, Duration responseWriteTimeout, Duration idleTimeout,
                    int serverThreads, int maxConnections, long uploadDrainLimit) {

    static final ServerLimits DEFAULTS = new ServerLimits(Duration.ofSeconds(10), Duration.ofSeconds(10),
            Duration.ofSeconds(30), 64, 4096, 16L << 20);
    /** Jetty needs a few threads of its own (acceptor, selector) before it serves anything. */
    static final int MIN_SERVER_THREADS = 8;

    ServerLimits {
        if (serverThreads < MIN_SERVER_THREADS) {
            throw new IllegalArgumentException("serverThreads must be >= " + MIN_SERVER_THREADS + ": " + serverThreads);
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be >= 1: " + maxConnections);
        }
        if (uploadDrainLimit < 0) {
            throw new IllegalArgumentException("uploadDrainLimit must be >= 0: " + uploadDrainLimit);
        }
    }

    ServerLimits withRequestReadTimeout(Duration d) {
        return new ServerLimits(d, responseWriteTimeout, idleTimeout, serverThreads, maxConnections, uploadDrainLimit);
    }

    ServerLimits withResponseWriteTimeout(Duration d) {
        return new ServerLimits(requestReadTimeout, d, idleTimeout, serverThreads, maxConnections, uploadDrainLimit);
    }

    ServerLimits withIdleTimeout(Duration d) {
        return new ServerLimits(requestReadTimeout, responseWriteTimeout, d, serverThreads, maxConnections, uploadDrainLimit);
    }

    ServerLimits withServerThreads(int n) {
        return new ServerLimits(requestReadTimeout, responseWriteTimeout, idleTimeout, n, maxConnections, uploadDrainLimit);
    }

    ServerLimits withMaxConnections(int n) {
        return new ServerLimits(requestReadTimeout, responseWriteTimeout, idleTimeout, serverThreads, n, uploadDrainLimit);
    }

    ServerLimits withUploadDrainLimit(long bytes) {
        return new ServerLimits(requestReadTimeout, responseWriteTimeout, idleTimeout, serverThreads, maxConnections, bytes);
    }
}
