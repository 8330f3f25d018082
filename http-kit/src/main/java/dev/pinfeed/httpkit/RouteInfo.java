package dev.pinfeed.httpkit;

/** A served route: the method and the path template it was registered with (e.g. {@code /v1/users/{userId}}). */
public record RouteInfo(String method, String pathTemplate) {
}
