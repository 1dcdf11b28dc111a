-- pawnpost on PostgreSQL: a player's open challenges found quickly, as
-- SQLite's migrations/0009_challenges_by_challenger.sql. A player may have
-- only so many open challenges at once (`[limits] open_challenges_per_player`),
-- and every new challenge counts the challenger's open ones.
CREATE INDEX challenges_open_by_challenger ON challenges (challenger_id, status);
