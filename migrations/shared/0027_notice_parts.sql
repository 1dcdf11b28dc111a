-- How far into one notice its delivery came (issue 42): a Matrix notice is
-- several events (its text, then its board and other files), and two events
-- are never sent atomically. Recorded before each further part goes out, so
-- a notice a crash cut between its text and its board is finished with the
-- board alone after a restart, however long after (the homeserver's memory
-- of transaction ids is short, and a new login does not share it).
ALTER TABLE acts ADD COLUMN next_part {int} NOT NULL DEFAULT 0;   -- parts of item next_item already sent

--pg COMMENT ON COLUMN acts.next_part IS 'Parts (text, then files) of the notice next_item already sent: the rest goes on from there';
