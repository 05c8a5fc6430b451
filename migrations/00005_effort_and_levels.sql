-- Effort that means the same everywhere, and ordered rating levels.
-- docs/schema.md explains every column.
--
-- Runs recorded before this migration keep their values: cpu_seconds,
-- prefilter_revisions, nodes and guesses are NULL for them, and the exact
-- solver's old runs keep the propagations it counted as evaluations (its
-- runs since count nodes and guesses, and 0 evaluations).

-- +goose Up

-- cpu_seconds: CPU time of the thread that ran the search (NULL where the
-- platform cannot measure it, and for older runs). prefilter_revisions:
-- the work of the AC3/GAC prefilter in revisions (AC3: one per arc
-- revised; GAC: one per unit filtered), NULL for a run without prefilter.
-- nodes and guesses: the exact solver's search nodes (guesses + 1) and
-- guesses, NULL for the stochastic solvers.
ALTER TABLE runs ADD COLUMN cpu_seconds REAL CHECK (cpu_seconds >= 0);
ALTER TABLE runs ADD COLUMN prefilter_revisions INTEGER CHECK (prefilter_revisions >= 0);
ALTER TABLE runs ADD COLUMN nodes INTEGER CHECK (nodes >= 0);
ALTER TABLE runs ADD COLUMN guesses INTEGER CHECK (guesses >= 0);

-- rating_levels orders the labels of raters that grade by level, so that
-- ORDER BY level sorts by difficulty: JOIN rating_levels USING (rater, label).
CREATE TABLE rating_levels (
    rater TEXT    NOT NULL,
    label TEXT    NOT NULL,
    level INTEGER NOT NULL,
    PRIMARY KEY (rater, label),
    UNIQUE (rater, level)
);
INSERT INTO rating_levels (rater, label, level) VALUES
    ('human', 'easy', 1),
    ('human', 'medium', 2),
    ('human', 'hard', 3),
    ('human', 'unfair', 4),
    ('human', 'extreme', 5),
    ('human', 'beyond', 6);

-- run_results gains the effort columns: effort is the work in the
-- solver's own unit, effort_unit names it ('nodes' for the exact solver,
-- 'evaluations' for every other).
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
       r.finished_at     AS finished_at,
       p.solution_count  AS solution_count,
       p.count_status    AS count_status
FROM runs r
JOIN configs c ON c.id = r.config_id
JOIN puzzles p ON p.id = r.puzzle_id
LEFT JOIN experiments e ON e.id = r.experiment_id;

DROP TABLE rating_levels;
ALTER TABLE runs DROP COLUMN guesses;
ALTER TABLE runs DROP COLUMN nodes;
ALTER TABLE runs DROP COLUMN prefilter_revisions;
ALTER TABLE runs DROP COLUMN cpu_seconds;
