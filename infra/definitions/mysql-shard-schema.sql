-- Tables every logical shard database (db00000 .. db04095) holds. Applied by `./pinfeed provision`
-- on each shard host's master with CREATE ... IF NOT EXISTS; replicas receive them through
-- replication. Statements are separated by semicolons at line ends.

-- Local-ID blocks per object type (module id-allocator): next_local is the first id not yet leased.
CREATE TABLE IF NOT EXISTS id_sequences (
  type_id SMALLINT UNSIGNED NOT NULL PRIMARY KEY,
  next_local BIGINT UNSIGNED NOT NULL
) ENGINE=InnoDB;

-- The ingest side's directory of existing objects, in the shard their id names (module ingest-api,
-- class MysqlObjectDirectory): a board's owner, a pin's author and board, a comment's author and pin. Rows never
-- change; a deleted pin gets a second row under its negated id (ids are positive), written once its PinDeleted is in Kafka.
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

-- Interest names, unique, the same way (module ingest-api, MysqlUsernameIndex.interestNames): a row in the shard the
-- name hashes to (class UsernameShards). Names are lower-case slugs of at most 50 characters.
CREATE TABLE IF NOT EXISTS interest_names (
  name VARCHAR(50) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY,
  interest_id BIGINT NOT NULL
) ENGINE=InnoDB;

-- ---------------------------------------------------------------------------------------------
-- The canonical store (seeds 000 and 002), written only by the materializer (module materializer)
-- and read by feed-service. An object lives in the shard its 64-bit id names, keyed by its local id;
-- `data` is the JSON its creator sent plus createdAt. A mapping lives on its from-object's shard,
-- one table per direction (noun_verb_noun), ordered by `sequence` (creation time in ms: newer is
-- higher). Every write is an idempotent upsert, so any topic can be replayed. An object's `ts` is the
-- time of the newest event applied to it (set by the materializer, not by the server's clock), so a
-- replay leaves every row exactly as it was and ./pinfeed verify canonical can compare it.
-- ---------------------------------------------------------------------------------------------

CREATE TABLE IF NOT EXISTS users (
  local_id BIGINT NOT NULL PRIMARY KEY,
  data JSON NOT NULL,
  ts TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)
) ENGINE=InnoDB;

-- order_version: the version (occurredAt, eventId) of the BoardPinsReordered in force; an older one never wins.
CREATE TABLE IF NOT EXISTS boards (
  local_id BIGINT NOT NULL PRIMARY KEY,
  data JSON NOT NULL,
  order_version BINARY(16) NULL,
  ts TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)
) ENGINE=InnoDB;

-- A deleted pin keeps its row with "active": false in data (seed 002), so a replay of its create never revives it.
CREATE TABLE IF NOT EXISTS pins (
  local_id BIGINT NOT NULL PRIMARY KEY,
  data JSON NOT NULL,
  ts TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)
) ENGINE=InnoDB;

-- Comments live on their pin's shard (ids allocated there). A deleted comment keeps its row with "active": false, as pins do.
CREATE TABLE IF NOT EXISTS comments (
  local_id BIGINT NOT NULL PRIMARY KEY,
  data JSON NOT NULL,
  ts TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)
) ENGINE=InnoDB;

CREATE TABLE IF NOT EXISTS user_has_boards (
  user_id BIGINT NOT NULL,
  board_id BIGINT NOT NULL,
  sequence BIGINT NOT NULL,
  PRIMARY KEY (user_id, board_id),
  KEY newest (user_id, sequence, board_id)
) ENGINE=InnoDB;

-- active = 0 once the pin is deleted. position: the pin's place in the owner's custom order (BoardPinsReordered),
-- NULL for pins the order does not list.
CREATE TABLE IF NOT EXISTS board_has_pins (
  board_id BIGINT NOT NULL,
  pin_id BIGINT NOT NULL,
  sequence BIGINT NOT NULL,
  active TINYINT NOT NULL DEFAULT 1,
  position INT NULL,
  PRIMARY KEY (board_id, pin_id),
  KEY newest (board_id, active, sequence, pin_id),
  KEY custom (board_id, active, position, sequence, pin_id)
) ENGINE=InnoDB;

