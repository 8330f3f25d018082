package dev.pinfeed.config;

/** A TCP endpoint written as {@code host:port}. */
public record HostPort(String host, int port) {

    public HostPort {
        if (host == null || host.isBlank()) throw new IllegalArgumentException("host is empty");
        if (port < 1 || port > 65535) throw new IllegalArgumentException("port out of range: " + port);
    }

    public static HostPort parse(String text) {
        int colon = text == null ? -1 : text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("expected host:port, got '" + text + "'");
        }
        try {
            return new HostPort(text.substring(0, colon).trim(), Integer.parseInt(text.substring(colon + 1).trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected host:port, got '" + text + "'");
        }
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
