-- Private notes: what a player writes about one of their games, seen only
-- by them (`/notes`, and as comments in the PGN they receive).
CREATE TABLE private_notes (
    id         {id},                                    -- the order they were written in
    game_id    {ref} NOT NULL REFERENCES games (id),     -- the game they are about
    player_id  {ref} NOT NULL REFERENCES players (id),   -- their writer, the only one who sees them
    ply        {int} NOT NULL,                          -- moves played when written: the note follows that move
    written_at {instant} NOT NULL,                      -- when it was written
    text       TEXT NOT NULL                            -- what was written (at most 1,000 characters)
);
-- A player's notes on a game, in order.
CREATE INDEX private_notes_by_game ON private_notes (game_id, player_id, id);

--pg COMMENT ON TABLE private_notes IS 'Notes a player keeps on one of their games, seen only by them';
--pg COMMENT ON COLUMN private_notes.id IS 'The order the notes were written in';
--pg COMMENT ON COLUMN private_notes.game_id IS 'The game they are about';
--pg COMMENT ON COLUMN private_notes.player_id IS 'Their writer, the only one who sees them';
--pg COMMENT ON COLUMN private_notes.ply IS 'Moves played when written: the note follows that move';
--pg COMMENT ON COLUMN private_notes.written_at IS 'When it was written';
--pg COMMENT ON COLUMN private_notes.text IS 'What was written (at most 1,000 characters)';
