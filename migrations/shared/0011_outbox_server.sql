-- The community a notice was for, so that its moderators see what could
-- not be delivered (`/chess status`). NULL for rows written before.
ALTER TABLE outbox ADD COLUMN server_id {ref} REFERENCES servers (id);
-- A server's undeliverable notices, newest first.
CREATE INDEX outbox_failures ON outbox (server_id, created_at) WHERE failures > 0;

--pg COMMENT ON COLUMN outbox.server_id IS 'The community the notices were for: its moderators see what could not be delivered';
