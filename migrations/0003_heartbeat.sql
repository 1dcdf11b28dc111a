-- pawnpost schema, version 3: the bot's heartbeat, to credit clocks for downtime.

-- One row: the last instant the running bot was known to be alive. At
-- start-up a gap longer than the configured threshold is an outage, and
-- every running clock is given that time back.
CREATE TABLE heartbeat (
    id INTEGER PRIMARY KEY CHECK (id = 1), -- always 1: a single row
    at TEXT    NOT NULL                    -- RFC 3339 UTC instant of the last beat
);
