-- pawnpost schema: tournaments (round robin, Swiss, knockout, Scheveningen).
-- Pairing and tie-breaks are pure code (src/competition/); these tables
-- keep who entered, who plays whom in which round, and how each pairing
-- was scored when its game did not decide it.

-- One tournament, run in the channel where it was created.
CREATE TABLE tournaments (
    id              INTEGER PRIMARY KEY,                       -- the number players name it by
    server_id       INTEGER NOT NULL REFERENCES servers (id),  -- the community it belongs to
    channel_id      INTEGER NOT NULL REFERENCES channels (id), -- where its games are created and announced
    name            TEXT    NOT NULL,                          -- display name given at creation (may be empty)
    system          TEXT    NOT NULL,                          -- round_robin | double_round_robin | swiss | knockout | scheveningen
    time_control    TEXT    NOT NULL,                          -- every game's time control, as `/challenge time:` writes it
    rated           INTEGER NOT NULL,                          -- 1: its games move Glicko-2 ratings
    rounds          INTEGER,                                   -- Swiss: rounds to play (NULL: the system decides)
    bye_half_points INTEGER NOT NULL,                          -- what a Swiss bye is worth, in half points (2 = one point)
    max_players     INTEGER,                                   -- entry closes at this many entrants (NULL: no limit)
    entry_closes_at TEXT,                                      -- RFC 3339; the tournament starts by itself then (NULL: started by hand)
    state           TEXT    NOT NULL,                          -- entry | running | finished | cancelled
    round           INTEGER NOT NULL,                          -- the round being played (0 before the start)
    created_by      INTEGER NOT NULL REFERENCES players (id),  -- the organiser: may start it early
    created_at      TEXT    NOT NULL,                          -- RFC 3339 creation instant
    version         INTEGER NOT NULL                           -- bumped by every change; a change names the version it read
);

-- The scheduler looks for tournaments whose entry window has closed.
CREATE INDEX tournaments_by_entry_close ON tournaments (entry_closes_at) WHERE state = 'entry';

-- A player in a tournament.
CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id), -- the tournament entered
    player_id     INTEGER NOT NULL REFERENCES players (id),     -- the entrant
    joined_at     TEXT    NOT NULL,                             -- RFC 3339; breaks seeding ties (first come, first seeded)
    seed          INTEGER,                                      -- 1 = top seed, set at the start (rating, then join order)
    withdrawn_at  TEXT,                                         -- RFC 3339 instant of withdrawal after the start (NULL: still playing)
    PRIMARY KEY (tournament_id, player_id)
);

-- One pairing: a game, a bye, or a game scored without play.
CREATE TABLE tournament_games (
    id            INTEGER PRIMARY KEY,                          -- creation order (knockout: a match's games in order)
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id), -- the tournament
    round         INTEGER NOT NULL,                             -- round number from 1 (knockout: the bracket round)
    board         INTEGER NOT NULL,                             -- board number in the round (knockout: the match)
    white_id      INTEGER NOT NULL REFERENCES players (id),     -- White, or the player who has the bye
    black_id      INTEGER REFERENCES players (id),              -- Black (NULL: a bye)
    game_id       INTEGER UNIQUE REFERENCES games (id),         -- the game played (NULL: a bye)
    score         TEXT                                          -- NULL: the game decides; bye | +- | -+ | -- (forfeits) | annulled
);

CREATE INDEX tournament_games_by_tournament ON tournament_games (tournament_id, round, board);
