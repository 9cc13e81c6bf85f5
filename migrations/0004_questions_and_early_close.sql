-- GM questions and the early-close index (issue #3). A turn whose adjudication stopped at a
-- decision left to the GM keeps the question and the GM's answers so far; a re-run replays them.

ALTER TABLE turns
    ADD COLUMN question    jsonb,
    ADD COLUMN gm_answers  jsonb NOT NULL DEFAULT '[]';

-- When every acting seat's latest orders became final (NULL while any is not): the early close
-- is due at all_final_at + the game's cooling-off. Kept by the submission functions, so the
-- scheduler finds due turns through two small indexes instead of scanning every open turn.
ALTER TABLE turns ADD COLUMN all_final_at timestamptz;
CREATE INDEX turns_open_all_final ON turns (all_final_at) WHERE status = 'open' AND all_final_at IS NOT NULL;
CREATE INDEX final_marks_turn ON final_marks (game_id, turn, seat, version);
