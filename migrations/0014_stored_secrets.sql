-- No live secret at rest (issue 32, RULINGS P8 and O9): a mail to a seat is stored with
-- placeholders for its private order link and its signed reply address, and names the seat and
-- token generation they stand for; the server fills them from its key when the mail is sent.
-- Stored reports and rollback archives keep the link's placeholder. A sent mail's body is emptied
-- after the retention period.
--
-- Written to be run again on a database that has it (every statement is idempotent): the test of
-- the upgrade runs it over rows written the old way.

ALTER TABLE outbox
    -- The seat whose link and reply address the mail's placeholders stand for, and its token
    -- generation then (a replaced player's old mail never gets the new player's link).
    ADD COLUMN IF NOT EXISTS seat smallint,
    ADD COLUMN IF NOT EXISTS token_generation integer,
    -- When a sent mail's body (text, HTML, calendar) was emptied.
    ADD COLUMN IF NOT EXISTS body_purged_at timestamptz;

-- Sent mail whose body is still kept: what the retention purge looks at.
CREATE INDEX IF NOT EXISTS outbox_unpurged ON outbox (sent_at)
    WHERE sent_at IS NOT NULL AND body_purged_at IS NULL;

-- Existing rows, written with live links and addresses.
-- 1. A body holding a link that works names its seat: the token's hash is the seat's.
UPDATE outbox o
   SET seat = s.seat, token_generation = s.token_generation
  FROM seats s
 WHERE o.seat IS NULL AND s.game_id = o.game_id
   AND EXISTS (SELECT 1 FROM regexp_matches(o.body_text, '/play/([a-z2-7]{52})(?![a-z0-9])', 'g') AS m(t)
                WHERE s.token_hash = encode(sha256(convert_to(m.t[1], 'UTF8')), 'hex'));

-- 2. A seat's reply address without such a link: the seat it names, at its current generation,
--    but only while the mail is addressed to that seat's current player.
UPDATE outbox o
   SET seat = s.seat, token_generation = s.token_generation
  FROM seats s
 WHERE o.seat IS NULL AND s.game_id = o.game_id
   AND o.reply_to ~ '^orders\+[a-z2-7]+-[0-9]+\.[a-z2-7]{16}@'
   AND s.seat = substring(o.reply_to FROM '^orders\+[a-z2-7]+-([0-9]+)\.')::smallint
   AND lower(s.email) = lower(o.to_addr);

-- 3. Reply addresses become placeholders; a seat's address whose seat is unknown was dead
--    (another player's, or under an older key) and is dropped.
UPDATE outbox SET reply_to = CASE WHEN seat IS NOT NULL THEN 'seat-reply-address' END
 WHERE reply_to ~* '^orders\+';
UPDATE outbox SET reply_to = 'gm-reply-address' WHERE reply_to ~* '^gm\+';

-- 4. Every order link becomes the placeholder: in mail, stored reports and rollback archives.
CREATE FUNCTION pg_temp.without_links(t text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT regexp_replace(t, '(https?://[^[:space:]"''<>\\]*)?/play/[a-z2-7]{52}(?![a-z0-9])',
                          '[your private order link]', 'g')
$$;

UPDATE outbox
   SET body_text = pg_temp.without_links(body_text), body_html = pg_temp.without_links(body_html)
 WHERE body_text ~ '/play/[a-z2-7]{52}' OR body_html ~ '/play/[a-z2-7]{52}';

UPDATE reports
   SET body_text = pg_temp.without_links(body_text), body_html = pg_temp.without_links(body_html)
 WHERE body_text ~ '/play/[a-z2-7]{52}' OR body_html ~ '/play/[a-z2-7]{52}';

UPDATE rollbacks SET archive = pg_temp.without_links(archive::text)::jsonb
 WHERE archive::text ~ '/play/[a-z2-7]{52}';

DROP FUNCTION pg_temp.without_links(text);
