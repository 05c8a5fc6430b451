-- rating_table gains import_id (the import whose file gave the rating,
-- NULL for one the lab computed: ratings.import_id), and leaves out, as
-- puzzle_catalog does, what an import still loading has written: its
-- ratings, and the ratings of the puzzles it created. docs/schema.md
-- lists the view's columns.

-- +goose Up
DROP VIEW rating_table;
CREATE VIEW rating_table AS
SELECT r.id            AS id,
       r.puzzle_id     AS puzzle_id,
       p.grid          AS grid,
       p.size          AS size,
       p.givens        AS givens,
       r.rater         AS rater,
       r.rater_version AS rater_version,
       r.options       AS options,
       r.value         AS value,
       r.label         AS label,
       r.details       AS details,
       r.rated_at      AS rated_at,
       r.import_id     AS import_id
FROM ratings r
JOIN puzzles p ON p.id = r.puzzle_id
WHERE NOT EXISTS (SELECT 1 FROM imports i WHERE i.id = r.import_id AND i.state = 'loading')
  AND NOT EXISTS (SELECT 1 FROM imports i WHERE i.id = p.import_id AND i.state = 'loading');

-- +goose Down
DROP VIEW rating_table;
CREATE VIEW rating_table AS
SELECT r.id            AS id,
       r.puzzle_id     AS puzzle_id,
       p.grid          AS grid,
       p.size          AS size,
       p.givens        AS givens,
       r.rater         AS rater,
       r.rater_version AS rater_version,
       r.options       AS options,
       r.value         AS value,
       r.label         AS label,
       r.details       AS details,
       r.rated_at      AS rated_at
FROM ratings r
JOIN puzzles p ON p.id = r.puzzle_id;
