-- Engine reviews of finished games (issue 24), the puzzles drawn from them
-- and who tried which puzzle. A review keeps only the engine's evaluations;
-- accuracy and the judgements are worked out from them (core::review).
CREATE TABLE reviews (
    game_id     {ref} PRIMARY KEY REFERENCES games (id), -- the finished game reviewed
    engine      TEXT NOT NULL,                          -- the engine as it named itself
    nodes       {int} NOT NULL,                         -- nodes searched per position
    evals       TEXT NOT NULL,                          -- per position, start first: the evaluation and the engine line (core::review::PositionEval's text)
    reviewed_at {instant} NOT NULL                      -- when the review was made
);

CREATE TABLE puzzles (
    id        {id},                                    -- the puzzle's number on every server
    server_id {ref} NOT NULL REFERENCES servers (id),   -- the server whose game it comes from
    game_id   {ref} NOT NULL REFERENCES games (id),     -- the finished game it comes from
    ply       {int} NOT NULL,                          -- moves played before its position
    fen       TEXT NOT NULL,                           -- its position, the solver to move
    solution  TEXT NOT NULL,                           -- the engine's winning move in UCI
    UNIQUE (game_id, ply)
);
CREATE INDEX puzzles_by_server ON puzzles (server_id, id);

CREATE TABLE puzzle_attempts (
    puzzle_id   {ref} NOT NULL REFERENCES puzzles (id),  -- the puzzle tried
    player_id   {ref} NOT NULL REFERENCES players (id),  -- who tried it
    given_at    {instant} NOT NULL,                     -- when it was shown to them
    solved      {flag},                                 -- NULL until answered, then whether it was solved
    answered_at {instant},                              -- when they answered
    PRIMARY KEY (puzzle_id, player_id)
);
-- A player's unanswered puzzle.
CREATE INDEX puzzle_attempts_by_player ON puzzle_attempts (player_id, answered_at);

-- A tournament's organiser may keep its games from review until their round is over.
ALTER TABLE tournaments ADD COLUMN reviews_after_round {flag} NOT NULL DEFAULT FALSE;

--pg COMMENT ON TABLE reviews IS 'Engine reviews of finished games';
--pg COMMENT ON COLUMN reviews.game_id IS 'The finished game reviewed';
--pg COMMENT ON COLUMN reviews.engine IS 'The engine as it named itself';
--pg COMMENT ON COLUMN reviews.nodes IS 'Nodes searched per position';
--pg COMMENT ON COLUMN reviews.evals IS 'Per position, start first: the evaluation and the engine line';
--pg COMMENT ON COLUMN reviews.reviewed_at IS 'When the review was made';
--pg COMMENT ON TABLE puzzles IS 'Puzzles drawn from the blunders of a server''s reviewed games';
--pg COMMENT ON COLUMN puzzles.id IS 'The puzzle''s number on every server';
--pg COMMENT ON COLUMN puzzles.server_id IS 'The server whose game it comes from';
--pg COMMENT ON COLUMN puzzles.game_id IS 'The finished game it comes from';
--pg COMMENT ON COLUMN puzzles.ply IS 'Moves played before its position';
--pg COMMENT ON COLUMN puzzles.fen IS 'Its position, the solver to move';
--pg COMMENT ON COLUMN puzzles.solution IS 'The engine''s winning move in UCI';
--pg COMMENT ON TABLE puzzle_attempts IS 'Who tried which puzzle, and how it went';
--pg COMMENT ON COLUMN puzzle_attempts.puzzle_id IS 'The puzzle tried';
--pg COMMENT ON COLUMN puzzle_attempts.player_id IS 'Who tried it';
--pg COMMENT ON COLUMN puzzle_attempts.given_at IS 'When it was shown to them';
--pg COMMENT ON COLUMN puzzle_attempts.solved IS 'NULL until answered, then whether it was solved';
--pg COMMENT ON COLUMN puzzle_attempts.answered_at IS 'When they answered';
--pg COMMENT ON COLUMN tournaments.reviews_after_round IS 'Its games are reviewed only once their round is over';
