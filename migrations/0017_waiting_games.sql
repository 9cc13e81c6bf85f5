-- Issue 37: games created from the web wait for their seats. A waiting game keeps what the GM
-- asked for; when its seats are filled (or the GM starts it early) it is created as any game is,
-- under the same id, and its audit log goes on from the entries it gathered while waiting.

CREATE TABLE waiting_games (
    id            uuid PRIMARY KEY,
    gm_email      text NOT NULL,
    name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    engine        text NOT NULL,
    options       jsonb NOT NULL,
    -- crate::schedule::ClockWords: the GM's words, read again when the game starts.
    clock_words   jsonb NOT NULL,
    review        text NOT NULL CHECK (review IN ('gm', 'auto')),
    seats         smallint NOT NULL CHECK (seats BETWEEN 1 AND 255),
    -- The seed of the game, drawn now so that a shuffled seating can be checked (RULING W44).
    seed          bigint NOT NULL,
    shuffle       boolean NOT NULL,
    -- Open seats taken by players who asked to join wait for the GM's approval.
    approval      boolean NOT NULL DEFAULT false,
    status        text NOT NULL CHECK (status IN ('waiting', 'started', 'cancelled')),
    created_at    timestamptz NOT NULL,
    closed_at     timestamptz
);
CREATE INDEX waiting_games_open ON waiting_games (created_at) WHERE status = 'waiting';

-- The places of a waiting game, and of a running game's seat offered as a replacement: a seat
-- invited by address, an open seat, a request to join (a taken seat or the waiting list).
CREATE TABLE seat_places (
    id            bigserial PRIMARY KEY,
    game_id       uuid NOT NULL,
    -- For a running game's replacement seat: which seat.
    seat          smallint,
    kind          text NOT NULL CHECK (kind IN ('invited', 'joined')),
    email         text CHECK (email = lower(email)),
    name          text,
    status        text NOT NULL CHECK (status IN
                    ('pending', 'unconfirmed', 'unapproved', 'accepted', 'waitlisted',
                     'declined', 'expired', 'refused', 'withdrawn')),
    -- The invitation's or the join confirmation's link (hash of the key's tag of a nonce).
    token_hash    text UNIQUE,
    expires_at    timestamptz,
    created_at    timestamptz NOT NULL,
    answered_at   timestamptz
);
CREATE INDEX seat_places_game ON seat_places (game_id, id);
CREATE INDEX seat_places_email ON seat_places (email, game_id);

-- A waiting game's audit entries exist before its row in games does.
ALTER TABLE audit_log DROP CONSTRAINT audit_log_game_id_fkey;

-- Requests to join a game are limited per address and per client like sign-in links (RULING W46).
ALTER TABLE gm_signin_attempts DROP CONSTRAINT gm_signin_attempts_kind_check;
ALTER TABLE gm_signin_attempts ADD CONSTRAINT gm_signin_attempts_kind_check
    CHECK (kind IN ('password', 'link', 'join'));
