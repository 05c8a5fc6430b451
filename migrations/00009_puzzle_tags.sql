-- Tags on puzzles: words a curator puts on puzzles (sudokulab serve
-- --write), whatever collections they are in. docs/schema.md explains
-- every column.

-- +goose Up
CREATE TABLE puzzle_tags (
    puzzle_id INTEGER NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    tag       TEXT    NOT NULL CHECK (tag <> ''),
    added_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (puzzle_id, tag)
);
-- The puzzles of one tag, and the tags with their counts.
CREATE INDEX puzzle_tags_tag ON puzzle_tags (tag, puzzle_id);

-- +goose Down
DROP INDEX puzzle_tags_tag;
DROP TABLE puzzle_tags;
