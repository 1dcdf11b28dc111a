-- The language a moderator chose for a server's public messages ('en' |
-- 'fr'; /settings server-language); NULL: none chosen, so the configured
-- default applies, read at each act. servers.language is no longer read:
-- written when the server was first seen, it froze the default of that day.
ALTER TABLE servers ADD COLUMN chosen_language TEXT;

--pg COMMENT ON COLUMN servers.chosen_language IS 'The language a moderator chose for the server''s public messages (en, fr); NULL: the configured default';
--pg COMMENT ON COLUMN servers.language IS 'No longer read (see chosen_language): the default language when the server was first seen';
