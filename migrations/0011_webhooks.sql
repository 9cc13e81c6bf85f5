-- Issue 16: chat notifications. A player (per seat, for the seat's current player) or the GM
-- (seat NULL) registers one Discord/Slack-compatible webhook URL per game; notices to it go
-- through their own outbox with retries, like mail. The URL is a secret of its owner: it is
-- never shown back in full nor logged.
CREATE TABLE webhooks (
    id               bigserial PRIMARY KEY,
    game_id          uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat             smallint CHECK (seat >= 1),
    -- The seat's player it belongs to: a replacement player does not inherit it.
    token_generation integer NOT NULL DEFAULT 1,
    url              text NOT NULL,
    created_at       timestamptz NOT NULL
);
CREATE UNIQUE INDEX webhooks_one_per_owner ON webhooks (game_id, COALESCE(seat, 0));

CREATE TABLE webhook_outbox (
    id               bigserial PRIMARY KEY,
    idempotency_key  text NOT NULL,
    webhook_id       bigint NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    game_id          uuid NOT NULL,
    text             text NOT NULL,
    created_at       timestamptz NOT NULL,
    attempts         integer NOT NULL DEFAULT 0,
    next_attempt_at  timestamptz NOT NULL,
    leased_until     timestamptz,
    sent_at          timestamptz,
    last_error       text,
    gave_up_at       timestamptz,
    UNIQUE (webhook_id, idempotency_key)
);
CREATE INDEX webhook_outbox_due ON webhook_outbox (next_attempt_at) WHERE sent_at IS NULL AND gave_up_at IS NULL;
