-- Sign-in limits that a stranger cannot turn against a GM (issue 32, rulings W2, W2b, W3).
--
-- Where a GM has signed in before: the client address (an IPv4 address or an IPv6 /64) or the
-- device (`device:` and the SHA-256 of the browser's device cookie; the cookie itself is never
-- stored), per account (lower-cased). A known source is limited only by its own attempts.
CREATE TABLE gm_signin_known (
    email    text NOT NULL,
    source   text NOT NULL,
    seen_at  timestamptz NOT NULL,
    PRIMARY KEY (email, source)
);
CREATE INDEX gm_signin_known_by_age ON gm_signin_known (seen_at);

-- An attempt is now counted under its source (`client` holds the client address, or the device
-- for an attempt from a known device) and marked when it came from a stranger: only strangers'
-- attempts count towards an account's shared limits. Earlier rows came from strangers as far
-- as anyone knows.
ALTER TABLE gm_signin_attempts ADD COLUMN stranger boolean NOT NULL DEFAULT true;
DROP INDEX gm_signin_attempts_by_email;
CREATE INDEX gm_signin_attempts_by_email ON gm_signin_attempts (kind, email, client, at);
