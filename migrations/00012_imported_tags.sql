-- puzzle_tags.import_id names the import whose file gave the tag (NULL
-- for a tag put on by a curator, sudokulab serve --write), as
-- ratings.import_id does for ratings: an import that fails or is taken
-- back removes the tags it added, and no other. docs/schema.md explains
-- the column.

-- +goose Up
ALTER TABLE puzzle_tags ADD COLUMN import_id INTEGER;
CREATE INDEX puzzle_tags_import_id ON puzzle_tags (import_id) WHERE import_id IS NOT NULL;

-- +goose Down
DROP INDEX puzzle_tags_import_id;
ALTER TABLE puzzle_tags DROP COLUMN import_id;
