-- Undetermined solution counts: counting a large puzzle's solutions runs
-- under a time budget, and a count the budget cut short is recorded as
-- such (solution_count NULL, count_status 'undetermined') with the
-- solution, if one was found, for `sudokulab count` to finish later.
-- docs/schema.md explains every column.

-- +goose Up

-- count_status: NULL for puzzles counted before this migration or never
-- counted; 'counted' when solution_count is exact; 'undetermined' when the
-- count's budget ran out (solution_count is then NULL). count_seconds: the
-- seconds the latest count took.
ALTER TABLE puzzles ADD COLUMN count_status TEXT CHECK (count_status IN ('counted', 'undetermined'));
ALTER TABLE puzzles ADD COLUMN count_seconds REAL;

-- puzzle_catalog and run_results say whether a count is undetermined.
DROP VIEW puzzle_catalog;
CREATE VIEW puzzle_catalog AS
SELECT p.id             AS id,
       p.grid           AS grid,
       p.size           AS size,
       p.box_rows       AS box_rows,
       p.box_cols       AS box_cols,
       p.givens         AS givens,
       p.solution       AS solution,
       p.solution_count AS solution_count,
       p.count_status   AS count_status,
       p.symmetry_form  AS symmetry_form,
       c.id             AS collection_id,
       c.name           AS collection,
       cp.label         AS label,
       cp.position      AS position,
       p.created_at     AS created_at
FROM puzzles p
LEFT JOIN collection_puzzles cp
       ON cp.puzzle_id = p.id
      AND NOT EXISTS (SELECT 1 FROM imports i WHERE i.id = cp.import_id AND i.state = 'loading')
LEFT JOIN collections c ON c.id = cp.collection_id
WHERE NOT EXISTS (SELECT 1 FROM imports i WHERE i.id = p.import_id AND i.state = 'loading');

DROP VIEW run_results;
CREATE VIEW run_results AS
SELECT r.id              AS id,
       r.experiment_id   AS experiment_id,
       e.name            AS experiment,
       r.config_id       AS config_id,
       c.name            AS config,
       c.solver          AS solver,
       r.puzzle_id       AS puzzle_id,
       p.grid            AS grid,
       p.size            AS size,
       p.givens          AS givens,
       r.seed            AS seed,
       r.max_evaluations AS max_evaluations,
       r.max_generations AS max_generations,
       r.timeout_ms      AS timeout_ms,
       r.status          AS status,
       CASE WHEN r.status = 'solved' THEN 1 ELSE 0 END AS solved,
       r.evaluations     AS evaluations,
       r.generations     AS generations,
       r.restarts        AS restarts,
       r.best_cost       AS best_cost,
       r.wall_seconds    AS wall_seconds,
       r.error           AS error,
       r.code_version    AS code_version,
       r.host            AS host,
       r.started_at      AS started_at,
       r.finished_at     AS finished_at,
       p.solution_count  AS solution_count,
       p.count_status    AS count_status
FROM runs r
JOIN configs c ON c.id = r.config_id
JOIN puzzles p ON p.id = r.puzzle_id
LEFT JOIN experiments e ON e.id = r.experiment_id;

-- +goose Down

DROP VIEW run_results;
CREATE VIEW run_results AS
SELECT r.id              AS id,
       r.experiment_id   AS experiment_id,
       e.name            AS experiment,
       r.config_id       AS config_id,
       c.name            AS config,
       c.solver          AS solver,
       r.puzzle_id       AS puzzle_id,
       p.grid            AS grid,
       p.size            AS size,
       p.givens          AS givens,
       r.seed            AS seed,
       r.max_evaluations AS max_evaluations,
       r.max_generations AS max_generations,
       r.timeout_ms      AS timeout_ms,
       r.status          AS status,
       CASE WHEN r.status = 'solved' THEN 1 ELSE 0 END AS solved,
       r.evaluations     AS evaluations,
       r.generations     AS generations,
       r.restarts        AS restarts,
       r.best_cost       AS best_cost,
       r.wall_seconds    AS wall_seconds,
       r.error           AS error,
       r.code_version    AS code_version,
       r.host            AS host,
       r.started_at      AS started_at,
       r.finished_at     AS finished_at
FROM runs r
JOIN configs c ON c.id = r.config_id
JOIN puzzles p ON p.id = r.puzzle_id
LEFT JOIN experiments e ON e.id = r.experiment_id;

DROP VIEW puzzle_catalog;
CREATE VIEW puzzle_catalog AS
SELECT p.id             AS id,
       p.grid           AS grid,
       p.size           AS size,
       p.box_rows       AS box_rows,
       p.box_cols       AS box_cols,
       p.givens         AS givens,
       p.solution       AS solution,
       p.solution_count AS solution_count,
       p.symmetry_form  AS symmetry_form,
       c.id             AS collection_id,
       c.name           AS collection,
       cp.label         AS label,
       cp.position      AS position,
       p.created_at     AS created_at
FROM puzzles p
LEFT JOIN collection_puzzles cp
       ON cp.puzzle_id = p.id
      AND NOT EXISTS (SELECT 1 FROM imports i WHERE i.id = cp.import_id AND i.state = 'loading')
LEFT JOIN collections c ON c.id = cp.collection_id
WHERE NOT EXISTS (SELECT 1 FROM imports i WHERE i.id = p.import_id AND i.state = 'loading');

ALTER TABLE puzzles DROP COLUMN count_seconds;
ALTER TABLE puzzles DROP COLUMN count_status;
