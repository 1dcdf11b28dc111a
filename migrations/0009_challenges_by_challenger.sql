-- pawnpost schema, version 9: find a player's open challenges quickly.

-- A player may have only so many open challenges at once (`[limits]
-- open_challenges_per_player`); every new challenge counts the challenger's
-- open ones, which this index finds without reading the whole table.
CREATE INDEX challenges_open_by_challenger ON challenges (challenger_id, status);
