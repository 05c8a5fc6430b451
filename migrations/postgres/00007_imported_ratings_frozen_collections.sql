-- A file's ratings beside the lab's own, and frozen collections: see the
-- SQLite migration of the same number and docs/schema.md.

-- +goose Up
ALTER TABLE ratings ADD COLUMN import_id BIGINT;
UPDATE ratings SET import_id = CAST(CAST(details AS jsonb) ->> 'import_id' AS BIGINT)
WHERE rater_version = 'imported' AND details LIKE '{%import_id%}';
UPDATE ratings SET rater = 'file:' || rater
WHERE import_id IS NOT NULL AND rater IN ('givens', 'backtrack', 'human', 'se', 'empirical');
CREATE INDEX ratings_import_id ON ratings (import_id);

ALTER TABLE collections ADD COLUMN frozen BIGINT NOT NULL DEFAULT 0 CHECK (frozen IN (0, 1));
UPDATE collections SET frozen = 1
WHERE import_id IS NULL
  AND NOT EXISTS (SELECT 1 FROM imports i WHERE i.collection_id = collections.id)
  AND NOT EXISTS (SELECT 1 FROM collection_puzzles cp WHERE cp.collection_id = collections.id AND cp.import_id IS NOT NULL);

-- +goose Down
ALTER TABLE collections DROP COLUMN frozen;
DROP INDEX ratings_import_id;
UPDATE ratings SET rater = substr(rater, 6)
WHERE import_id IS NOT NULL AND rater LIKE 'file:%'
  AND NOT EXISTS (SELECT 1 FROM ratings o WHERE o.puzzle_id = ratings.puzzle_id AND o.rater = substr(ratings.rater, 6));
ALTER TABLE ratings DROP COLUMN import_id;
