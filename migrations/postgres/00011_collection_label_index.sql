-- The puzzle table of `sudokulab serve` filtered on a collection and
-- sorted by label reads the collection's memberships in order of label
-- through this index, where it sorted all of them (0.1 to 0.2 s for the
-- 100,000 puzzles of a collection of the scale lab; docs/web.md). See
-- 00010_catalog_sort_indexes.sql for the other sort columns.

-- +goose Up
CREATE INDEX collection_puzzles_collection_label ON collection_puzzles (collection_id, label, puzzle_id);

-- +goose Down
DROP INDEX collection_puzzles_collection_label;