CREATE TABLE IF NOT EXISTS user_has_pins (
  user_id BIGINT NOT NULL,
  pin_id BIGINT NOT NULL,
  sequence BIGINT NOT NULL,
  active TINYINT NOT NULL DEFAULT 1,
  PRIMARY KEY (user_id, pin_id),
  KEY newest (user_id, active, sequence, pin_id)
) ENGINE=InnoDB;

-- A pin's comments, on the pin's shard (so with the comments themselves); active = 0 once the comment is deleted.
-- The pin's comment count is the count of its active rows.
CREATE TABLE IF NOT EXISTS pin_has_comments (
  pin_id BIGINT NOT NULL,
  comment_id BIGINT NOT NULL,
  sequence BIGINT NOT NULL,
  active TINYINT NOT NULL DEFAULT 1,
  PRIMARY KEY (pin_id, comment_id),
  KEY newest (pin_id, active, sequence, comment_id)
) ENGINE=InnoDB;

-- Likes are last-writer-wins per (user, pin): version = (occurredAt, eventId) of the newest like or unlike,
-- and an unlike keeps its row with liked = 0 so an older like replayed later cannot win.
CREATE TABLE IF NOT EXISTS user_likes_pins (
  user_id BIGINT NOT NULL,
  pin_id BIGINT NOT NULL,
  sequence BIGINT NOT NULL,
  liked TINYINT NOT NULL,
  version BINARY(16) NOT NULL,
  PRIMARY KEY (user_id, pin_id),
  KEY newest (user_id, liked, sequence, pin_id)
) ENGINE=InnoDB;

CREATE TABLE IF NOT EXISTS pin_liked_by_users (
  pin_id BIGINT NOT NULL,
  user_id BIGINT NOT NULL,
  sequence BIGINT NOT NULL,
  liked TINYINT NOT NULL,
  version BINARY(16) NOT NULL,
  PRIMARY KEY (pin_id, user_id),
  KEY newest (pin_id, liked, sequence, user_id)
) ENGINE=InnoDB;

-- Interests (topics): a row on a random open shard (like users), written once from InterestCreated and never changed.
CREATE TABLE IF NOT EXISTS interests (
  local_id BIGINT NOT NULL PRIMARY KEY,
  data JSON NOT NULL,
  ts TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)
) ENGINE=InnoDB;

-- The pins carrying an interest (PinCreated's interestIds), on the interest's shard: its pin page, newest first, and its count.
-- Inserted if absent, so a replayed PinCreated never counts twice; active = 0 once the pin is deleted (PinDeleted names its interests).
CREATE TABLE IF NOT EXISTS interest_has_pins (
  interest_id BIGINT NOT NULL,
  pin_id BIGINT NOT NULL,
  sequence BIGINT NOT NULL,
  active TINYINT NOT NULL DEFAULT 1,
  PRIMARY KEY (interest_id, pin_id),
  KEY newest (interest_id, active, sequence, pin_id)
) ENGINE=InnoDB;

-- A pin's repins (pins saved from it, whose JSON names it as parentPinId), on the parent's shard: the parent's
-- "repins" count is the number of its active rows. Inserted if absent, so a replayed PinCreated never counts twice.
CREATE TABLE IF NOT EXISTS pin_has_repins (
  pin_id BIGINT NOT NULL,
  repin_id BIGINT NOT NULL,
  sequence BIGINT NOT NULL,
  active TINYINT NOT NULL DEFAULT 1,
  PRIMARY KEY (pin_id, repin_id),
  KEY newest (pin_id, active, sequence, repin_id)
) ENGINE=InnoDB
