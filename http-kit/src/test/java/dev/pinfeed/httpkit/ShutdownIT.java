package dev.pinfeed.httpkit;

import static dev.pinfeed.httpkit.TestHttp.get;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * close() returns within about 1 s (README, "Threads") whatever the connections and handlers are doing: it
 * neither waits for an idle keep-alive connection (the 30 s idle timeout) nor for a handler that never returns.
 * Measured on the real clock, so an IT (unit tests run on injected clocks): the bound is ten times the promise,
 * and a third of the idle timeout it must not wait out. Real sockets, no stack.
 */
@Timeout(120)
class ShutdownIT {

    /** Ten times the ~1 s close() promises; a third of the 30 s idle timeout it must not wait out. */
    private static final long CLOSED_WITHIN_MS = 10_000;

    @Test
    void closeFreesThePortQuickly() throws Exception {
        RunningHttpApp running = HttpApp.builder("life").build().start("127.0.0.1", 0);
        int port = running.port();
        assertThat(get(running, "/health").statusCode()).isEqualTo(200); // leaves a keep-alive connection open

        long started = System.nanoTime();
        running.close();
        running.close(); // idempotent
        long closeMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        System.out.printf("[shutdown] close with an idle keep-alive connection took %d ms%n", closeMs);
        assertThat(closeMs).as("close (ms) does not wait for the keep-alive connection's idle timeout").isLessThan(CLOSED_WITHIN_MS);

        try (Socket socket = new Socket()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(
                    () -> socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000))
                    .isInstanceOf(ConnectException.class);
        }
        try (ServerSocket again = new ServerSocket()) {
            again.setReuseAddress(true);
            again.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            assertThat(again.getLocalPort()).isEqualTo(port);
        }
    }

    @Test
    void closeDoesNotWaitForeverForAStuckHandler() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        RunningHttpApp running = HttpApp.builder("life")
                .route("GET", "/v1/stuck", r -> {
                    entered.countDown();
                    try {
                        new CountDownLatch(1).await();
                    } catch (InterruptedException e) {
                        interrupted.countDown();
                        throw e;
                    }
                    return Response.empty(204);
                })
                .build()
                .start("127.0.0.1", 0);
        var pending = TestHttp.sendAsync(running, "GET", "/v1/stuck", null);
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();

        long started = System.nanoTime();
        running.close();

        long closeMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        System.out.printf("[shutdown] close with a stuck handler took %d ms%n", closeMs);
        assertThat(closeMs).as("close (ms) does not wait for a stuck handler").isLessThan(CLOSED_WITHIN_MS);
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).as("handler interrupted by shutdown").isTrue();
        assertThat(pending).failsWithin(30, TimeUnit.SECONDS);
    }

    @Test
    void closeLetsARequestInFlightFinishWithinItsDrainAndAnswersNewOnes503() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        RunningHttpApp running = HttpApp.builder("life")
                .stopDrain(java.time.Duration.ofSeconds(30))
                .route("GET", "/v1/slow", r -> {
                    entered.countDown();
                    finish.await(); // until the test has seen a new request refused while close() waits
                    return Response.empty(204);
                })
                .route("GET", "/v1/quick", r -> Response.empty(204))
                .build()
                .start("127.0.0.1", 0);
        var slow = TestHttp.sendAsync(running, "GET", "/v1/slow", null);
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
        Thread closing = new Thread(running::close, "closing");
        closing.start();

        int refused = 0;
        for (long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20); refused == 0 && System.nanoTime() < until; ) {
            refused = TestHttp.sendAsync(running, "GET", "/v1/quick", null).get(10, TimeUnit.SECONDS).statusCode() == 503 ? 1 : 0;
        }
        assertThat(refused).as("a request after close() began is answered 503").isEqualTo(1);
        assertThat(closing.isAlive()).as("close() waits for the request in flight").isTrue();
        finish.countDown();

        assertThat(slow.get(30, TimeUnit.SECONDS).statusCode()).as("answered, not interrupted").isEqualTo(204);
        closing.join(30_000);
        assertThat(closing.isAlive()).isFalse();
    }
}
