-- Indexes that give the puzzle table of `sudokulab serve` (puzzle_catalog
-- a page at a time) the order of each column it sorts by, so that a page
-- reads its hundred rows instead of sorting every puzzle (39 s for a sort
-- on label at a million puzzles before). A membership's columns are
-- followed by the puzzle and collection, a rating's value by the puzzle:
-- the page's tie-breaks, so that the index serves the order of the ties
-- (a million ratings by givens share 15 values) and the keyset (the row
-- after the last one shown). ratings_rater_label serves a filter on a
-- rater's level sorted by the same rater's value.
-- docs/schema.md lists the indexes; docs/web.md has the timings.

-- +goose Up
CREATE INDEX collection_puzzles_label ON collection_puzzles (label, puzzle_id, collection_id);
CREATE INDEX collection_puzzles_position_any ON collection_puzzles (position, puzzle_id, collection_id);
CREATE INDEX puzzles_size ON puzzles (size);
CREATE INDEX puzzles_solution_count ON puzzles (solution_count);
CREATE INDEX puzzles_count_status ON puzzles (count_status);
CREATE INDEX puzzles_created_at ON puzzles (created_at);
DROP INDEX ratings_rater_value;
CREATE INDEX ratings_rater_value ON ratings (rater, value, puzzle_id);
CREATE INDEX ratings_rater_label ON ratings (rater, label, value, puzzle_id);

-- +goose Down
DROP INDEX ratings_rater_label;
DROP INDEX ratings_rater_value;
CREATE INDEX ratings_rater_value ON ratings (rater, value);
DROP INDEX puzzles_created_at;
DROP INDEX puzzles_count_status;
DROP INDEX puzzles_solution_count;
DROP INDEX puzzles_size;
DROP INDEX collection_puzzles_position_any;
DROP INDEX collection_puzzles_label;
