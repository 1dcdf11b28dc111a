-- Teams and vote chess (issue 25). A team is a named set of a server's
-- members; in a game it is played by a stand-in player row (its name the
-- team's, its platform id '@@team:' and the team's id, which no user id
-- and no mention can be), so that games, clocks, PGN and standings need
-- nothing new. Its members vote on each of its moves.
CREATE TABLE teams (
    id         {id},                                    -- the team's number
    server_id  {ref} NOT NULL REFERENCES servers (id),   -- the server it belongs to
    name       TEXT NOT NULL,                           -- its name as created (at most 32 characters)
    name_key   TEXT NOT NULL,                           -- its name in lower case: unique on the server
    player_id  {ref} REFERENCES players (id),           -- the stand-in player that plays its games (set in the commit that creates it)
    created_by {ref} NOT NULL REFERENCES players (id),   -- who created it (may delete it, as moderators may)
    created_at {instant} NOT NULL,                      -- when it was created
    UNIQUE (server_id, name_key)
);
-- A game's teams, found by their stand-in players.
CREATE INDEX teams_by_player ON teams (player_id);

CREATE TABLE team_members (
    team_id   {ref} NOT NULL REFERENCES teams (id),      -- the team
    player_id {ref} NOT NULL REFERENCES players (id),    -- one of its members
    joined_at {instant} NOT NULL,                       -- when they joined (members who join during a game vote too)
    PRIMARY KEY (team_id, player_id)
);
-- A player's teams.
CREATE INDEX team_members_by_player ON team_members (player_id);

CREATE TABLE votes (
    game_id     {ref} NOT NULL REFERENCES games (id),    -- the vote game
    ply         {int} NOT NULL,                         -- the move voted on (1 for the game's first move)
    player_id   {ref} NOT NULL REFERENCES players (id),  -- the member who voted
    choice      TEXT NOT NULL,                          -- a move in UCI (castling as king takes rook), or 'resign' or 'accept'
    offers_draw {flag} NOT NULL DEFAULT FALSE,          -- a move voted with a draw offer
    voted_at    {instant} NOT NULL,                     -- when the vote was cast (or last changed)
    seq         {int} NOT NULL,                         -- its order among the move's votes (a changed vote is cast anew): ties go to the move voted first
    PRIMARY KEY (game_id, ply, player_id)
);

-- Whether a vote game's members may change their vote before the move is
-- played; NULL for a challenge between two players.
ALTER TABLE challenges ADD COLUMN votes_changeable {flag};

--pg COMMENT ON TABLE teams IS 'Named sets of a server''s members that play vote chess';
--pg COMMENT ON COLUMN teams.id IS 'The team''s number';
--pg COMMENT ON COLUMN teams.server_id IS 'The server it belongs to';
--pg COMMENT ON COLUMN teams.name IS 'Its name as created (at most 32 characters)';
--pg COMMENT ON COLUMN teams.name_key IS 'Its name in lower case: unique on the server';
--pg COMMENT ON COLUMN teams.player_id IS 'The stand-in player that plays its games';
--pg COMMENT ON COLUMN teams.created_by IS 'Who created it (may delete it, as moderators may)';
--pg COMMENT ON COLUMN teams.created_at IS 'When it was created';
--pg COMMENT ON TABLE team_members IS 'Who belongs to which team';
--pg COMMENT ON COLUMN team_members.team_id IS 'The team';
--pg COMMENT ON COLUMN team_members.player_id IS 'One of its members';
--pg COMMENT ON COLUMN team_members.joined_at IS 'When they joined (members who join during a game vote too)';
--pg COMMENT ON TABLE votes IS 'Team members'' votes on their team''s moves, secret until the move is played';
--pg COMMENT ON COLUMN votes.game_id IS 'The vote game';
--pg COMMENT ON COLUMN votes.ply IS 'The move voted on (1 for the game''s first move)';
--pg COMMENT ON COLUMN votes.player_id IS 'The member who voted';
--pg COMMENT ON COLUMN votes.choice IS 'A move in UCI (castling as king takes rook), or resign or accept';
--pg COMMENT ON COLUMN votes.offers_draw IS 'A move voted with a draw offer';
--pg COMMENT ON COLUMN votes.voted_at IS 'When the vote was cast (or last changed)';
--pg COMMENT ON COLUMN votes.seq IS 'Its order among the move''s votes: ties go to the move voted first';
--pg COMMENT ON COLUMN challenges.votes_changeable IS 'A vote game''s members may change their vote before the move; NULL between two players';
