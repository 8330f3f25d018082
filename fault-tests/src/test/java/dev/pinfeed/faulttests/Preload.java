package dev.pinfeed.faulttests;

import java.io.File;
import java.io.IOException;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Loads every pinfeed class of the test classpath up front. The local Maven repository is shared by
 * the engineers on this machine: a {@code mvn install} elsewhere replaces a pinfeed jar under a running
 * test, and every class not loaded yet then fails with NoClassDefFoundError. That must not happen
 * between a kill -9 and the restart (it left Kafka down once), nor in the app under load.
 */
final class Preload {

    private static boolean done;

    private Preload() {}

    static synchronized void pinfeedClasses() {
        if (done) return;
        done = true;
        ClassLoader loader = Preload.class.getClassLoader();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.endsWith(".jar") || !entry.contains(File.separator + "dev" + File.separator + "pinfeed" + File.separator)) continue;
            try (JarFile jar = new JarFile(entry)) {
                for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                    String name = e.nextElement().getName();
                    if (!name.endsWith(".class") || name.equals("module-info.class")) continue;
                    try {
                        Class.forName(name.substring(0, name.length() - 6).replace('/', '.'), false, loader);
                    } catch (Throwable optional) { // a class for a library this test does not have: never used here
                    }
                }
            } catch (IOException e) {
                System.err.println("[fault] could not preload " + entry + ": " + e);
            }
        }
    }
}
