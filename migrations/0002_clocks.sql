-- pawnpost schema, version 2: correspondence clocks.

-- The game's clock (the core's Clock as JSON: control, both banks, moves
-- made, when the side to move started thinking); NULL for games without one.
ALTER TABLE games ADD COLUMN clock TEXT;

-- The instant the side to move's flag falls (RFC 3339 UTC text, which sorts
-- by time); NULL when no flag can fall (over, unlimited, or paused).
ALTER TABLE games ADD COLUMN deadline TEXT;
