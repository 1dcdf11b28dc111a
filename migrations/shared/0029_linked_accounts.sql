-- One player everywhere (issue 44): accounts on several platforms linked
-- into one player, the one-time codes that link them and the wrong codes
-- typed (bounded per hour), the daily digest's settings and progress, and
-- clubs of servers of either platform, joined with each one's consent.
--
-- A player is a person: their first account's row. Every other account
-- linked to it names that row in `person_id` (a person has one account per
-- platform). Settings (language, notices, notation, digest) are written to
-- every account of the person at once, so each row reads them as it did.
ALTER TABLE players ADD COLUMN person_id {ref} REFERENCES players (id); -- the person's first account this one is linked to; NULL: its own (or the first)
CREATE INDEX players_by_person ON players (person_id);

ALTER TABLE players ADD COLUMN time_zone TEXT;           -- IANA time zone name (`/settings timezone`); NULL: UTC
ALTER TABLE players ADD COLUMN digest_minute {int};      -- the digest's local time, minutes after midnight; NULL: no digest
ALTER TABLE players ADD COLUMN digest_next {instant};    -- when the next digest is due (UTC); NULL: none asked, or this account is not the one it goes to
ALTER TABLE players ADD COLUMN digest_last {instant};    -- when the last digest was made (games finished since are listed)
CREATE INDEX players_digest_due ON players (digest_next);

-- A one-time link code: only its SHA-256 is kept.
CREATE TABLE link_codes (
    code_hash  TEXT      PRIMARY KEY,                          -- SHA-256 of the normalised code, hex
    player_id  {ref}     NOT NULL REFERENCES players (id),     -- the account that asked for it (and saw it)
    created_at {instant} NOT NULL,                             -- when it was made
    expires_at {instant} NOT NULL,                             -- no use at or after this instant
    used_at    {instant},                                      -- when it linked an account; NULL: unused
    used_by    {ref}     REFERENCES players (id)               -- the account it linked
);
CREATE INDEX link_codes_by_player ON link_codes (player_id);

-- A wrong code typed: counted per account and in all over the last hour.
CREATE TABLE link_attempts (
    id        {id},                                            -- our id
    player_id {ref}     NOT NULL REFERENCES players (id),      -- the account that typed it
    at        {instant} NOT NULL                               -- when
);
CREATE INDEX link_attempts_by_player ON link_attempts (player_id, at);
CREATE INDEX link_attempts_by_time ON link_attempts (at);

-- A club of servers (Discord guilds, Matrix spaces, console servers) that
-- keep one standings table: formed by a moderator of one inviting another
-- server, whose own moderator accepts.
CREATE TABLE clubs (
    id         {id},                                           -- our id, typed to join (`/club join 3`)
    founded_by {ref}     NOT NULL REFERENCES servers (id),     -- the server whose moderator made the first invitation
    created_at {instant} NOT NULL                              -- when
);

-- A server invited to a club, or one of its members.
CREATE TABLE club_servers (
    club_id    {ref}     NOT NULL REFERENCES clubs (id),       -- the club
    server_id  {ref}     NOT NULL REFERENCES servers (id),     -- the server
    state      TEXT      NOT NULL,                             -- 'invited' | 'member'
    invited_at {instant} NOT NULL,                             -- when it was invited (or founded the club)
    joined_at  {instant},                                      -- when its moderator accepted; NULL: invited only
    PRIMARY KEY (club_id, server_id)
);
-- A server is a member of one club at most.
CREATE UNIQUE INDEX club_servers_one_club ON club_servers (server_id) WHERE state = 'member';

-- Where the other player of a game between two servers of a club plays it
-- from: the game lives in the challenger's channel; the challenged player
-- acts and is told in the channel where they accepted (of their platform).
CREATE TABLE game_places (
    game_id    {ref} NOT NULL REFERENCES games (id),        -- the game
    player_id  {ref} NOT NULL REFERENCES players (id),      -- the player who plays it from elsewhere
    server_id  {ref} NOT NULL REFERENCES servers (id),      -- their server
    channel_id {ref} NOT NULL REFERENCES channels (id),     -- their channel
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX game_places_by_channel ON game_places (channel_id);

--pg COMMENT ON COLUMN players.person_id IS 'The first account of the person this account is linked to; NULL: its own (or the first)';
--pg COMMENT ON COLUMN players.time_zone IS 'IANA time zone name (/settings timezone); NULL: UTC';
--pg COMMENT ON COLUMN players.digest_minute IS 'The daily digest''s local time, minutes after midnight; NULL: no digest';
--pg COMMENT ON COLUMN players.digest_next IS 'When the next digest is due (UTC); NULL: none, or this account is not the one it goes to';
--pg COMMENT ON COLUMN players.digest_last IS 'When the last digest was made (games finished since are listed)';
--pg COMMENT ON TABLE link_codes IS 'One-time codes that link two accounts; only their SHA-256 is kept';
--pg COMMENT ON COLUMN link_codes.code_hash IS 'SHA-256 of the normalised code, hex';
--pg COMMENT ON COLUMN link_codes.player_id IS 'The account that asked for the code (and saw it)';
--pg COMMENT ON COLUMN link_codes.created_at IS 'When it was made';
--pg COMMENT ON COLUMN link_codes.expires_at IS 'No use at or after this instant';
--pg COMMENT ON COLUMN link_codes.used_at IS 'When it linked an account; NULL: unused';
--pg COMMENT ON COLUMN link_codes.used_by IS 'The account it linked';
--pg COMMENT ON TABLE link_attempts IS 'Wrong link codes typed, counted per account and in all over the last hour';
--pg COMMENT ON COLUMN link_attempts.id IS 'Our id';
--pg COMMENT ON COLUMN link_attempts.player_id IS 'The account that typed the wrong code';
--pg COMMENT ON COLUMN link_attempts.at IS 'When';
--pg COMMENT ON TABLE clubs IS 'Clubs of servers of either platform that keep one standings table';
--pg COMMENT ON COLUMN clubs.id IS 'Our id, typed to join a club';
--pg COMMENT ON COLUMN clubs.founded_by IS 'The server whose moderator made the first invitation';
--pg COMMENT ON COLUMN clubs.created_at IS 'When the club was made';
--pg COMMENT ON TABLE club_servers IS 'Servers invited to a club, or its members';
--pg COMMENT ON COLUMN club_servers.club_id IS 'The club';
--pg COMMENT ON COLUMN club_servers.server_id IS 'The server';
--pg COMMENT ON COLUMN club_servers.state IS 'invited or member';
--pg COMMENT ON COLUMN club_servers.invited_at IS 'When it was invited (or founded the club)';
--pg COMMENT ON COLUMN club_servers.joined_at IS 'When its moderator accepted; NULL: invited only';
--pg COMMENT ON TABLE game_places IS 'Where the other player of a game between two servers of a club plays it from';
--pg COMMENT ON COLUMN game_places.game_id IS 'The game';
--pg COMMENT ON COLUMN game_places.player_id IS 'The player who plays it from elsewhere';
--pg COMMENT ON COLUMN game_places.server_id IS 'Their server';
--pg COMMENT ON COLUMN game_places.channel_id IS 'Their channel';
