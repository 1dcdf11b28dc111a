-- Each player's conditional moves in a running game, as JSON: per side, a
-- list of lines of UCI moves (castling as king-takes-rook), each beginning
-- with the opponent's move; NULL when neither has any. Kept with the game so that a
-- move and the reply it triggers are one commit, checked by the game's version.
ALTER TABLE games ADD COLUMN conditionals {json};

--pg COMMENT ON COLUMN games.conditionals IS 'Each player''s conditional moves while the game runs (JSON, UCI lines beginning with the opponent''s move); NULL when none';
