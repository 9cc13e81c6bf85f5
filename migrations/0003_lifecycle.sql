-- Turn lifecycle and GM tools (issue #3): a game's rhythm and policies, pauses, grace, reminders
-- and auto-release as durable timers, absences, the scheduler's heartbeat (outage guard),
-- replacement flags, standing orders, rollbacks kept as archives, and the GM audit log.

ALTER TABLE games
    -- crate::schedule::Rhythm as JSON; NULL means "every turn_length_secs".
    ADD COLUMN rhythm             jsonb,
    ADD COLUMN paused_at          timestamptz,
    ADD COLUMN cooling_off_secs   bigint NOT NULL DEFAULT 1800 CHECK (cooling_off_secs >= 0),
    ADD COLUMN reminder_offsets   bigint[] NOT NULL DEFAULT '{172800,43200,7200}',
    -- crate::service::policy::NmrPolicy as JSON.
    ADD COLUMN nmr_policy         jsonb NOT NULL DEFAULT '{}',
    -- Publish a draft after this many seconds of GM silence (review 'gm' only); NULL = never.
    ADD COLUMN auto_release_secs  bigint CHECK (auto_release_secs > 0),
    ADD COLUMN max_absence_days   integer NOT NULL DEFAULT 14 CHECK (max_absence_days >= 0);

ALTER TABLE turns
    -- Bumped whenever the announced deadline moves (the iCalendar SEQUENCE).
    ADD COLUMN deadline_version   integer NOT NULL DEFAULT 0,
    ADD COLUMN grace_secs         bigint NOT NULL DEFAULT 0 CHECK (grace_secs >= 0),
    -- Set when the NMR policy holds the closed-but-incomplete turn for the GM.
    ADD COLUMN held_at            timestamptz,
    ADD COLUMN held_reason        text,
    -- How often the turn was re-opened by a rollback (keeps re-sent mail distinct).
    ADD COLUMN reopened           integer NOT NULL DEFAULT 0;

ALTER TABLE seats
    ADD COLUMN time_zone          text,
    ADD COLUMN flagged_at         timestamptz;

-- A seat's absences (inclusive dates in the game's time zone); a deadline on such a day moves.
CREATE TABLE absences (
    id          bigserial PRIMARY KEY,
    game_id     uuid NOT NULL,
    seat        smallint NOT NULL,
    first_day   date NOT NULL,
    last_day    date NOT NULL CHECK (last_day >= first_day),
    created_at  timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat) ON DELETE CASCADE
);
CREATE INDEX absences_game ON absences (game_id, last_day);

-- Standing orders: used in a turn where the seat sent nothing, when the NMR policy allows.
CREATE TABLE standing_orders (
    id            bigserial PRIMARY KEY,
    game_id       uuid NOT NULL,
    seat          smallint NOT NULL,
    body          text NOT NULL,
    submitted_at  timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat) ON DELETE CASCADE
);
CREATE INDEX standing_orders_seat ON standing_orders (game_id, seat, id);

-- Durable timers (reminders, auto-release). Claimed FOR UPDATE SKIP LOCKED inside the
-- transaction that does their work, so a crash rolls the claim back and nothing is done twice.
CREATE TABLE timers (
    id           bigserial PRIMARY KEY,
    game_id      uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn         integer NOT NULL,
    kind         text NOT NULL CHECK (kind IN ('reminder', 'auto_release')),
    -- For reminders: how long before the deadline; due_at follows the deadline when it moves.
    offset_secs  bigint,
    due_at       timestamptz NOT NULL,
    done_at      timestamptz,
    outcome      text,
    UNIQUE (game_id, turn, kind, offset_secs)
);
CREATE INDEX timers_due ON timers (due_at) WHERE done_at IS NULL;

-- When the scheduler last ran a pass (one row). A gap longer than the threshold triggers the
-- outage guard.
CREATE TABLE scheduler_heartbeat (
    id       boolean PRIMARY KEY DEFAULT true CHECK (id),
    beat_at  timestamptz NOT NULL
);

-- What a rollback removed, kept whole: the turns, actions, reports and orders it undid.
CREATE TABLE rollbacks (
    id          bigserial PRIMARY KEY,
    game_id     uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    to_turn     integer NOT NULL,
    at          timestamptz NOT NULL,
    archive     jsonb NOT NULL
);

-- Every GM action and state change, append-only, each entry chained to the previous one of the
-- same game by SHA-256 so that tampering is detectable (crate::service::audit verifies).
CREATE TABLE audit_log (
    game_id    uuid NOT NULL REFERENCES games (id),
    seq        bigint NOT NULL CHECK (seq >= 1),
    at         timestamptz NOT NULL,
    actor      text NOT NULL,
    action     text NOT NULL,
    detail     jsonb NOT NULL,
    prev_hash  text NOT NULL,
    hash       text NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit_log is append-only';
END $$;
CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();

-- Outgoing mail may carry an iCalendar attachment (deadline mails).
ALTER TABLE outbox ADD COLUMN calendar text;

-- A GM entering orders for a seat is its own source.
ALTER TABLE order_versions DROP CONSTRAINT order_versions_source_check;
ALTER TABLE order_versions ADD CONSTRAINT order_versions_source_check
    CHECK (source IN ('web', 'api', 'console', 'mail', 'gm', 'gm_as_seat', 'standing'));
