-- Notices people must receive (a turn, a fallen flag, a reminder), kept in
-- the commit of the act that caused them and delivered afterwards by the
-- platform's worker, so a crash between the two loses nothing. The notices
-- themselves are the act's stored answer (processed_acts.answer, a JSON
-- array); this row says how far their delivery has come.
CREATE TABLE outbox (
    id         {id},                        -- queue order: notices go out in the order their acts committed
    act_key    TEXT NOT NULL UNIQUE,        -- the act whose answer holds the notices
    platform   TEXT NOT NULL,               -- whose worker delivers them: 'discord' | 'matrix' | 'console'
    next_item  {int} NOT NULL,              -- the answer item to send next (earlier ones are settled, or the act's own reply)
    attempts   {int} NOT NULL DEFAULT 0,    -- failed tries of the next item
    failures   {int} NOT NULL DEFAULT 0,    -- items given up (the platform refused them for good)
    last_error TEXT,                        -- why the last try failed
    due_at     {instant},                   -- next try, or a worker's claim until then; NULL once done
    created_at {instant} NOT NULL           -- when the act committed
);
-- Workers read only what is due on their platform.
CREATE INDEX outbox_due ON outbox (platform, due_at) WHERE due_at IS NOT NULL;

--pg COMMENT ON TABLE outbox IS 'Delivery of the notices an act''s stored answer holds (a transactional outbox)';
--pg COMMENT ON COLUMN outbox.id IS 'Queue order: notices go out in the order their acts committed';
--pg COMMENT ON COLUMN outbox.act_key IS 'The act whose answer (processed_acts.answer) holds the notices';
--pg COMMENT ON COLUMN outbox.platform IS 'Whose worker delivers them: discord, matrix or console';
--pg COMMENT ON COLUMN outbox.next_item IS 'The answer item to send next (earlier ones are settled, or the act''s own reply)';
--pg COMMENT ON COLUMN outbox.attempts IS 'Failed tries of the next item';
--pg COMMENT ON COLUMN outbox.failures IS 'Items given up because the platform refused them for good';
--pg COMMENT ON COLUMN outbox.last_error IS 'Why the last try failed';
--pg COMMENT ON COLUMN outbox.due_at IS 'Next try, or a worker''s claim until then; NULL once done';
--pg COMMENT ON COLUMN outbox.created_at IS 'When the act committed';
