-- Tables every logical shard database (db00000 .. db04095) holds. Applied by `./pinfeed provision`
-- on each shard host's master with CREATE ... IF NOT EXISTS; replicas receive them through
-- replication. Statements are separated by semicolons at line ends.

-- Local-ID blocks per object type (module id-allocator): next_local is the first id not yet leased.
CREATE TABLE IF NOT EXISTS id_sequences (
  type_id SMALLINT UNSIGNED NOT NULL PRIMARY KEY,
  next_local BIGINT UNSIGNED NOT NULL
) ENGINE=InnoDB;

-- The ingest side's directory of existing objects, in the shard their id names (module ingest-api,
-- class MysqlObjectDirectory): a board's owner, a pin's author and board. Rows never change.
CREATE TABLE IF NOT EXISTS object_directory (
  id BIGINT NOT NULL PRIMARY KEY,
  owner_id BIGINT NOT NULL,
  parent_id BIGINT NOT NULL
) ENGINE=InnoDB;

-- The cross-shard username index (Quora's cross-shard index): a row lives in the shard the
-- username hashes to (class UsernameShards), so uniqueness is one primary key on one master.
CREATE TABLE IF NOT EXISTS usernames (
  username VARCHAR(30) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY,
  user_id BIGINT NOT NULL
) ENGINE=InnoDB;
