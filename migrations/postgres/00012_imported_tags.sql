-- puzzle_tags.import_id: see the SQLite migration of the same number and
-- docs/schema.md.

-- +goose Up
ALTER TABLE puzzle_tags ADD COLUMN import_id BIGINT;
CREATE INDEX puzzle_tags_import_id ON puzzle_tags (import_id) WHERE import_id IS NOT NULL;

-- +goose Down
DROP INDEX puzzle_tags_import_id;
ALTER TABLE puzzle_tags DROP COLUMN import_id;
