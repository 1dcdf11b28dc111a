-- The language of a player's chat client at their latest act ('en' | 'fr';
-- NULL: unknown or another one), so that notices addressed to them come in
-- it when they chose no language of their own.
ALTER TABLE players ADD COLUMN client_language TEXT;

--pg COMMENT ON COLUMN players.client_language IS 'The language of the player''s chat client at their latest act (en, fr), for notices when they chose none';
