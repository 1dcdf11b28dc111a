-- The web pages (issue 43). A game's page is reached only through an
-- unguessable link: a random token per game, made by the service the
-- first time the game's link is needed (its start, /board, its end),
-- never derived from the game's number.
CREATE TABLE game_links (
    game_id {ref} PRIMARY KEY REFERENCES games (id),  -- the game
    token   TEXT NOT NULL UNIQUE                      -- 32 hex digits (128 random bits): the page is /g/<token>
);

-- Whether a server's moderators opened its server-wide pages (standings,
-- ladder, openings, tournaments, team matches, players' pages) to the web
-- (/settings web on|off). Off by default: nothing of a server is public
-- until its moderators say so.
ALTER TABLE servers ADD COLUMN web_pages {flag} NOT NULL DEFAULT FALSE;

--pg COMMENT ON TABLE game_links IS 'The unguessable link of a game''s web page: a random token per game';
--pg COMMENT ON COLUMN game_links.game_id IS 'The game';
--pg COMMENT ON COLUMN game_links.token IS '32 hex digits (128 random bits): the page is /g/<token>';
--pg COMMENT ON COLUMN servers.web_pages IS 'Whether the server''s moderators opened its server-wide pages to the web (/settings web on|off)';
