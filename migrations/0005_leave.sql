-- pawnpost schema, version 5: leave (vacation).

-- A player's leave on one server: while it runs, the player's clocks are
-- stopped in all their games there. Each player has a yearly allowance of
-- days (reset on 1 January UTC), counted by the year a leave starts in.
CREATE TABLE leaves (
    id        INTEGER PRIMARY KEY,
    player_id INTEGER NOT NULL REFERENCES players (id),
    server_id INTEGER NOT NULL REFERENCES servers (id),
    starts_at TEXT    NOT NULL,  -- when it began: the moment it was asked for, never earlier
    ends_at   TEXT    NOT NULL,  -- when it ends unless ended early
    ended_at  TEXT,              -- when it ended; NULL while it runs
    days      INTEGER NOT NULL   -- whole days counted against the allowance (booked, then taken)
);

-- The scheduler reads only the next leave to end.
CREATE INDEX leaves_running_by_end ON leaves (ends_at) WHERE ended_at IS NULL;
CREATE INDEX leaves_by_player ON leaves (player_id, server_id, starts_at);
