package dev.pinfeed.httpkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/** Loopback HTTP for the tests: java.net.http for ordinary calls, a raw socket where the wire matters. */
final class TestHttp {

    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    private TestHttp() {
    }

    static HttpResponse<String> get(RunningHttpApp app, String path, String... headers) {
        return send(app, "GET", path, null, headers);
    }

    /** {@code body} null sends no body; headers are name, value pairs. */
    static HttpResponse<String> send(RunningHttpApp app, String method, String path, String body, String... headers) {
        try {
            return sendAsync(app, method, path, body, headers).get();
        } catch (Exception e) {
            throw new IllegalStateException(method + " " + path + " failed", e);
        }
    }

    static CompletableFuture<HttpResponse<String>> sendAsync(RunningHttpApp app, String method, String path, String body,
                                                              String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(app.baseUri() + path))
                .timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return CLIENT.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static JsonNode json(HttpResponse<String> response) {
        return json(response.body());
    }

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + text, e);
        }
    }

    /** A response read off a raw socket. */
    record RawResponse(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** A raw HTTP/1.1 connection for sending exactly what a test needs (partial bodies, chunked encoding). */
    static final class RawConnection implements AutoCloseable {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;

        RawConnection(int port) throws IOException {
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setSoTimeout(15_000); // a hang guard: well past the 1 s limits the tests set, well before the 30 s idle default
            out = socket.getOutputStream();
            in = socket.getInputStream();
        }

        RawConnection soTimeout(int millis) throws IOException {
            socket.setSoTimeout(millis);
            return this;
        }

        RawConnection write(String text) throws IOException {
            return write(text.getBytes(StandardCharsets.ISO_8859_1));
        }

        RawConnection write(byte[] bytes) throws IOException {
            out.write(bytes);
            out.flush();
            return this;
        }

        /** Reads one response: status line, headers, a Content-Length body. */
        RawResponse read() throws IOException {
            String head = readHead();
            String[] lines = head.split("\r\n");
            int status = Integer.parseInt(lines[0].split(" ")[1]);
            Map<String, String> headers = new TreeMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).strip());
            }
            int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
            byte[] body = in.readNBytes(length);
            return new RawResponse(status, headers, new String(body, StandardCharsets.UTF_8));
        }

        /** True when the server has closed the connection (EOF or reset); false when it is still open after the read timeout. */
        boolean closedByServer() {
            try {
                return in.read() == -1;
            } catch (java.net.SocketTimeoutException stillOpen) {
                return false; // nothing came and the connection is still open: not closed
            } catch (IOException e) {
                return true;
            }
        }

        private String readHead() throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            int matched = 0;
            byte[] end = {'\r', '\n', '\r', '\n'};
            while (matched < 4) {
                int b = in.read();
                if (b < 0) {
                    throw new IOException("connection closed after " + head.size() + " bytes: " + head);
                }
                head.write(b);
                matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
            }
            return head.toString(StandardCharsets.ISO_8859_1);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
