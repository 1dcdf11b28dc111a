-- A challenge to continue a game begun elsewhere: the moves already played
-- from the start position, in UCI, space-separated (NULL: a new game). The
-- game it becomes starts with them.
ALTER TABLE challenges ADD COLUMN start_moves TEXT;

--pg COMMENT ON COLUMN challenges.start_moves IS 'Moves already played elsewhere, UCI, space-separated; the game starts with them (NULL: a new game)';
