-- Inbound mail: every message is stored raw before anything parses it; processing records the
-- outcome on the same row. Outgoing mail gains a Reply-To (the seat's signed reply address).

CREATE TABLE inbound_messages (
    id              bigserial PRIMARY KEY,
    received_at     timestamptz NOT NULL DEFAULT now(),
    raw             bytea NOT NULL,
    raw_sha256      text NOT NULL UNIQUE,
    truncated       boolean NOT NULL DEFAULT false,
    source          text NOT NULL CHECK (source IN ('pipe', 'imap', 'test')),
    envelope_from   text,
    envelope_to     text,
    status          text NOT NULL DEFAULT 'new'
                    CHECK (status IN ('new', 'accepted', 'rejected', 'duplicate', 'ignored')),
    message_id      text,
    from_addr       text,
    game_id         uuid REFERENCES games (id) ON DELETE SET NULL,
    seat            smallint,
    turn            integer,
    auth_results    jsonb,
    outcome         text,
    attempts        integer NOT NULL DEFAULT 0,
    locked_until    timestamptz,
    processed_at    timestamptz
);
CREATE INDEX inbound_new ON inbound_messages (id) WHERE status = 'new';
CREATE INDEX inbound_message_id ON inbound_messages (message_id) WHERE message_id IS NOT NULL;
CREATE INDEX inbound_game ON inbound_messages (game_id, id);
CREATE INDEX inbound_from_recent ON inbound_messages (lower(from_addr), received_at);

ALTER TABLE outbox ADD COLUMN reply_to text;
