-- How a player writes moves (`/settings notation`), and the letters they
-- settled by answering which reading they meant: a settled letter is read
-- one way only for them (French `R` the king, English `R` the rook), so
-- they are asked only about letters they never settled.
ALTER TABLE players ADD COLUMN notation TEXT;          -- 'en' | 'fr' | 'de': the notation they said they write; NULL: auto (every reading)
ALTER TABLE players ADD COLUMN notation_letters TEXT;  -- letters settled by their answers ('B=bishop,R=rook'); NULL: none
ALTER TABLE players ADD COLUMN notation_question TEXT; -- the last question about a letter's reading, until answered (JSON: game, ply, letter, readings)

--pg COMMENT ON COLUMN players.notation IS 'The notation the player said they write (en, fr, de); NULL: auto, every reading';
--pg COMMENT ON COLUMN players.notation_letters IS 'Letters the player settled by answering which reading they meant (B=bishop,R=rook); NULL: none';
--pg COMMENT ON COLUMN players.notation_question IS 'The last question about a letter''s reading, until answered (JSON: game, ply, letter, readings)';
