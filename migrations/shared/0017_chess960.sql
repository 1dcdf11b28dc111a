-- Chess960 (issue 23): the rules each challenge and game is played by, and
-- a rating pool per variant, so a Chess960 result never moves a standard
-- rating. The names are core::variant::Variant's: 'standard' | 'chess960'.
-- A Chess960 game keeps its start in start_fen (castling rights in X-FEN).
ALTER TABLE challenges ADD COLUMN variant TEXT NOT NULL DEFAULT 'standard';
ALTER TABLE games ADD COLUMN variant TEXT NOT NULL DEFAULT 'standard';

-- Ratings gain the pool in their key. A primary key cannot be changed in
-- place on SQLite, so the table is built again and the rows copied into
-- the standard pool, which every rating so far belongs to.
CREATE TABLE ratings_by_pool (
    server_id  {ref}     NOT NULL REFERENCES servers (id) DEFERRABLE, -- the server the rating belongs to
    player_id  {ref}     NOT NULL REFERENCES players (id) DEFERRABLE, -- the rated player
    pool       TEXT      NOT NULL,        -- the variant rated: 'standard' | 'chess960'
    rating     {real}    NOT NULL,        -- Glicko rating (1500 at the start)
    deviation  {real}    NOT NULL,        -- rating deviation (RD), clamped to the configured floor and ceiling
    volatility {real}    NOT NULL,        -- Glicko-2 volatility σ
    games      {int}     NOT NULL,        -- rated games counted in this pool; an update names the count it read
    rated_at   {instant} NOT NULL,        -- end of the last rated game in this pool (RD grows from there)
    PRIMARY KEY (server_id, player_id, pool)
);
INSERT INTO ratings_by_pool (server_id, player_id, pool, rating, deviation, volatility, games,
                             rated_at)
SELECT server_id, player_id, 'standard', rating, deviation, volatility, games, rated_at
FROM ratings;
DROP TABLE ratings;
ALTER TABLE ratings_by_pool RENAME TO ratings;

-- Each history row is in its game's pool; the chart shows one pool.
ALTER TABLE rating_history ADD COLUMN pool TEXT NOT NULL DEFAULT 'standard';
DROP INDEX rating_history_by_player;
CREATE INDEX rating_history_by_player ON rating_history (server_id, player_id, pool, id);

--pg COMMENT ON COLUMN challenges.variant IS 'The rules the game is played by: standard | chess960';
--pg COMMENT ON COLUMN games.variant IS 'The rules the game is played by: standard | chess960 (its start is in start_fen)';
--pg COMMENT ON TABLE ratings IS 'A player''s current Glicko-2 rating on one server in one pool; no row until their first rated game there (the configured defaults apply until then)';
--pg COMMENT ON COLUMN ratings.server_id IS 'The server the rating belongs to';
--pg COMMENT ON COLUMN ratings.player_id IS 'The rated player';
--pg COMMENT ON COLUMN ratings.pool IS 'The variant rated: standard | chess960';
--pg COMMENT ON COLUMN ratings.rating IS 'Glicko rating (1500 at the start)';
--pg COMMENT ON COLUMN ratings.deviation IS 'Rating deviation (RD), clamped to the configured floor and ceiling';
--pg COMMENT ON COLUMN ratings.volatility IS 'Glicko-2 volatility σ';
--pg COMMENT ON COLUMN ratings.games IS 'Rated games counted in this pool; an update names the count it read';
--pg COMMENT ON COLUMN ratings.rated_at IS 'End of the last rated game in this pool (RD grows from there)';
--pg COMMENT ON COLUMN rating_history.pool IS 'The variant rated: standard | chess960';
