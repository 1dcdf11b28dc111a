-- Every act carried out and the delivery of its notices, in one row: the
-- act's commit writes one row (appended in commit order) instead of a
-- processed_acts row and an outbox row with three index entries. This
-- halves the pages each move writes and syncs.
CREATE TABLE acts (
    id           {id},                      -- commit order, and the outbox's queue order
    act_key      TEXT NOT NULL UNIQUE,      -- the platform's interaction or event id: a replay finds it taken
    processed_at {instant} NOT NULL,        -- when the act was committed
    answer       TEXT NOT NULL,             -- the replies as JSON: given again to a replay, and the notices to deliver
    platform     TEXT,                      -- whose worker delivers the notices: 'discord' | 'matrix' | 'console'; NULL: none to deliver
    server_id    {ref} REFERENCES servers (id), -- the community the notices are for (its moderators see refusals)
    next_item    {int} NOT NULL DEFAULT 0,  -- the answer item to send next (earlier ones are settled, or the act's own reply)
    attempts     {int} NOT NULL DEFAULT 0,  -- failed tries of the next item
    failures     {int} NOT NULL DEFAULT 0,  -- items given up (the platform refused them for good)
    last_error   TEXT,                      -- why the last try failed
    due_at       {instant}                  -- the notices' next try, or a worker's claim until then; NULL once done
);
-- Workers read only what is due on their platform.
CREATE INDEX acts_due ON acts (platform, due_at) WHERE due_at IS NOT NULL;
-- A server's undeliverable notices, newest first.
CREATE INDEX acts_failures ON acts (server_id, processed_at) WHERE failures > 0;

INSERT INTO acts (act_key, processed_at, answer, platform, server_id, next_item, attempts,
                  failures, last_error, due_at)
SELECT p.act_key, p.processed_at, p.answer, o.platform, o.server_id, coalesce(o.next_item, 0),
       coalesce(o.attempts, 0), coalesce(o.failures, 0), o.last_error, o.due_at
FROM processed_acts p LEFT JOIN outbox o ON o.act_key = p.act_key
ORDER BY p.processed_at, o.id;

DROP TABLE outbox;
DROP TABLE processed_acts;

--pg COMMENT ON TABLE acts IS 'Acts carried out, by idempotency key, with the answer given (a replay gets it again) and the delivery of the notices it holds (a transactional outbox)';
--pg COMMENT ON COLUMN acts.id IS 'Commit order, and the outbox''s queue order';
--pg COMMENT ON COLUMN acts.act_key IS 'The platform''s interaction or event id (unique across every process on this database)';
--pg COMMENT ON COLUMN acts.processed_at IS 'When the act was committed';
--pg COMMENT ON COLUMN acts.answer IS 'The replies as JSON text: given again to a replay, and the notices to deliver';
--pg COMMENT ON COLUMN acts.platform IS 'Whose worker delivers the notices: discord, matrix or console; NULL when there are none';
--pg COMMENT ON COLUMN acts.server_id IS 'The community the notices are for: its moderators see what could not be delivered';
--pg COMMENT ON COLUMN acts.next_item IS 'The answer item to send next (earlier ones are settled, or the act''s own reply)';
--pg COMMENT ON COLUMN acts.attempts IS 'Failed tries of the next item';
--pg COMMENT ON COLUMN acts.failures IS 'Items given up because the platform refused them for good';
--pg COMMENT ON COLUMN acts.last_error IS 'Why the last try failed';
--pg COMMENT ON COLUMN acts.due_at IS 'The notices'' next try, or a worker''s claim until then; NULL once done';
