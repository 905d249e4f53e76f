-- The first schema. Times are milliseconds since the Unix epoch; flags are 0 or 1, so that the
-- one query layer reads the same types from SQLite and PostgreSQL.
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    username TEXT NOT NULL,
    username_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    bot INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    -- When the player's last event stream closed: a real-time invite of theirs lapses a minute on.
    seen_at INTEGER
);

-- Bearer tokens, only as SHA-256 hashes.
CREATE TABLE tokens (
    token_hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    created_at INTEGER NOT NULL
);
CREATE INDEX tokens_user ON tokens (user_id);

-- Glicko-2 ratings and results, one row per player and scoring variant that they have played.
CREATE TABLE ratings (
    user_id INTEGER NOT NULL REFERENCES users (id),
    scoring TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    losses INTEGER NOT NULL,
    PRIMARY KEY (user_id, scoring)
);

CREATE TABLE challenges (
    id TEXT PRIMARY KEY,
    from_id INTEGER NOT NULL REFERENCES users (id),
    to_id INTEGER NOT NULL REFERENCES users (id),
    board TEXT NOT NULL,
    layout TEXT NOT NULL,
    marbles INTEGER NOT NULL,
    scoring TEXT NOT NULL,
    color TEXT NOT NULL,
    swap INTEGER NOT NULL,
    clock_limit_ms INTEGER,
    clock_increment_ms INTEGER,
    status TEXT NOT NULL,
    reason TEXT,
    game_id TEXT,
    created_at INTEGER NOT NULL
);
CREATE INDEX challenges_open ON challenges (status, created_at);

-- A game's changing state is one row, updated once per move in one transaction: the moves, each
-- seat's clock as of turn_started, and the result. version guards against two writers.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    first_id INTEGER NOT NULL REFERENCES users (id),
    second_id INTEGER NOT NULL REFERENCES users (id),
    first_rating REAL NOT NULL,
    second_rating REAL NOT NULL,
    board TEXT NOT NULL,
    layout TEXT NOT NULL,
    marbles INTEGER NOT NULL,
    scoring TEXT NOT NULL,
    swap INTEGER NOT NULL,
    clock_limit_ms INTEGER,
    clock_increment_ms INTEGER,
    moves TEXT NOT NULL,
    first_ms INTEGER,
    second_ms INTEGER,
    turn_started_at INTEGER,
    status TEXT NOT NULL,
    winner TEXT,
    version INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    finished_at INTEGER
);
CREATE INDEX games_status ON games (status);
CREATE INDEX games_first ON games (first_id);
CREATE INDEX games_second ON games (second_id);

-- When a server last said it was alive: on start, the time since is not charged to any clock.
CREATE TABLE heartbeat (
    id INTEGER PRIMARY KEY,
    at INTEGER NOT NULL
);

-- The running servers, each saying it is alive every second, and which players have an event
-- stream open on which: who is online, across every server sharing the database.
CREATE TABLE instances (
    id TEXT PRIMARY KEY,
    seen_at INTEGER NOT NULL
);
CREATE TABLE presence (
    instance_id TEXT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users (id),
    PRIMARY KEY (instance_id, user_id)
);
