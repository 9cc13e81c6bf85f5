-- Stationmaster schema. Append-only migrations: never edit one that has been applied.
-- Order versions, final marks, actions and audit-like rows are only ever inserted.

CREATE TABLE server_secrets (
    name        text PRIMARY KEY,
    value       text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE games (
    id                uuid PRIMARY KEY,
    name              text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    engine            text NOT NULL,
    rules_version     integer NOT NULL,
    seed              bigint NOT NULL,
    setup             jsonb NOT NULL,
    gm_email          text NOT NULL,
    review            text NOT NULL CHECK (review IN ('gm', 'auto')),
    turn_length_secs  bigint NOT NULL CHECK (turn_length_secs > 0),
    status            text NOT NULL CHECK (status IN ('active', 'finished')),
    state             jsonb NOT NULL,
    next_seq          bigint NOT NULL DEFAULT 0,
    current_turn      integer NOT NULL DEFAULT 1,
    created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX games_gm_email ON games (lower(gm_email));

CREATE TABLE seats (
    game_id      uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         smallint NOT NULL CHECK (seat >= 1),
    player_name  text NOT NULL,
    email        text NOT NULL,
    token_hash   text NOT NULL UNIQUE,
    nmr_count    integer NOT NULL DEFAULT 0,
    token_generation integer NOT NULL DEFAULT 1,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE turns (
    game_id       uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    number        integer NOT NULL CHECK (number >= 1),
    status        text NOT NULL CHECK (status IN ('open', 'draft', 'published', 'failed')),
    opened_at     timestamptz NOT NULL,
    deadline      timestamptz NOT NULL,
    acting_seats  smallint[] NOT NULL,
    start_state   jsonb NOT NULL,
    first_seq     bigint NOT NULL,
    closed_at     timestamptz,
    close_reason  text,
    draft         jsonb,
    failure       text,
    published_at  timestamptz,
    PRIMARY KEY (game_id, number)
);
CREATE INDEX turns_open_deadline ON turns (deadline) WHERE status = 'open';

CREATE TABLE order_versions (
    id            bigserial PRIMARY KEY,
    game_id       uuid NOT NULL,
    turn          integer NOT NULL,
    seat          smallint NOT NULL,
    version       integer NOT NULL CHECK (version >= 1),
    body          text NOT NULL,
    canonical     text NOT NULL,
    salt          text NOT NULL,
    digest        text NOT NULL,
    echo          jsonb NOT NULL,
    source        text NOT NULL CHECK (source IN ('web', 'api', 'console', 'mail', 'gm')),
    submitted_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (game_id, turn, seat, version),
    FOREIGN KEY (game_id, turn) REFERENCES turns (game_id, number) ON DELETE CASCADE,
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat) ON DELETE CASCADE
);

-- A seat's orders are final when its latest version carries a final mark.
CREATE TABLE final_marks (
    id         bigserial PRIMARY KEY,
    game_id    uuid NOT NULL,
    turn       integer NOT NULL,
    seat       smallint NOT NULL,
    version    integer NOT NULL,
    marked_at  timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (game_id, turn, seat, version)
        REFERENCES order_versions (game_id, turn, seat, version) ON DELETE CASCADE
);

CREATE TABLE actions (
    game_id     uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq         bigint NOT NULL CHECK (seq >= 0),
    turn        integer NOT NULL,
    seat        smallint NOT NULL,
    action      jsonb NOT NULL,
    by_default  boolean NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE reports (
    game_id    uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn       integer NOT NULL,
    seat       smallint NOT NULL,
    subject    text NOT NULL,
    body_text  text NOT NULL,
    body_html  text NOT NULL,
    PRIMARY KEY (game_id, turn, seat)
);

-- Mail to send. Written in the same transaction as whatever caused it; delivered afterwards by
-- the outbox worker. idempotency_key makes enqueueing the same mail twice a no-op.
CREATE TABLE outbox (
    id               bigserial PRIMARY KEY,
    idempotency_key  text NOT NULL UNIQUE,
    game_id          uuid REFERENCES games (id) ON DELETE SET NULL,
    kind             text NOT NULL,
    to_addr          text NOT NULL,
    to_name          text,
    subject          text NOT NULL,
    body_text        text NOT NULL,
    body_html        text,
    message_id       text NOT NULL UNIQUE,
    in_reply_to      text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    attempts         integer NOT NULL DEFAULT 0,
    next_attempt_at  timestamptz NOT NULL DEFAULT now(),
    locked_until     timestamptz,
    sent_at          timestamptz,
    last_error       text
);
CREATE INDEX outbox_pending ON outbox (next_attempt_at) WHERE sent_at IS NULL;

CREATE TABLE gm_accounts (
    email          text PRIMARY KEY,
    password_hash  text NOT NULL,
    updated_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE gm_login_tokens (
    token_hash  text PRIMARY KEY,
    email       text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz
);

CREATE TABLE gm_sessions (
    token_hash  text PRIMARY KEY,
    email       text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL
);
