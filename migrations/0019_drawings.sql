-- Drawings of the table, once per distinct picture (issue 38, RULINGS O23–O25): a report mail
-- holds `drawing:<sha256>` where its picture goes; the publishing transaction stores each
-- distinct SVG here (keyed by the SHA-256 of the document as mailed) and renders nothing. The
-- PNG is rendered later, outside any publish, by whoever needs it first (the outbox worker, a
-- picture's web address), once, and kept here for every later mail and page.
CREATE TABLE IF NOT EXISTS drawings (
    sha256 bytea PRIMARY KEY CHECK (octet_length(sha256) = 32),
    svg text NOT NULL,
    png bytea,
    created_at timestamptz NOT NULL DEFAULT now(),
    rendered_at timestamptz
);
