-- pawnpost schema, version 7: competitions (Glicko-2 ratings per server).

-- A player's current Glicko-2 rating on one server; no row until their
-- first rated game there (the configured defaults apply until then).
CREATE TABLE ratings (
    server_id  INTEGER NOT NULL REFERENCES servers (id),  -- the server the rating belongs to
    player_id  INTEGER NOT NULL REFERENCES players (id),  -- the rated player
    rating     REAL    NOT NULL,                          -- Glicko rating (1500 at the start)
    deviation  REAL    NOT NULL,                          -- rating deviation (RD), clamped to the configured floor and ceiling
    volatility REAL    NOT NULL,                          -- Glicko-2 volatility σ
    games      INTEGER NOT NULL,                          -- rated games counted; an update names the count it read
    rated_at   TEXT    NOT NULL,                          -- end of the last rated game (RD grows from there)
    PRIMARY KEY (server_id, player_id)
);

-- Every rating a player had, one row per rated game, for the history chart.
CREATE TABLE rating_history (
    id         INTEGER PRIMARY KEY,                       -- insertion order
    server_id  INTEGER NOT NULL REFERENCES servers (id),  -- the server of the rating
    player_id  INTEGER NOT NULL REFERENCES players (id),  -- the rated player
    game_id    INTEGER NOT NULL REFERENCES games (id),    -- the rated game that produced this rating
    rating     REAL    NOT NULL,                          -- rating after the game
    deviation  REAL    NOT NULL,                          -- deviation after the game
    at         TEXT    NOT NULL                           -- when the game ended
);

CREATE INDEX rating_history_by_player ON rating_history (server_id, player_id, id);
