-- Outbound delivery (issue 11): mail is retried for days with a capped backoff and given up
-- visibly instead of being parked far in the future; the GM is told what is undelivered; a
-- claim is a short lease renewed by its worker while it sends (rulings O1–O5).

ALTER TABLE outbox
    -- The first failed attempt since the mail was queued (or re-sent by the GM): "since when".
    ADD COLUMN first_failed_at timestamptz,
    -- Why the last attempt failed: no SMTP reply at all ('unreachable'), a temporary refusal or
    -- one that is not about this mail ('deferred'), a refusal of this mail for good ('refused'),
    -- or the row cannot become a message ('unsendable').
    ADD COLUMN failure text CHECK (failure IN ('unreachable', 'deferred', 'refused', 'unsendable')),
    -- Set when delivery was given up; such a row is never claimed until the GM re-sends it.
    ADD COLUMN gave_up_at timestamptz,
    -- Set when the row was listed in a summary mail to its game's GM (or went out after a
    -- hiccup too short to tell).
    ADD COLUMN gm_notified_at timestamptz,
    -- The worker process holding the lease, so only it renews the lease.
    ADD COLUMN claimed_by uuid;

-- Rows given up under the old rule were parked a hundred years ahead: they become given up.
UPDATE outbox
   SET gave_up_at = now(), first_failed_at = created_at, failure = 'unreachable', next_attempt_at = now()
 WHERE sent_at IS NULL AND next_attempt_at > now() + interval '50 years';

DROP INDEX outbox_pending;
CREATE INDEX outbox_pending ON outbox (next_attempt_at) WHERE sent_at IS NULL AND gave_up_at IS NULL;
-- A game's undelivered mail (the GM dashboard) and mail the GM has not been told about yet.
CREATE INDEX outbox_undelivered ON outbox (game_id) WHERE sent_at IS NULL AND first_failed_at IS NOT NULL;
CREATE INDEX outbox_untold ON outbox (first_failed_at) WHERE first_failed_at IS NOT NULL AND gm_notified_at IS NULL;
