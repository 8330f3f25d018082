package dev.pinfeed.httpkit;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Closes connections whose request head is still incomplete a request-read timeout after its first byte. Jetty
 * parses heads without holding a thread, but only an idle timeout ends a head that trickles in (or stops half-way
 * while the connection is kept open), so a slowloris client could keep a connection slot forever. A sweep every
 * quarter timeout reads each open connection's parser: its state is volatile and its begin time is written just
 * before that state leaves {@code START}, so reading the state first makes the begin time visible.
 */
final class HeadDeadlines implements Connection.Listener {

    private final Set<HttpConnection> open = ConcurrentHashMap.newKeySet();
    private final Scheduler scheduler;
    private final long timeoutNanos;
    private final long periodNanos;
    private volatile boolean stopped;

    HeadDeadlines(Scheduler scheduler, long timeoutNanos) {
        this.scheduler = scheduler;
        this.timeoutNanos = timeoutNanos;
        this.periodNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(50), Math.min(timeoutNanos / 4, TimeUnit.SECONDS.toNanos(1)));
    }

    void start() {
        scheduler.schedule(this::sweep, periodNanos, TimeUnit.NANOSECONDS);
    }

    void stop() {
        stopped = true;
    }

    @Override
    public void onOpened(Connection connection) {
        if (connection instanceof HttpConnection http) {
            open.add(http);
        }
    }

    @Override
    public void onClosed(Connection connection) {
        open.remove(connection);
    }

    private void sweep() {
        if (stopped) {
            return;
        }
        long now = System.nanoTime();
        for (HttpConnection connection : open) {
            HttpParser parser = connection.getParser();
            if (parser.inHeaderState() && !parser.isStart()) {
                long begin = parser.getBeginNanoTime();
                if (begin != 0 && now - begin > timeoutNanos) {
                    connection.getEndPoint().close(new TimeoutException("request head not complete within "
                            + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms"));
                }
            }
        }
        scheduler.schedule(this::sweep, periodNanos, TimeUnit.NANOSECONDS);
    }
}
