-- A player's home (issue 37, rulings W50–W54, M26–M27): players sign in by a mailed link to the
-- list of their games. The GM sign-in's tables serve both: a link and a session now belong to a
-- realm, `gm` (the GM's pages) or `home` (a player's home), and one never opens the other. The
-- clients and devices an address signed in from stay shared by its realms (RULING W52).
ALTER TABLE gm_login_tokens
    ADD COLUMN realm text NOT NULL DEFAULT 'gm' CHECK (realm IN ('gm', 'home'));
ALTER TABLE gm_sessions
    ADD COLUMN realm text NOT NULL DEFAULT 'gm' CHECK (realm IN ('gm', 'home'));

-- The attempts the limits count: a home sign-in link asked for on the web, and a GAMES mail
-- answered (RULINGS W52, M27), beside a request to join a game (0017, RULING W46).
ALTER TABLE gm_signin_attempts DROP CONSTRAINT gm_signin_attempts_kind_check;
ALTER TABLE gm_signin_attempts ADD CONSTRAINT gm_signin_attempts_kind_check
    CHECK (kind IN ('password', 'link', 'join', 'home-link', 'games'));

-- The seats of an address, for the home page and GAMES (addresses compared lower-cased).
CREATE INDEX seats_by_email ON seats (lower(email));
