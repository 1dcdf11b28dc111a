-- Engines running reviews at once, across every process that shares this
-- database (issue 42): a hundred processes once ran a hundred engines. A
-- process leases a numbered slot below `[analysis] max_engines` before it
-- starts its engine, and gives it back when the engine is gone. A lease
-- ends by itself at `leased_until` (after the review's deadline), so the
-- slot of a process that crashed comes back.
CREATE TABLE engine_slots (
    slot         {int} PRIMARY KEY,   -- the slot's number, from 0
    holder       TEXT NOT NULL,       -- the process that leased it (its own random name)
    leased_until {instant} NOT NULL   -- free again from then, given back or not
);

--pg COMMENT ON TABLE engine_slots IS 'Engines running reviews at once across processes: a slot leased per running engine, up to [analysis] max_engines';
--pg COMMENT ON COLUMN engine_slots.slot IS 'The slot''s number, from 0';
--pg COMMENT ON COLUMN engine_slots.holder IS 'The process that leased it (its own random name)';
--pg COMMENT ON COLUMN engine_slots.leased_until IS 'Free again from then, given back or not';
