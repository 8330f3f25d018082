package dev.pinfeed.infra.stack;

import java.nio.file.Path;

/** The log4j2 file the server JVMs (Kafka, HBase) log through: a bounded rolling file, nothing on the console. */
final class Log4jConfig {

    private static final String XML = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Configuration status="error">
              <Appenders>
                <RollingFile name="file" fileName="${sys:pinfeed.log.file}" filePattern="${sys:pinfeed.log.file}.%i">
                  <PatternLayout pattern="%d{ISO8601} %-5p [%t] %c{1}: %m%n"/>
                  <Policies><SizeBasedTriggeringPolicy size="50 MB"/></Policies>
                  <DefaultRolloverStrategy max="2"/>
                </RollingFile>
              </Appenders>
              <Loggers>
                <!-- One ERROR line per failed action of an HBase batch (1 000 for one failed multi-get): pinfeed logs the outage once itself. -->
                <Logger name="org.apache.hadoop.hbase.client.AsyncRequestFutureImpl" level="off"/>
                <Root level="${sys:pinfeed.log.level}"><AppenderRef ref="file"/></Root>
              </Loggers>
            </Configuration>
            """;

    private Log4jConfig() {}

    static Path file(StackLayout layout) {
        return layout.home().resolve("run").resolve("log4j2-server.xml");
    }

    /** Writes the file (atomically, so a JVM starting meanwhile never reads half of it); returns its path. */
    static Path write(StackLayout layout) {
        Path file = file(layout);
        AtomicFiles.writeIfChanged(file, XML);
        return file;
    }
}
