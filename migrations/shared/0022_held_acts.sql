-- A user's act waits for the process that answers it (the hold) in its own
-- row on SQLite, not in the due index: an act answered in time then costs
-- no index entry written and erased again. Acts are numbered in commit
-- order there (one writer at a time), so a worker finds the holds that ran
-- out unanswered by reading on from where every earlier one was done, and
-- makes those acts due. PostgreSQL numbers acts before they commit, out of
-- order, so it keeps a held act's due instant in the due index as before.
ALTER TABLE acts ADD COLUMN held_until {instant};

-- One row: how far held acts are done with.
CREATE TABLE held_acts_done (
    id      {int} PRIMARY KEY CHECK (id = 1), -- always 1: a single row
    through {int} NOT NULL                     -- every act numbered up to this one is answered, due or not held
);
-- Acts from before this step were never held in their rows (none: no row, read from 0).
INSERT INTO held_acts_done (id, through) SELECT 1, id FROM acts ORDER BY id DESC LIMIT 1;

--pg COMMENT ON COLUMN acts.held_until IS 'SQLite only: the act waits for its own process to answer it until then; NULL once answered or made due';
--pg COMMENT ON TABLE held_acts_done IS 'One row: how far the acts held in their rows (SQLite) are done with';
--pg COMMENT ON COLUMN held_acts_done.id IS 'Always 1: a single row';
--pg COMMENT ON COLUMN held_acts_done.through IS 'Every act numbered up to this one is answered, due, or was not held';
