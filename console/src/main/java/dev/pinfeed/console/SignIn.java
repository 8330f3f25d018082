package dev.pinfeed.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.httpkit.Authenticator;
import dev.pinfeed.httpkit.JwtIssuer;
import dev.pinfeed.httpkit.Principal;
import dev.pinfeed.httpkit.Problem;
import dev.pinfeed.httpkit.ProblemException;
import dev.pinfeed.httpkit.ReaderClaims;
import dev.pinfeed.httpkit.Response;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * How a reader gets the token the console's calls carry. {@code dev}: by a user's name alone, the console signing a
 * reader token for that user (the dev stack's reader keys; never configured in production). {@code token}: the
 * reader brings a token from the deployment's identity provider, checked here like feed-service checks it.
 */
final class SignIn {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern USERNAME = Pattern.compile("[a-z0-9_]{3,30}");

    private final ConsoleSettings settings;
    private final Optional<JwtIssuer> issuer;
    private final Authenticator readers;
    private final ServiceProxy feedService;
    private final Clock clock;

    SignIn(ConsoleSettings settings, Optional<JwtIssuer> issuer, Authenticator readers, ServiceProxy feedService, Clock clock) {
        this.settings = settings;
        this.issuer = issuer;
        this.readers = readers;
        this.feedService = feedService;
        this.clock = clock;
    }

    /** {@code {"username"}} (dev) or {@code {"token"}}: the token, when it expires, and the user it reads as. */
    Map<String, Object> signIn(JsonNode body) {
        if (body.hasNonNull("token")) return withToken(body.path("token").asText());
        if (settings.signIn() != ConsoleSettings.SignIn.DEV || issuer.isEmpty()) {
            throw new ProblemException(Problem.forbidden("sign-in by name is a dev feature; bring a reader token (\"token\")"));
        }
        JsonNode name = body.path("username");
        if (!name.isTextual() || !USERNAME.matcher(name.asText()).matches()) {
            throw new ProblemException(Problem.badRequest("username", "username must be 3-30 of [a-z0-9_]"));
        }
        JsonNode user = read("/v1/users/by-username/" + URLEncoder.encode(name.asText(), StandardCharsets.UTF_8), "username",
                "no user named " + name.asText());
        long id = Long.parseUnsignedLong(user.path("id").asText());
        String token = ReaderClaims.userToken(issuer.get(), id, settings.tokenTtl());
        return answer(token, user);
    }

    private Map<String, Object> withToken(String token) {
        Principal principal = readers.authenticate(token); // 401 problem when it is not a valid reader token
        OptionalLong id = ReaderClaims.userOf(principal);
        if (id.isEmpty()) throw new ProblemException(Problem.forbidden("the console signs in users; this is a service token"));
        JsonNode user = read("/v1/users/" + Long.toUnsignedString(id.getAsLong()), "token", "the token's user does not exist");
        return answer(token, user);
    }

    private Map<String, Object> answer(String token, JsonNode user) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("token", token);
        answer.put("expiresAt", clock.instant().plus(settings.tokenTtl()).toString());
        answer.put("user", user);
        return answer;
    }

    private JsonNode read(String path, String field, String notFound) {
        Response r = feedService.forward("GET", path, "", Optional.empty(), null);
        if (r.status() == 404) throw new ProblemException(Problem.notFound(field, notFound));
        if (r.status() != 200) {
            throw new ProblemException(Problem.serviceUnavailable("feed-service answered " + r.status() + " looking up the user"));
        }
        try {
            return JSON.readTree(r.bodyBytes());
        } catch (IOException e) {
            throw new ProblemException(Problem.serviceUnavailable("feed-service answered a user that is not JSON"));
        }
    }
}
