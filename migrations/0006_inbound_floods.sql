-- Inbound mail under flood (issue 11): refusals of mail that is not a seat's own are answered
-- at most once per seat and hour (`notice`: 'sent' or 'withheld', so the next notice can count
-- what was refused since), and mail for no seat is kept only up to a bound per sender and
-- overall (`unrouted`), each counted by an index holding only the rows it counts.
ALTER TABLE inbound_messages
    ADD COLUMN notice text CHECK (notice IN ('sent', 'withheld')),
    ADD COLUMN unrouted boolean NOT NULL DEFAULT false;
CREATE INDEX inbound_seat_notices ON inbound_messages (game_id, seat, notice, id) WHERE notice IS NOT NULL;
CREATE INDEX inbound_unrouted_recent ON inbound_messages (processed_at) WHERE unrouted;
DROP INDEX inbound_rejected_recent; -- the per-sender rejection limit it served is gone (RULING M1)
