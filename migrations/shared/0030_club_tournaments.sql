-- A club's tournaments (issue 44): a member of another server of the club
-- joins from their own channel, and plays their games from there.
ALTER TABLE tournament_entrants ADD COLUMN channel_id {ref} REFERENCES channels (id); -- where the entrant plays from; NULL: the tournament's channel

--pg COMMENT ON COLUMN tournament_entrants.channel_id IS 'Where the entrant plays from, when they joined from another server of the club; NULL: the tournament''s channel';
