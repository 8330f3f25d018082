package dev.pinfeed.pipelinetests.browser;

import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.TestAbortedException;

/**
 * Injects a {@link Browser} (a parameter of type {@code Browser} in a test, lifecycle method or constructor): one
 * headless Chromium per test class, started on first use and quit when the class ends (or when the JVM exits).
 * When a test or one of its lifecycle methods fails while the browser runs, it saves
 * {@code <method>-FAILED.png}, {@code <method>-FAILED.html} (the page source) and {@code <method>-FAILED.console.log}
 * into {@code target/failsafe-reports/screenshots/<TestClass>/} before {@code @AfterEach} methods run, and names
 * them in the failure (a suppressed exception). A missing Chromium or chromedriver fails the test, saying that
 * {@code ./pinfeed} installs them: a browser test is never skipped silently.
 *
 * <p>Configuration parameters (or system properties): {@code pinfeed.browser.chromium} (default
 * {@code /usr/bin/chromium}), {@code pinfeed.browser.chromedriver} ({@code /usr/bin/chromedriver}),
 * {@code pinfeed.browser.screenshots} ({@code target/failsafe-reports/screenshots}), {@code pinfeed.browser.profiles}
 * ({@code target/browser-profiles}).
 */
public final class BrowserExtension implements ParameterResolver, TestExecutionExceptionHandler,
        LifecycleMethodExecutionExceptionHandler {

    static final String CHROMIUM = "pinfeed.browser.chromium";
    static final String CHROMEDRIVER = "pinfeed.browser.chromedriver";
    static final String SCREENSHOTS = "pinfeed.browser.screenshots";
    static final String PROFILES = "pinfeed.browser.profiles";

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(BrowserExtension.class);
    private static final Pattern INVOCATION = Pattern.compile("test-template-invocation:#(\\d+)]$");

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Browser.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        ExtensionContext classContext = classContext(context);
        // The store closes it (AutoCloseable) when the class's context ends.
        return classContext.getStore(NS).getOrComputeIfAbsent(Browser.class, k -> create(classContext), Browser.class);
    }

    private static Browser create(ExtensionContext classContext) {
        Class<?> testClass = classContext.getRequiredTestClass();
        // Outer.Nested for a nested class.
        String name = testClass.getName().substring(testClass.getPackageName().isEmpty() ? 0 : testClass.getPackageName().length() + 1)
                .replace('$', '.');
        return new Browser(name,
                Path.of(setting(classContext, CHROMIUM, "/usr/bin/chromium")),
                Path.of(setting(classContext, CHROMEDRIVER, "/usr/bin/chromedriver")),
                Path.of(setting(classContext, SCREENSHOTS, "target/failsafe-reports/screenshots")).resolve(name),
                Path.of(setting(classContext, PROFILES, "target/browser-profiles")).resolve(name + "-" + ProcessHandle.current().pid()));
    }

    private static String setting(ExtensionContext context, String key, String fallback) {
        return context.getConfigurationParameter(key).filter(v -> !v.isBlank()).orElse(fallback);
    }

    /** The context of the class the test belongs to (a test, a test template's invocation, or the class itself). */
    private static ExtensionContext classContext(ExtensionContext context) {
        ExtensionContext c = context;
        while (c.getTestMethod().isPresent()) {
            c = c.getParent().orElseThrow();
        }
        return c;
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        capture(context, failure, null);
        throw failure;
    }

    @Override
    public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        capture(context, failure, "beforeAll");
        throw failure;
    }

    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        capture(context, failure, null);
        throw failure;
    }

    @Override
    public void handleAfterEachMethodExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        capture(context, failure, null);
        throw failure;
    }

    @Override
    public void handleAfterAllMethodExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        capture(context, failure, "afterAll");
        throw failure;
    }

    /** Saves the browser's state when it runs; adds where it went to {@code failure}. Never throws. */
    private static void capture(ExtensionContext context, Throwable failure, String lifecycle) {
        if (failure instanceof TestAbortedException) return;
        try {
            Browser browser = classContext(context).getStore(NS).get(Browser.class, Browser.class);
            if (browser == null || !browser.isRunning()) return;
            String name = lifecycle != null ? lifecycle : context.getTestMethod().map(Method::getName).orElse("test");
            Matcher invocation = INVOCATION.matcher(context.getUniqueId());
            if (invocation.find()) name += "-" + invocation.group(1);
            List<String> saved = browser.captureFailure(name);
            if (saved.isEmpty()) return;
            String where = "browser state at the failure: " + String.join(", ", saved);
            System.err.println("[browser] " + context.getDisplayName() + ": " + where);
            failure.addSuppressed(new CapturedBrowserState(where));
        } catch (RuntimeException e) {
            failure.addSuppressed(new CapturedBrowserState("could not save the browser's state: " + e));
        }
    }

    /** Carries, in a failure's suppressed exceptions, where its screenshot, page source and console log were saved. */
    static final class CapturedBrowserState extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CapturedBrowserState(String message) {
            super(message, null, false, false);
        }
    }
}
