-- pawnpost schema, version 4: reminders before a flag falls.

-- The next instant the player to move is reminded (for example when 80% of
-- the time for this move is used, and 24 hours before the flag); NULL when
-- no reminder is left this turn. Moved forward in the same transaction that
-- records a sent reminder, so each is sent once, even across restarts.
ALTER TABLE games ADD COLUMN remind_at TEXT;

CREATE INDEX games_by_remind_at ON games (remind_at) WHERE remind_at IS NOT NULL;
