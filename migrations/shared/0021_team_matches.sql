-- Team matches (issue 25): two teams, of one server or of two servers of
-- one platform, play boards of two games each (one with each colour),
-- their members signed up and paired by rating. The games are ordinary
-- games of the home side's channel; the away side plays them from its own
-- channel, where its players' notices go.
CREATE TABLE team_matches (
    id              {id},                                       -- the match's number
    home_server_id  {ref} NOT NULL REFERENCES servers (id),      -- the server it was created on
    home_channel_id {ref} NOT NULL REFERENCES channels (id),     -- the channel it was created in: its games live there
    home_team_id    {ref} NOT NULL REFERENCES teams (id),        -- the team that proposed it
    away_server_id  {ref} NOT NULL REFERENCES servers (id),      -- the server of the team challenged (may be the home server)
    away_channel_id {ref} REFERENCES channels (id),             -- the channel it was accepted in; NULL until then
    away_team_id    {ref} NOT NULL REFERENCES teams (id),        -- the team challenged
    boards          {int} NOT NULL,                             -- the most boards played (fewer when fewer sign up)
    time_control    TEXT NOT NULL,                              -- its games' time control, as typed after time:
    state           TEXT NOT NULL,                              -- proposed, signup (accepted), running or over
    created_by      {ref} NOT NULL REFERENCES players (id),      -- who proposed it (starts it, as home moderators may)
    created_at      {instant} NOT NULL,                         -- when it was proposed
    started_at      {instant},                                  -- when its games were created
    ended_at        {instant},                                  -- when its last game ended
    version         {int} NOT NULL DEFAULT 0                    -- bumped by every change; a change names the version it read
);
-- The matches of a server, and the games playable from a channel.
CREATE INDEX team_matches_by_home_server ON team_matches (home_server_id);
CREATE INDEX team_matches_by_away_server ON team_matches (away_server_id);
CREATE INDEX team_matches_by_away_channel ON team_matches (away_channel_id);

CREATE TABLE match_players (
    match_id     {ref} NOT NULL REFERENCES team_matches (id),    -- the match
    player_id    {ref} NOT NULL REFERENCES players (id),         -- a member who signed up
    side         TEXT NOT NULL,                                 -- home or away
    joined_at    {instant} NOT NULL,                            -- when they signed up
    seq          {int} NOT NULL,                                -- their order of sign-up in the match: equal ratings go to the first
    withdrawn_at {instant},                                     -- when they withdrew (their remaining games lost)
    PRIMARY KEY (match_id, player_id)
);

CREATE TABLE match_games (
    game_id  {ref} NOT NULL PRIMARY KEY REFERENCES games (id),  -- a game of the match
    match_id {ref} NOT NULL REFERENCES team_matches (id),       -- the match
    board    {int} NOT NULL                                    -- its board (1 for the best rated players)
);
-- A match's games.
CREATE INDEX match_games_by_match ON match_games (match_id);

--pg COMMENT ON TABLE team_matches IS 'Matches between two teams, possibly of two servers: boards of two games each';
--pg COMMENT ON COLUMN team_matches.id IS 'The match''s number';
--pg COMMENT ON COLUMN team_matches.home_server_id IS 'The server it was created on';
--pg COMMENT ON COLUMN team_matches.home_channel_id IS 'The channel it was created in: its games live there';
--pg COMMENT ON COLUMN team_matches.home_team_id IS 'The team that proposed it';
--pg COMMENT ON COLUMN team_matches.away_server_id IS 'The server of the team challenged (may be the home server)';
--pg COMMENT ON COLUMN team_matches.away_channel_id IS 'The channel it was accepted in; NULL until then';
--pg COMMENT ON COLUMN team_matches.away_team_id IS 'The team challenged';
--pg COMMENT ON COLUMN team_matches.boards IS 'The most boards played (fewer when fewer sign up)';
--pg COMMENT ON COLUMN team_matches.time_control IS 'Its games'' time control, as typed after time:';
--pg COMMENT ON COLUMN team_matches.state IS 'proposed, signup (accepted), running or over';
--pg COMMENT ON COLUMN team_matches.created_by IS 'Who proposed it (starts it, as home moderators may)';
--pg COMMENT ON COLUMN team_matches.created_at IS 'When it was proposed';
--pg COMMENT ON COLUMN team_matches.started_at IS 'When its games were created';
--pg COMMENT ON COLUMN team_matches.ended_at IS 'When its last game ended';
--pg COMMENT ON COLUMN team_matches.version IS 'Bumped by every change; a change names the version it read';
--pg COMMENT ON TABLE match_players IS 'The members signed up for a team match';
--pg COMMENT ON COLUMN match_players.match_id IS 'The match';
--pg COMMENT ON COLUMN match_players.player_id IS 'A member who signed up';
--pg COMMENT ON COLUMN match_players.side IS 'home or away';
--pg COMMENT ON COLUMN match_players.joined_at IS 'When they signed up';
--pg COMMENT ON COLUMN match_players.seq IS 'Their order of sign-up in the match: equal ratings go to the first';
--pg COMMENT ON COLUMN match_players.withdrawn_at IS 'When they withdrew (their remaining games lost)';
--pg COMMENT ON TABLE match_games IS 'The games of team matches, by board';
--pg COMMENT ON COLUMN match_games.game_id IS 'A game of the match';
--pg COMMENT ON COLUMN match_games.match_id IS 'The match';
--pg COMMENT ON COLUMN match_games.board IS 'Its board (1 for the best rated players)';
