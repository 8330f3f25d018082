package dev.pinfeed.infra.stack;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Cheap liveness checks and small process helpers used by the server specs. */
final class Probes {

    private Probes() {}

    static boolean tcpOpen(String host, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Sends one inline RESP command and returns the first reply line, or null. */
    static String redisCommand(int port, String password, String command) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 500);
            s.setSoTimeout(1_000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            if (password != null) {
                // RESP array form: the password may hold any character.
                byte[] pw = password.getBytes(StandardCharsets.UTF_8);
                out.write(("*2\r\n$4\r\nAUTH\r\n$" + pw.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(pw);
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                if (!"+OK".equals(line(in))) return null;
            }
            out.write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return line(in);
        } catch (IOException e) {
            return null;
        }
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) != -1 && c != '\n') sb.append((char) c);
        return sb.toString().trim();
    }

    /** Runs a short command to completion; returns its exit code and output. */
    static Result exec(List<String> command, Path workDir, long timeoutSeconds) {
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
            if (workDir != null) pb.directory(workDir.toFile());
            Process p = pb.start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(-1, "timed out: " + String.join(" ", command));
            }
            return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return new Result(-1, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }

    static Result execOrFail(List<String> command, String what) {
        Result r = exec(command, null, 120);
        if (r.code() != 0) throw new IllegalStateException(what + " failed (exit " + r.code() + "): " + r.output().trim());
        return r;
    }

    static List<String> list(Object... parts) {
        List<String> l = new ArrayList<>();
        for (Object p : parts) l.add(String.valueOf(p));
        return l;
    }

    record Result(int code, String output) {}
}
