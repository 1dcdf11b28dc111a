-- Where the bot still is (issue 40). A server the bot was removed from
-- (Discord's GUILD_DELETE without `unavailable`) keeps its rows: its games'
-- clocks stop, its notices wait untried, and a cross-server match refuses
-- it, until the bot is added back. A deleted channel or thread keeps its
-- games, whose notices then go to their players directly.
ALTER TABLE servers ADD COLUMN absent_since {instant};
ALTER TABLE channels ADD COLUMN gone_since {instant};

--pg COMMENT ON COLUMN servers.absent_since IS 'When the bot was removed from the server; NULL while it is in it';
--pg COMMENT ON COLUMN channels.gone_since IS 'When the channel or thread was deleted; NULL while it exists';
