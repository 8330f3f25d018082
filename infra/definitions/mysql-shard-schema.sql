-- Tables every logical shard database (db00000 .. db04095) holds. Applied by `./pinfeed provision`
-- on each shard host's master with CREATE ... IF NOT EXISTS; replicas receive them through
-- replication. Statements are separated by semicolons at line ends.

-- Local-ID blocks per object type (module id-allocator): next_local is the first id not yet leased.
CREATE TABLE IF NOT EXISTS id_sequences (
  type_id SMALLINT UNSIGNED NOT NULL PRIMARY KEY,
  next_local BIGINT UNSIGNED NOT NULL
) ENGINE=InnoDB;
