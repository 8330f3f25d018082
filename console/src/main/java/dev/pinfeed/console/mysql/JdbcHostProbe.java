package dev.pinfeed.console.mysql;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.console.pipeline.PipelineSources.AddressProbe;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;

/**
 * A MySQL shard host server: a fresh connection with the application's account and URL form (as the services' pools
 * make them: {@link PinfeedConfig#mysqlJdbcUrl}, {@code mysql.user}, {@code mysql.password}) that passes
 * {@link Connection#isValid}. Answers the server's version.
 */
public final class JdbcHostProbe implements AddressProbe {

    private final PinfeedConfig config;
    private final Properties login = new Properties();
    private final int validSeconds;

    public JdbcHostProbe(PinfeedConfig config, Duration timeout) {
        this.config = config;
        login.put("user", config.mysqlUser());
        login.put("password", config.mysqlPassword());
        login.put("connectTimeout", Long.toString(timeout.toMillis()));
        login.put("socketTimeout", Long.toString(timeout.toMillis()));
        this.validSeconds = (int) Math.max(1, timeout.toSeconds());
    }

    @Override
    public String check(String address) throws SQLException {
        try (Connection c = DriverManager.getConnection(config.mysqlJdbcUrl(HostPort.parse(address)), login)) {
            if (!c.isValid(validSeconds)) throw new SQLException("the connection is not valid");
            String version = c.getMetaData().getDatabaseProductVersion();
            // MariaDB prefixes its version with "5.5.5-" for old MySQL clients.
            return version.startsWith("5.5.5-") ? version.substring("5.5.5-".length()) : version;
        }
    }
}
