-- pawnpost schema, migration 0007: the challenge ladder.

-- A server's ladder as a whole: one row once someone has joined.
CREATE TABLE ladders (
    server_id INTEGER PRIMARY KEY REFERENCES servers (id),  -- the server whose ladder it is
    version   INTEGER NOT NULL                              -- bumped by every change; a write names the version it read
);

-- The players on a ladder, one row per place.
CREATE TABLE ladder_rungs (
    server_id INTEGER NOT NULL REFERENCES ladders (server_id),  -- the ladder
    player_id INTEGER NOT NULL REFERENCES players (id),         -- the player on it
    place     INTEGER NOT NULL,                                  -- 1 for the top of the ladder
    active_at TEXT    NOT NULL,                                  -- when the player joined or last finished a ladder game; inactivity counts from here
    PRIMARY KEY (server_id, player_id),
    UNIQUE (server_id, place)
);

CREATE INDEX ladder_rungs_by_activity ON ladder_rungs (active_at);

-- A ladder challenge: the ordinary challenge it made, the game it became,
-- and how it counted on the ladder.
CREATE TABLE ladder_matches (
    id            INTEGER PRIMARY KEY,                                -- the ladder challenge's number
    server_id     INTEGER NOT NULL REFERENCES servers (id),           -- the ladder's server
    challenge_id  INTEGER NOT NULL UNIQUE REFERENCES challenges (id), -- the challenge the defender answers
    game_id       INTEGER UNIQUE REFERENCES games (id),               -- the game, once accepted
    challenger_id INTEGER NOT NULL REFERENCES players (id),           -- the lower-placed player who challenged
    defender_id   INTEGER NOT NULL REFERENCES players (id),           -- the higher-placed player challenged
    status        TEXT    NOT NULL,                                   -- pending, playing, challenger_won, defender_won, drawn, forfeited, withdrawn, aborted
    accept_by     TEXT    NOT NULL,                                   -- the defender forfeits unless they accept before this
    created_at    TEXT    NOT NULL                                    -- when the challenge was made
);

CREATE INDEX ladder_matches_pending ON ladder_matches (status, accept_by);
