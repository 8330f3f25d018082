package dev.pinfeed.ingestapi.client;

/**
 * ingest-api answered with a problem document (RFC 9457): {@link #status()}, the problem
 * {@link #type()}, the offending {@link #field()} (null when no single field is at fault), the
 * {@link #detail()}, and for a store that was down its name ({@link #store()}).
 */
public final class PinfeedApiException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String type;
    private final String title;
    private final String field;
    private final String detail;
    private final String store;

    public PinfeedApiException(int status, String type, String title, String field, String detail, String store) {
        super(status + " " + title + (field == null ? "" : " (" + field + ")") + (detail == null ? "" : ": " + detail));
        this.status = status;
        this.type = type;
        this.title = title;
        this.field = field;
        this.detail = detail;
        this.store = store;
    }

    public int status() {
        return status;
    }

    public String type() {
        return type;
    }

    public String title() {
        return title;
    }

    public String field() {
        return field;
    }

    public String detail() {
        return detail;
    }

    public String store() {
        return store;
    }
}
