-- A file's ratings beside the lab's own, and frozen collections.
-- docs/schema.md explains every column.
--
-- ratings.import_id names the import whose file gave the rating (NULL for
-- a rating computed here by sudokulab rate). An imported rating never
-- takes the name of one of the lab's raters (givens, backtrack, human, se,
-- empirical): a file's "human" is stored as "file:human", beside the
-- computed "human". Before this migration an import replaced a computed
-- rating of the same name; those rows are renamed here (the computed
-- value they replaced is gone; sudokulab rate computes it again).
--
-- collections.frozen is 1 for a collection made by sudokulab collections
-- add: imports never add to it. Collections no import made or added to
-- are taken to be frozen ones.

-- +goose Up
ALTER TABLE ratings ADD COLUMN import_id INTEGER;
UPDATE ratings SET import_id = CAST(json_extract(details, '$.import_id') AS INTEGER)
WHERE rater_version = 'imported' AND json_valid(details);
UPDATE ratings SET rater = 'file:' || rater
WHERE import_id IS NOT NULL AND rater IN ('givens', 'backtrack', 'human', 'se', 'empirical');
CREATE INDEX ratings_import_id ON ratings (import_id);

ALTER TABLE collections ADD COLUMN frozen INTEGER NOT NULL DEFAULT 0 CHECK (frozen IN (0, 1));
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
