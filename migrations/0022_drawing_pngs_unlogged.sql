-- A drawing's PNG is a derived cache, kept out of the write-ahead log (issue 38, RULING O33):
-- in a deadline storm of 1835 games each game-turn wrote about a megabyte of PNG into the
-- `drawings` row, and so into its TOAST table and the WAL — 8.4 GB of WAL for 10,000 games, the
-- checkpoints that follow, and the database's CPU growing faster than the games
-- (docs/BENCHMARKS.md). The PNG can always be rendered again from the drawing's SVG, which stays
-- logged in `drawings`: so the PNGs move to an unlogged table. After a crash of the database
-- server PostgreSQL empties it, and each drawing is rendered again by whoever needs it first
-- (RULING O24); a replica or a physical backup has the SVGs and renders likewise.
CREATE UNLOGGED TABLE IF NOT EXISTS drawing_pngs (
    sha256 bytea PRIMARY KEY REFERENCES drawings (sha256) ON DELETE CASCADE,
    png bytea NOT NULL,
    rendered_at timestamptz NOT NULL DEFAULT now()
);

-- RULING O30: a PNG is compressed already; stored out of line without trying again.
ALTER TABLE drawing_pngs ALTER COLUMN png SET STORAGE EXTERNAL;

INSERT INTO drawing_pngs (sha256, png, rendered_at)
SELECT sha256, png, COALESCE(rendered_at, created_at) FROM drawings WHERE png IS NOT NULL
ON CONFLICT (sha256) DO NOTHING;

ALTER TABLE drawings DROP COLUMN IF EXISTS png, DROP COLUMN IF EXISTS rendered_at;
