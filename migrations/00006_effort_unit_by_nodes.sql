-- Effort in the unit of the search: effort_unit is 'nodes' for the exact
-- solver and for every run that recorded tree-search nodes (restart-search,
-- a randomized tree search, counts them too), 'evaluations' for the
-- others. Every run stored before keeps its effort and unit: only the
-- exact solver recorded nodes.

-- +goose Up
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
       r.cpu_seconds     AS cpu_seconds,
       r.prefilter_revisions AS prefilter_revisions,
       r.nodes           AS nodes,
       r.guesses         AS guesses,
       CASE WHEN c.solver = 'exact' OR r.nodes IS NOT NULL THEN r.nodes ELSE r.evaluations END AS effort,
       CASE WHEN c.solver = 'exact' OR r.nodes IS NOT NULL THEN 'nodes' ELSE 'evaluations' END AS effort_unit,
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
       r.cpu_seconds     AS cpu_seconds,
       r.prefilter_revisions AS prefilter_revisions,
       r.nodes           AS nodes,
       r.guesses         AS guesses,
       CASE WHEN c.solver = 'exact' THEN r.nodes ELSE r.evaluations END AS effort,
       CASE WHEN c.solver = 'exact' THEN 'nodes' ELSE 'evaluations' END AS effort_unit,
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
