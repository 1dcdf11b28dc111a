-- pawnpost schema, version 1.
-- Times are RFC 3339 UTC text ("2026-01-31T12:00:00.000Z"): sortable and readable.
-- Never edit a released migration: add the next numbered file instead.

-- A community that keeps its own standings and settings: a Discord guild,
-- a Matrix space (or homeserver), or a named console "server".
CREATE TABLE servers (
    id                     INTEGER PRIMARY KEY,           -- our id, referenced by channels, challenges, games
    platform               TEXT    NOT NULL,              -- 'console' | 'discord' | 'matrix'
    platform_id            TEXT    NOT NULL,              -- the guild id, space id or console name
    language               TEXT    NOT NULL DEFAULT 'en', -- default language of replies ('en' | 'fr' | 'de')
    time_control           TEXT    NOT NULL DEFAULT '3d', -- default time control of new challenges
    draw_agreement_allowed INTEGER NOT NULL DEFAULT 1,    -- 0 forbids draws by agreement
    draw_min_moves         INTEGER NOT NULL DEFAULT 1,    -- moves each side must make before an agreed draw
    moderator_role         TEXT,                          -- platform role id whose members may moderate
    created_at             TEXT    NOT NULL,              -- when the bot first saw the server
    UNIQUE (platform, platform_id)
);

-- A channel, thread or room where games are played.
CREATE TABLE channels (
    id          INTEGER PRIMARY KEY,                      -- our id, referenced by challenges and games
    server_id   INTEGER NOT NULL REFERENCES servers (id), -- the community it belongs to
    platform_id TEXT    NOT NULL,                         -- the channel, thread or room id
    UNIQUE (server_id, platform_id)
);

-- A person on one platform.
CREATE TABLE players (
    id           INTEGER PRIMARY KEY,                     -- our id (PlayerId), referenced by challenges and games
    platform     TEXT    NOT NULL,                        -- 'console' | 'discord' | 'matrix'
    platform_id  TEXT    NOT NULL,                        -- user id on that platform
    display_name TEXT    NOT NULL,                        -- last name seen, for tables and PGN
    language     TEXT,                                    -- own language; NULL follows the server
    notify       TEXT    NOT NULL DEFAULT 'channel',      -- turn notices: 'channel' | 'direct' | 'off'
    created_at   TEXT    NOT NULL,                        -- when the bot first saw the player
    UNIQUE (platform, platform_id)
);

-- A proposed game, to one player or open to anyone in the channel.
CREATE TABLE challenges (
    id            INTEGER PRIMARY KEY,                     -- our id, shown to players to accept or decline
    server_id     INTEGER NOT NULL REFERENCES servers (id),  -- the community whose settings apply
    channel_id    INTEGER NOT NULL REFERENCES channels (id), -- where it was made, and where the game will be
    challenger_id INTEGER NOT NULL REFERENCES players (id),  -- who proposed the game
    challenged_id INTEGER REFERENCES players (id),         -- NULL: open to anyone
    color         TEXT    NOT NULL,                        -- challenger's colour: 'white' | 'black' | 'random'
    time_control  TEXT    NOT NULL,                        -- the game's time control, compact text form
    rated         INTEGER NOT NULL,                        -- 1 if the game counts for ratings
    start_fen     TEXT,                                    -- NULL: the standard start position
    status        TEXT    NOT NULL DEFAULT 'open',         -- 'open' | 'accepted' | 'declined' | 'cancelled' | 'expired'
    game_id       INTEGER REFERENCES games (id),           -- the game it became, once accepted
    created_at    TEXT    NOT NULL,                        -- when it was made
    expires_at    TEXT    NOT NULL                         -- an open challenge lapses at this instant
);
CREATE INDEX challenges_open_by_channel ON challenges (channel_id, status);

-- A game between two players.
CREATE TABLE games (
    id                     INTEGER PRIMARY KEY,              -- our id, the game number players type
    server_id              INTEGER NOT NULL REFERENCES servers (id),  -- whose standings it counts for
    channel_id             INTEGER NOT NULL REFERENCES channels (id), -- channel or thread it lives in
    white_id               INTEGER NOT NULL REFERENCES players (id),  -- the player with White
    black_id               INTEGER NOT NULL REFERENCES players (id),  -- the player with Black
    start_fen              TEXT,                             -- NULL: the standard start position
    time_control           TEXT    NOT NULL,                 -- compact text form, e.g. '3d'
    rated                  INTEGER NOT NULL,                 -- 1 if it counts for ratings
    draw_agreement_allowed INTEGER NOT NULL,                 -- the server's draw rules, fixed at the start: 0 forbids agreed draws
    draw_min_moves         INTEGER NOT NULL,                 -- moves each side must make before an agreed draw
    status                 TEXT    NOT NULL DEFAULT 'ongoing', -- 'ongoing' | 'over'
    result                 TEXT,                             -- '1-0' | '0-1' | '1/2-1/2' | '*' once over
    reason                 TEXT,                             -- the core's reason vocabulary once over
    turn                   TEXT    NOT NULL,                 -- side to move: 'white' | 'black'
    plies                  INTEGER NOT NULL DEFAULT 0,       -- moves played so far
    pending_offer          TEXT,                             -- side whose draw offer stands, if any
    version                INTEGER NOT NULL DEFAULT 0,       -- bumped by every save (optimistic locking)
    challenge_id           INTEGER REFERENCES challenges (id), -- the challenge it came from
    created_at             TEXT    NOT NULL,                 -- when it started (the challenge was accepted)
    ended_at               TEXT                              -- when it ended
);
CREATE INDEX games_by_channel ON games (channel_id, status);
CREATE INDEX games_by_white ON games (white_id, status);
CREATE INDEX games_by_black ON games (black_id, status);
CREATE INDEX games_finished_by_server ON games (server_id, status);

-- The game score, one row per ply.
CREATE TABLE moves (
    game_id    INTEGER NOT NULL REFERENCES games (id),      -- the game it belongs to
    ply        INTEGER NOT NULL,                            -- 1 for the game's first move
    uci        TEXT    NOT NULL,                            -- the move in UCI (castling as e1g1)
    san        TEXT    NOT NULL,                            -- English SAN with check suffix
    played_at  TEXT    NOT NULL,                            -- when it was played (clocks are rebuilt from these)
    draw_offer INTEGER NOT NULL DEFAULT 0,                  -- 1 if a draw was offered with it: (=)
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

-- Offers, declines, claims and adjudications, placed after a ply of the score.
CREATE TABLE game_notes (
    game_id INTEGER NOT NULL REFERENCES games (id),         -- the game it belongs to
    seq     INTEGER NOT NULL,                               -- order within the game, from 0
    note    TEXT    NOT NULL,                               -- the core's Note as JSON
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

-- Acts already carried out, by idempotency key (interaction or event id),
-- with the answer given, so that a replayed act changes nothing and gets the same answer.
CREATE TABLE processed_acts (
    act_key      TEXT PRIMARY KEY,                          -- the platform's interaction or event id
    processed_at TEXT NOT NULL,                             -- when the act was committed
    answer       TEXT NOT NULL                              -- the replies as JSON
) WITHOUT ROWID;
