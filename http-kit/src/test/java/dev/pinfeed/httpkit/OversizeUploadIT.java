package dev.pinfeed.httpkit;

import static dev.pinfeed.httpkit.TestHttp.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A client that writes its whole oversize body before reading (as Python's urllib does) still reads the 413: the
 * server answers, then reads and discards the rest of the upload before closing, instead of closing on unread data
 * (which makes the kernel send a reset that destroys the answer). Real sockets, no stack.
 */
@Timeout(60)
class OversizeUploadIT {

    private static final int LIMIT = 64 * 1024;
    private static final int UPLOAD = 8 << 20;
    private static final String HEAD = "POST /v1/upload HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer good\r\n"
            + "Content-Type: application/json\r\n";

    private final AtomicInteger handlerCalls = new AtomicInteger();
    private RunningHttpApp running;

    @BeforeEach
    void start() {
        running = app(HttpApp.builder("oversize-test")).start("127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        running.close();
    }

    private HttpApp app(HttpApp.Builder builder) {
        return builder
                .authenticator(token -> token.equals("good") ? new Principal("uploader", Set.of("*")) : null)
                .route("POST", "/v1/upload", RouteOptions.authenticatedWrite(LIMIT), r -> {
                    handlerCalls.incrementAndGet();
                    return Response.empty(204);
                })
                .build();
    }

    @Test
    void contentLengthUploadWrittenWholeBeforeReadingGetsThe413() throws Exception {
        try (Socket socket = socket(running)) {
            OutputStream out = socket.getOutputStream();
            out.write((HEAD + "Content-Length: " + UPLOAD + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            byte[] block = new byte[64 * 1024];
            for (int written = 0; written < UPLOAD; written += block.length) {
                out.write(block); // blocks unless the server keeps reading after its 413
            }
            out.flush();

            assert413(socket);
        }
        assertThat(handlerCalls).hasValue(0);
    }

    @Test
    void chunkedUploadWithoutExpectWrittenWholeBeforeReadingGetsThe413() throws Exception {
        try (Socket socket = socket(running)) {
            OutputStream out = socket.getOutputStream();
            out.write((HEAD + "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            byte[] block = new byte[32 * 1024];
            byte[] size = (Integer.toHexString(block.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
            byte[] crlf = "\r\n".getBytes(StandardCharsets.ISO_8859_1);
            for (int written = 0; written < UPLOAD; written += block.length) {
                out.write(size);
                out.write(block);
                out.write(crlf);
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();

            assert413(socket);
        }
        assertThat(handlerCalls).hasValue(0);
    }

    @Test
    void pythonUrllibReadsThe413() throws Exception {
        assumeTrue(onPath("python3"), "python3 is not on PATH");
        String script = String.join("\n",
                "import sys, urllib.request, urllib.error",
                "req = urllib.request.Request(sys.argv[1], data=b'x' * int(sys.argv[2]), method='POST',",
                "    headers={'Authorization': 'Bearer good', 'Content-Type': 'application/json'})",
                "try:",
                "    urllib.request.urlopen(req, timeout=20)",
                "    print('NO ERROR')",
                "except urllib.error.HTTPError as e:",
                "    print(e.code, e.headers.get('Content-Type'))",
                "    print(e.read().decode())");
        Process python = new ProcessBuilder("python3", "-c", script, running.baseUri() + "/v1/upload", Integer.toString(UPLOAD))
                .redirectErrorStream(true).start();
        assertThat(python.waitFor(30, TimeUnit.SECONDS)).as("python3 finished").isTrue();
        String output = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(python.exitValue()).as(output).isZero();
        String[] lines = output.split("\n", 2);
        assertThat(lines[0]).isEqualTo("413 application/problem+json");
        assertThat(json(lines[1]).path("type").asText()).isEqualTo("https://pinfeed.dev/problems/payload-too-large");
        assertThat(handlerCalls).hasValue(0);
    }

    @Test
    void aRequestRejectedBeforeItsBodyIsReadIsDrainedAndKeepsItsConnection() throws Exception {
        try (TestHttp.RawConnection connection = new TestHttp.RawConnection(running.port())) {
            int size = 2 << 20;
            connection.write("POST /v1/upload HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + size + "\r\n\r\n");
            connection.write(new byte[size]); // no token: 401, answered before the body is read

            TestHttp.RawResponse rejected = connection.read();
            assertThat(rejected.status()).isEqualTo(401);
            assertThat(json(rejected.body()).path("detail").asText()).isEqualTo("missing bearer token");

            connection.write("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertThat(connection.read().status()).isEqualTo(200);
        }
        assertThat(handlerCalls).hasValue(0);
    }

    @Test
    void expectContinueGetsThe413InsteadOfTheContinueOrTheContinueWhenTheBodyFits() throws Exception {
        try (TestHttp.RawConnection tooLarge = new TestHttp.RawConnection(running.port())) {
            tooLarge.write(HEAD + "Expect: 100-continue\r\nContent-Length: " + UPLOAD + "\r\n\r\n");

            assertThat(tooLarge.read().status()).isEqualTo(413);
            assertThat(tooLarge.closedByServer()).isTrue();
        }
        try (TestHttp.RawConnection fits = new TestHttp.RawConnection(running.port())) {
            fits.write(HEAD + "Expect: 100-continue\r\nContent-Length: 2\r\n\r\n");
            assertThat(fits.read().status()).isEqualTo(100);

            fits.write("{}");
            assertThat(fits.read().status()).isEqualTo(204);
        }
        assertThat(handlerCalls).hasValue(1);
    }

    @Test
    void uploadAnnouncedAboveTheDrainLimitIsAnsweredAndClosed() throws Exception {
        try (RunningHttpApp small = app(HttpApp.builder("oversize-small-drain").uploadDrainLimit(1 << 20)).start("127.0.0.1", 0);
             TestHttp.RawConnection connection = new TestHttp.RawConnection(small.port())) {
            connection.write(HEAD + "Content-Length: " + UPLOAD + "\r\n\r\n");

            TestHttp.RawResponse response = connection.read();

            assertThat(response.status()).isEqualTo(413);
            assertThat(response.header("Connection")).isEqualToIgnoringCase("close");
            assertThat(connection.closedByServer()).isTrue();
        }
    }

    /** Reads the answer after the whole upload: status line, {@code Connection: close}, the problem, then a clean EOF. */
    private static void assert413(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1); // throws on a reset
        assertThat(answer).startsWith("HTTP/1.1 413 ");
        String head = answer.substring(0, answer.indexOf("\r\n\r\n")).toLowerCase(Locale.ROOT);
        assertThat(head).contains("\r\nconnection: close").contains("\r\ncontent-type: application/problem+json");
        JsonNode problem = json(answer.substring(answer.indexOf("\r\n\r\n") + 4));
        assertThat(problem.path("type").asText()).isEqualTo("https://pinfeed.dev/problems/payload-too-large");
        assertThat(problem.path("detail").asText()).contains(Integer.toString(LIMIT));
    }

    private static Socket socket(RunningHttpApp app) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), app.port());
        socket.setSoTimeout(20_000);
        return socket;
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }
}
