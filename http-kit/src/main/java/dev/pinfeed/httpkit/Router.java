package dev.pinfeed.httpkit;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Matches a path against templates. Routes with the same shape (literals in the same places, parameters anywhere
 * else) form one resource; of the resources matching a path the most specific wins — at the first segment where
 * they differ a literal beats a parameter — and only then is the method looked at (405 when that resource lacks
 * it). So {@code GET /a/users:check} never reaches a {@code GET /a/{id}} route if {@code POST /a/users:check}
 * exists.
 */
final class Router {

    private static final Pattern PARAM = Pattern.compile("\\{([A-Za-z_][A-Za-z0-9_]*)}");

    record Route(String method, String template, List<Segment> segments, RouteOptions options, Handler handler,
                 boolean builtIn) {
    }

    /** A literal segment (param == null) or a parameter. */
    record Segment(String literal, String param) {
        boolean matches(String value) {
            return literal != null ? literal.equals(value) : !value.isEmpty();
        }
    }

    /** One resource: a shape and its routes by method. */
    static final class Resource {
        final String template;
        final List<Segment> shape;
        final Map<String, Route> byMethod = new TreeMap<>();

        Resource(String template, List<Segment> shape) {
            this.template = template;
            this.shape = shape;
        }

        Set<String> allowed() {
            return byMethod.keySet();
        }
    }

    /** The outcome: route set when matched; resource set without route for 405; both null for 404. */
    record Match(Resource resource, Route route, Map<String, String> params) {
    }

    private final Map<String, Resource> resources = new LinkedHashMap<>();
    private final List<Route> routes = new ArrayList<>();

    void add(String method, String template, RouteOptions options, Handler handler, boolean builtIn) {
        List<Segment> segments = parse(template);
        String key = shapeKey(segments);
        Resource resource = resources.computeIfAbsent(key, k -> new Resource(template, segments));
        if (resource.byMethod.containsKey(method)) {
            throw new IllegalArgumentException("duplicate route " + method + " " + template + " (clashes with "
                    + method + " " + resource.byMethod.get(method).template() + ")");
        }
        Route route = new Route(method, template, segments, options, handler, builtIn);
        resource.byMethod.put(method, route);
        routes.add(route);
    }

    List<Route> routes() {
        return Collections.unmodifiableList(routes);
    }

    Match match(String method, String rawPath) {
        List<String> path = split(rawPath, true);
        Resource best = null;
        for (Resource resource : resources.values()) {
            if (resource.shape.size() != path.size() || !matches(resource.shape, path)) {
                continue;
            }
            if (best == null || moreSpecific(resource.shape, best.shape)) {
                best = resource;
            }
        }
        if (best == null) {
            return new Match(null, null, Map.of());
        }
        Route route = best.byMethod.get(method);
        if (route == null) {
            return new Match(best, null, Map.of());
        }
        Map<String, String> params = new LinkedHashMap<>();
        for (int i = 0; i < route.segments().size(); i++) {
            String param = route.segments().get(i).param();
            if (param != null) {
                params.put(param, path.get(i));
            }
        }
        return new Match(best, route, Collections.unmodifiableMap(params));
    }

    private static boolean matches(List<Segment> shape, List<String> path) {
        for (int i = 0; i < shape.size(); i++) {
            if (!shape.get(i).matches(path.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean moreSpecific(List<Segment> a, List<Segment> b) {
        for (int i = 0; i < a.size(); i++) {
            boolean aLiteral = a.get(i).literal() != null;
            boolean bLiteral = b.get(i).literal() != null;
            if (aLiteral != bLiteral) {
                return aLiteral;
            }
        }
        return false;
    }

    static List<Segment> parse(String template) {
        if (template == null || !template.startsWith("/")) {
            throw new IllegalArgumentException("a path template starts with '/': " + template);
        }
        List<Segment> segments = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (String part : split(template, false)) {
            var m = PARAM.matcher(part);
            if (m.matches()) {
                if (names.contains(m.group(1))) {
                    throw new IllegalArgumentException("duplicate path parameter {" + m.group(1) + "} in " + template);
                }
                names.add(m.group(1));
                segments.add(new Segment(null, m.group(1)));
            } else if (part.contains("{") || part.contains("}")) {
                throw new IllegalArgumentException("a parameter must be a whole segment like {name}: " + template);
            } else {
                segments.add(new Segment(part, null));
            }
        }
        return List.copyOf(segments);
    }

    private static String shapeKey(List<Segment> segments) {
        StringBuilder key = new StringBuilder();
        for (Segment s : segments) {
            key.append('/').append(s.literal() != null ? "=" + s.literal() : "{}");
        }
        return key.toString();
    }

    /** Non-empty segments (so {@code //a/b/} is {@code [a, b]}), percent-decoded when {@code decode}. */
    static List<String> split(String path, boolean decode) {
        List<String> segments = new ArrayList<>();
        for (String part : path.split("/")) {
            if (!part.isEmpty()) {
                segments.add(decode ? decode(part) : part);
            }
        }
        return segments;
    }

    /** Percent-decodes a raw path or segment ({@code +} stays a plus); a malformed escape leaves it as sent. */
    static String decode(String raw) {
        if (raw.indexOf('%') < 0) {
            return raw;
        }
        try {
            return URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return raw;
        }
    }
}
