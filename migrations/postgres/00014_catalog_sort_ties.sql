-- The puzzle table of `sudokulab serve` sorts by a column of puzzles, then
-- by id among equal values. 00001 and 00010 indexed those columns alone:
-- enough in SQLite, where an index holds the row id after its columns and
-- so gives the ties in the order of id, but not in PostgreSQL, where equal
-- values follow their rows' places on disk. There a page sorted by
-- solution count, givens, size, count status or creation time sorted every
-- puzzle (1.7 s for a page sorted by solution count at a million puzzles;
-- a filter on givens sorted by id, 40 to 80 ms). Each index is made again
-- with the id after the column, the same in SQLite. docs/schema.md lists
-- the indexes; docs/web.md has the timings.

-- +goose Up
DROP INDEX puzzles_givens;
CREATE INDEX puzzles_givens ON puzzles (givens, id);
DROP INDEX puzzles_size;
CREATE INDEX puzzles_size ON puzzles (size, id);
DROP INDEX puzzles_solution_count;
CREATE INDEX puzzles_solution_count ON puzzles (solution_count, id);
DROP INDEX puzzles_count_status;
CREATE INDEX puzzles_count_status ON puzzles (count_status, id);
DROP INDEX puzzles_created_at;
CREATE INDEX puzzles_created_at ON puzzles (created_at, id);

-- +goose Down
DROP INDEX puzzles_created_at;
CREATE INDEX puzzles_created_at ON puzzles (created_at);
DROP INDEX puzzles_count_status;
CREATE INDEX puzzles_count_status ON puzzles (count_status);
DROP INDEX puzzles_solution_count;
CREATE INDEX puzzles_solution_count ON puzzles (solution_count);
DROP INDEX puzzles_size;
CREATE INDEX puzzles_size ON puzzles (size);
DROP INDEX puzzles_givens;
CREATE INDEX puzzles_givens ON puzzles (givens);
