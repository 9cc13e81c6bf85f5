-- Issue 37: who may create games, and the GMs a game has besides the one who created it.

-- Addresses the operator invited to create games (`stationmaster gm invite`), lower-cased.
-- A revoked invitation keeps its row, with the time it was revoked.
CREATE TABLE gm_creators (
    email       text PRIMARY KEY CHECK (email = lower(email)),
    invited_at  timestamptz NOT NULL,
    revoked_at  timestamptz
);

-- Co-GMs: they see and change the game as its GM does (RULING W42). Lower-cased addresses.
CREATE TABLE game_gms (
    game_id   uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    email     text NOT NULL CHECK (email = lower(email)),
    added_at  timestamptz NOT NULL,
    added_by  text NOT NULL,
    PRIMARY KEY (game_id, email)
);
CREATE INDEX game_gms_email ON game_gms (email);
