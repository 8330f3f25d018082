package dev.pinfeed.loadharness;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** The read harnesses' calls as {@link LoadLoops} counts them: one "accepted event" per success, one rejected per failure. */
final class HttpCalls {

    private HttpCalls() {}

    @FunctionalInterface
    interface Call {
        void run() throws Exception;
    }

    /** A successful call counts as one accepted "event"; any failure as one rejected. */
    static IngestHttp.Result ok(Call call) {
        try {
            call.run();
            return new IngestHttp.Result(202, 1, 0);
        } catch (Exception e) {
            return new IngestHttp.Result(-1, 0, 1);
        }
    }

    /** GET, failing unless the answer is 200; returns the body. */
    static String get(HttpClient http, String uri) throws Exception {
        return get(http, uri, null);
    }

    /** {@link #get(HttpClient, String)} with a bearer token (null: none). */
    static String get(HttpClient http, String uri, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(uri)).GET();
        if (token != null) request.header("Authorization", "Bearer " + token);
        HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) throw new IllegalStateException("HTTP " + r.statusCode() + " " + r.body());
        return r.body();
    }
}
