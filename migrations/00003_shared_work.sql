-- Shared work: an experiment's plan as rows of work that any number of
-- processes claim with a lease and finish exactly once between them; the
-- runs of an experiment, including runs recorded earlier that its plan
-- reuses; and imports that load in short transactions yet appear to
-- readers all at once. docs/schema.md explains every table and column.

-- +goose Up

-- One row per run an experiment plans: its identity (puzzle,
-- configuration, seed, budget) and who is doing it.
CREATE TABLE work (
    id              INTEGER PRIMARY KEY,
    experiment_id   INTEGER NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
    puzzle_id       INTEGER NOT NULL REFERENCES puzzles (id),
    config_id       INTEGER NOT NULL REFERENCES configs (id),
    seed            INTEGER NOT NULL,
    max_evaluations INTEGER NOT NULL DEFAULT 0 CHECK (max_evaluations >= 0),
    max_generations INTEGER NOT NULL DEFAULT 0 CHECK (max_generations >= 0),
    timeout_ms      INTEGER NOT NULL DEFAULT 0 CHECK (timeout_ms >= 0),
    trace           TEXT    NOT NULL DEFAULT '',
    state           TEXT    NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'running', 'done')),
    worker          TEXT,
    lease_until     TEXT,
    attempts        INTEGER NOT NULL DEFAULT 0,
    run_id          INTEGER REFERENCES runs (id) ON DELETE SET NULL,
    enqueued_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    finished_at     TEXT,
    UNIQUE (experiment_id, puzzle_id, config_id, seed, max_evaluations, max_generations, timeout_ms)
);

-- Claims look for pending work of one experiment in id order, and for
-- running work whose lease lapsed.
CREATE INDEX work_state ON work (state, experiment_id, id);
CREATE INDEX work_lease ON work (state, experiment_id, lease_until);
CREATE INDEX work_worker ON work (worker);
CREATE INDEX work_run_id ON work (run_id);

-- Which runs belong to which experiment. A run belongs to the experiment
-- that recorded it and to every later experiment whose plan included it.
CREATE TABLE experiment_runs (
    experiment_id INTEGER NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
    run_id        INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    PRIMARY KEY (experiment_id, run_id)
);

CREATE INDEX experiment_runs_run_id ON experiment_runs (run_id);

INSERT INTO experiment_runs (experiment_id, run_id)
SELECT experiment_id, id FROM runs WHERE experiment_id IS NOT NULL;

-- Imports load in short transactions while state is 'loading' and are
-- published by setting state to 'done'. worker and lease_until say who is
-- loading and until when; records_done how many records of the file are
-- stored, so an interrupted import resumes after them.
ALTER TABLE imports ADD COLUMN state TEXT NOT NULL DEFAULT 'done' CHECK (state IN ('loading', 'done'));
ALTER TABLE imports ADD COLUMN worker TEXT;
ALTER TABLE imports ADD COLUMN lease_until TEXT;
ALTER TABLE imports ADD COLUMN records_done INTEGER NOT NULL DEFAULT 0;

-- The import that first stored the puzzle or created the collection (NULL
-- for those stored otherwise): while it is loading, the views leave them
-- out. Not a foreign key (SQLite cannot drop such a column again); an id
-- that names no import counts as published.
ALTER TABLE puzzles ADD COLUMN import_id INTEGER;
ALTER TABLE collections ADD COLUMN import_id INTEGER;

CREATE INDEX puzzles_import_id ON puzzles (import_id);

-- puzzle_catalog leaves out what imports still loading have written.
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

-- One row per run and experiment it belongs to (run_results has one row
-- per run, with the experiment that recorded it).
CREATE VIEW experiment_run_results AS
SELECT e.name            AS experiment,
       er.experiment_id  AS experiment_id,
       r.id              AS id,
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
FROM experiment_runs er
JOIN experiments e ON e.id = er.experiment_id
JOIN runs r ON r.id = er.run_id
JOIN configs c ON c.id = r.config_id
JOIN puzzles p ON p.id = r.puzzle_id;

-- One row per experiment and configuration: how much of the plan is
-- pending, running or done.
CREATE VIEW work_progress AS
SELECT e.name AS experiment,
       c.name AS config,
       SUM(CASE WHEN w.state = 'pending' THEN 1 ELSE 0 END) AS pending,
       SUM(CASE WHEN w.state = 'running' THEN 1 ELSE 0 END) AS running,
       SUM(CASE WHEN w.state = 'done' THEN 1 ELSE 0 END)    AS done,
       COUNT(*)                                              AS planned,
       COUNT(DISTINCT w.worker)                              AS workers
FROM work w
JOIN experiments e ON e.id = w.experiment_id
JOIN configs c ON c.id = w.config_id
GROUP BY e.name, c.name;

-- +goose Down

DROP VIEW work_progress;
DROP VIEW experiment_run_results;
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
LEFT JOIN collection_puzzles cp ON cp.puzzle_id = p.id
LEFT JOIN collections c ON c.id = cp.collection_id;
DROP INDEX puzzles_import_id;
ALTER TABLE collections DROP COLUMN import_id;
ALTER TABLE puzzles DROP COLUMN import_id;
ALTER TABLE imports DROP COLUMN records_done;
ALTER TABLE imports DROP COLUMN lease_until;
ALTER TABLE imports DROP COLUMN worker;
ALTER TABLE imports DROP COLUMN state;
DROP TABLE experiment_runs;
DROP TABLE work;
