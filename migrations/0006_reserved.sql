-- pawnpost schema, version 6: reserved for another branch's migration.
-- This placeholder keeps the numbers contiguous (the runner needs that);
-- the lead replaces it with the real 0006 when merging.
SELECT 1;
