package dev.pinfeed.infra.stack;

import java.nio.file.Path;

/** The log4j2 files the stack's JVMs log through: a bounded rolling file each, nothing on the console. */
final class Log4jConfig {

    private static final String TEXT_LAYOUT = "<PatternLayout pattern=\"%d{ISO8601} %-5p [%t] %c{1}: %m%n\"/>";
    /**
     * JSON lines (Elastic Common Schema) when the app's LogFormat switch says so, which sets the property. Only the
     * apps' file names the JSON layout: the servers do not have it on their classpath.
     */
    private static final String APP_LAYOUT = """
            <Select>
                    <SystemPropertyArbiter propertyName="pinfeed.log.format" propertyValue="json">
                      <JsonTemplateLayout eventTemplateUri="classpath:EcsLayout.json"/>
                    </SystemPropertyArbiter>
                    <DefaultArbiter>%s</DefaultArbiter>
                  </Select>""".formatted(TEXT_LAYOUT);

    /** Kafka, HBase and Kafka's tools. */
    static final Log4jConfig SERVERS = new Log4jConfig("log4j2-server.xml", TEXT_LAYOUT);
    /** pinfeed's apps. */
    static final Log4jConfig APPS = new Log4jConfig("log4j2-app.xml", APP_LAYOUT);

    private static final String XML = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Configuration status="error">
              <Appenders>
                <RollingFile name="file" fileName="${sys:pinfeed.log.file}" filePattern="${sys:pinfeed.log.file}.%i">
                  LAYOUT
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

    private final String fileName;
    private final String layout;

    private Log4jConfig(String fileName, String layout) {
        this.fileName = fileName;
        this.layout = layout;
    }

    Path file(StackLayout stack) {
        return stack.home().resolve("run").resolve(fileName);
    }

    /** Writes the file (atomically, so a JVM starting meanwhile never reads half of it); returns its path. */
    Path write(StackLayout stack) {
        Path file = file(stack);
        AtomicFiles.writeIfChanged(file, XML.replace("LAYOUT", layout));
        return file;
    }
}
