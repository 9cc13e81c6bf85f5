-- GM sign-in attempts (issue 11, rulings W2 and W3): failed passwords and mailed-link requests,
-- by account and by client address, so sign-in can be rate-limited across server processes.
-- Rows older than a day serve no limit and are pruned as new ones are written.
CREATE TABLE gm_signin_attempts (
    id      bigserial PRIMARY KEY,
    kind    text NOT NULL CHECK (kind IN ('password', 'link')),
    email   text NOT NULL,
    client  text NOT NULL,
    at      timestamptz NOT NULL
);
CREATE INDEX gm_signin_attempts_by_email ON gm_signin_attempts (kind, email, at);
CREATE INDEX gm_signin_attempts_by_client ON gm_signin_attempts (kind, client, at);
CREATE INDEX gm_signin_attempts_by_age ON gm_signin_attempts (at);
