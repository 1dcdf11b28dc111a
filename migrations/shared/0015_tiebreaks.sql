-- The tie-breaks a tournament ranks by after the points, in their order:
-- FIDE's acronyms (Handbook C.07) joined by commas, as 'BH-C1,BH,SB,WIN'.
-- Chosen at creation; a tournament created before the choice keeps the
-- ranking it had, its system's default: Buchholz cut-1, Buchholz,
-- Sonneborn-Berger and wins for a Swiss tournament; direct encounter,
-- Sonneborn-Berger and wins for every other system.
ALTER TABLE tournaments ADD COLUMN tiebreaks TEXT NOT NULL DEFAULT '';
UPDATE tournaments
   SET tiebreaks = CASE system WHEN 'swiss' THEN 'BH-C1,BH,SB,WIN' ELSE 'DE,SB,WIN' END;

--pg COMMENT ON COLUMN tournaments.tiebreaks IS 'The tie-breaks after the points, in order: FIDE acronyms joined by commas (BH-C1,BH,SB,WIN)';
