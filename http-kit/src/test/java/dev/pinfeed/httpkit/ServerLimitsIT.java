package dev.pinfeed.httpkit;

import static dev.pinfeed.httpkit.TestHttp.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The other server limits, each with short settings: stalled bodies, unread responses, idle connections, connection count. */
@Timeout(120)
class ServerLimitsIT {

    private static HttpApp.Builder app(String name) {
        return HttpApp.builder(name)
                .authenticator(token -> new Principal(token, Set.of("*")))
                .route("POST", "/v1/items", RouteOptions.authenticatedWrite(1 << 20), r -> Response.json(201, r.json()))
                .route("GET", "/v1/big", r -> Response.bytes(200, "application/octet-stream", new byte[32 << 20]))
                .route("GET", "/v1/slow", r -> slow())
                .route("POST", "/v1/slow", r -> slow());
    }

    private static Response slow() throws InterruptedException {
        Thread.sleep(1500);
        return Response.json(200, Map.of("slow", true));
    }

    /** The write timeout is Jetty's idle timeout during a request: it must not cut off a handler that is just busy. */
    @Test
    void aHandlerSlowerThanTheWriteTimeoutStillAnswers() {
        try (RunningHttpApp running = app("slow-handler-test").responseWriteTimeout(Duration.ofSeconds(1)).build()
                .start("127.0.0.1", 0)) {
            assertThat(TestHttp.get(running, "/v1/slow").statusCode()).as("on the server thread").isEqualTo(200);
            assertThat(TestHttp.send(running, "POST", "/v1/slow", "{}", "Authorization", "Bearer t",
                    "Content-Type", "application/json").statusCode()).as("on the handler pool").isEqualTo(200);
        }
    }

    @Test
    void aBodyThatStopsArrivingIsAnswered408AndClosed() throws Exception {
        try (RunningHttpApp running = app("stall-test").requestReadTimeout(Duration.ofSeconds(1)).build().start("127.0.0.1", 0);
             TestHttp.RawConnection connection = new TestHttp.RawConnection(running.port())) {
            long started = System.nanoTime();
            connection.write("POST /v1/items HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer t\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"half\":");

            TestHttp.RawResponse response = connection.read();

            assertThat(response.status()).isEqualTo(408);
            assertThat(response.header("Connection")).isEqualToIgnoringCase("close");
            assertThat(json(response.body()).path("type").asText()).isEqualTo("https://pinfeed.dev/problems/request-timeout");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(900));
            assertThat(connection.closedByServer()).isTrue();
        }
    }

    @Test
    void aResponseTheClientDoesNotReadIsAbandonedAfterTheWriteTimeout() throws Exception {
        HttpApp app = app("unread-test").responseWriteTimeout(Duration.ofSeconds(1)).build();
        try (RunningHttpApp running = app.start("127.0.0.1", 0); Socket socket = new Socket()) {
            socket.setReceiveBufferSize(4096);
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), running.port()));
            socket.getOutputStream().write("GET /v1/big HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            DoubleSupplier connections = () -> app.meterRegistry().get("jetty.connections.current").gauge().value();
            awaitAtMost(Duration.ofSeconds(5), () -> connections.getAsDouble() == 1);

            // 32 MiB cannot all sit in socket buffers: the write stalls, and the server gives up on it.
            awaitAtMost(Duration.ofSeconds(10), () -> connections.getAsDouble() == 0);
        }
    }

    @Test
    void anIdleKeepAliveConnectionIsClosedAfterTheIdleTimeout() throws Exception {
        try (RunningHttpApp running = app("idle-test").idleTimeout(Duration.ofSeconds(1)).build().start("127.0.0.1", 0);
             TestHttp.RawConnection connection = new TestHttp.RawConnection(running.port())) {
            connection.write("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertThat(connection.read().status()).isEqualTo(200);
            long idleSince = System.nanoTime();

            assertThat(connection.closedByServer()).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - idleSince)).isGreaterThanOrEqualTo(Duration.ofMillis(900));
        }
    }

    @Test
    void overMaxConnectionsAcceptingWaitsUntilOneCloses() throws Exception {
        HttpApp app = app("limit-test").maxConnections(3).build();
        List<Socket> idle = new ArrayList<>();
        try (RunningHttpApp running = app.start("127.0.0.1", 0)) {
            for (int i = 0; i < 3; i++) {
                idle.add(new Socket(InetAddress.getLoopbackAddress(), running.port()));
            }
            awaitAtMost(Duration.ofSeconds(5),
                    () -> app.meterRegistry().get("jetty.connections.current").gauge().value() == 3);
            try (TestHttp.RawConnection fourth = new TestHttp.RawConnection(running.port())) {
                fourth.write("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n");
                assertThatThrownBy(() -> readWithin(fourth, 1000)).isInstanceOf(SocketTimeoutException.class);

                idle.remove(0).close();

                assertThat(readWithin(fourth, 15_000).status()).isEqualTo(200);
            }
        } finally {
            for (Socket socket : idle) {
                socket.close();
            }
        }
    }

    private static TestHttp.RawResponse readWithin(TestHttp.RawConnection connection, int millis) throws IOException {
        connection.soTimeout(millis);
        return connection.read();
    }

    private static void awaitAtMost(Duration limit, BooleanSupplier condition) throws InterruptedException {
        long until = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("condition not met within " + limit);
            }
            Thread.sleep(20);
        }
    }
}
