-- Tags on puzzles: see the SQLite migration of the same number and
-- docs/schema.md.

-- +goose Up
CREATE TABLE puzzle_tags (
    puzzle_id BIGINT NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    tag       TEXT   NOT NULL CHECK (tag <> ''),
    added_at  TEXT   NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
    PRIMARY KEY (puzzle_id, tag)
);
CREATE INDEX puzzle_tags_tag ON puzzle_tags (tag, puzzle_id);

-- +goose Down
DROP INDEX puzzle_tags_tag;
DROP TABLE puzzle_tags;
