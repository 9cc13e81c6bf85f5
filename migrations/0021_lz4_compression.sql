-- The large values a published turn writes — the game's state and the turn's outcome (JSON), the
-- reports and mails (text and HTML), the drawings' SVG — are compressed with LZ4 instead of
-- PostgreSQL's default pglz (issue 38, RULING O30): in a deadline storm of 1835 games pglz was a
-- third of the database's CPU time (docs/BENCHMARKS.md). LZ4 compresses several times faster
-- for a little less reduction. A server built without LZ4 (or older than PostgreSQL 14) keeps
-- pglz: the migration says so and goes on. Only values written from now on are affected.
--
-- A drawing's PNG is compressed already: it is stored out of line without any attempt to
-- compress it again (every PostgreSQL has this).
ALTER TABLE drawings ALTER COLUMN png SET STORAGE EXTERNAL;

DO $$
DECLARE
    col record;
BEGIN
    FOR col IN
        SELECT * FROM (VALUES
            ('games', 'state'), ('games', 'setup'),
            ('turns', 'start_state'), ('turns', 'draft'),
            ('reports', 'body_text'), ('reports', 'body_html'),
            ('outbox', 'body_text'), ('outbox', 'body_html'),
            ('drawings', 'svg'),
            ('rollbacks', 'archive')
        ) AS c(tab, name)
    LOOP
        EXECUTE format('ALTER TABLE %I ALTER COLUMN %I SET COMPRESSION lz4', col.tab, col.name);
    END LOOP;
EXCEPTION
    WHEN feature_not_supported OR syntax_error OR invalid_parameter_value THEN
        RAISE NOTICE 'LZ4 compression is not available on this server (%); large values stay compressed with pglz', SQLERRM;
END
$$;
