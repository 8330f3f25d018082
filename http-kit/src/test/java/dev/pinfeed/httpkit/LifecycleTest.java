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

@Timeout(10)
class LifecycleTest {

    @Test
    void ephemeralPortAndBaseUri() {
        try (RunningHttpApp running = HttpApp.builder("life").build().start("127.0.0.1", 0)) {
            assertThat(running.port()).isPositive();
            assertThat(running.baseUri().toString()).isEqualTo("http://127.0.0.1:" + running.port());
            assertThat(running.baseUri().resolve("/health").toString()).endsWith(running.port() + "/health");
        }
    }

    @Test
    void wildcardBindReportsLoopback() {
        try (RunningHttpApp running = HttpApp.builder("life").build().start("0.0.0.0", 0)) {
            assertThat(running.baseUri().getHost()).isEqualTo("127.0.0.1");
            assertThat(get(running, "/health").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void closeFreesThePortQuickly() throws Exception {
        RunningHttpApp running = HttpApp.builder("life").build().start("127.0.0.1", 0);
        int port = running.port();
        assertThat(get(running, "/health").statusCode()).isEqualTo(200); // leaves a keep-alive connection open

        long started = System.nanoTime();
        running.close();
        running.close(); // idempotent
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(1000);

        try (Socket socket = new Socket()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(
                    () -> socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000))
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
        assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();

        long started = System.nanoTime();
        running.close();

        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(1500);
        assertThat(interrupted.await(1, TimeUnit.SECONDS)).as("handler interrupted by shutdown").isTrue();
        assertThat(pending).failsWithin(5, TimeUnit.SECONDS);
    }
}
