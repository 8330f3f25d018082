package dev.pinfeed.infra.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The log4j2 file the server JVMs (Kafka, HBase) log through: a bounded rolling file, nothing on the console. */
final class Log4jConfig {

    private Log4jConfig() {}

    static Path write(StackLayout layout) {
        Path file = layout.runDir().resolve("log4j2-server.xml");
        String xml = """
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
                    <Root level="${sys:pinfeed.log.level}"><AppenderRef ref="file"/></Root>
                  </Loggers>
                </Configuration>
                """;
        try {
            if (!Files.exists(file) || !Files.readString(file).equals(xml)) Files.writeString(file, xml);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
