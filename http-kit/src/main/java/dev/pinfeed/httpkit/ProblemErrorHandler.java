package dev.pinfeed.httpkit;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Answers the errors Jetty produces itself (a malformed request line, a head over the size limit, ...) with a problem
 * document of type {@code about:blank} instead of Jetty's HTML page, so clients see one error format.
 */
final class ProblemErrorHandler extends ErrorHandler {

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        int status = response.getStatus();
        if (status < 400 || status > 599) {
            callback.succeeded();
            return true;
        }
        Object message = request.getAttribute(ERROR_MESSAGE);
        String detail = message instanceof String text && !text.isBlank() ? Json.oneLine(text, 200) : null;
        Problem problem = new Problem("about:blank", HttpStatus.getMessage(status), status, detail, null);
        byte[] bytes = dev.pinfeed.httpkit.Response.problem(problem).bytes();
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, Problem.CONTENT_TYPE);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, Integer.toString(bytes.length));
        response.write(true, ByteBuffer.wrap(bytes), callback);
        return true;
    }
}
