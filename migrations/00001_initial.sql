-- The whole laboratory schema. docs/schema.md explains every table and
-- column. Timestamps are TEXT in UTC, RFC 3339 with milliseconds, for
-- example 2025-03-14T09:26:53.589Z; the defaults below produce the same
-- form for rows inserted by hand.

-- +goose Up

CREATE TABLE puzzles (
    id             INTEGER PRIMARY KEY,
    grid           TEXT    NOT NULL,
    size           INTEGER NOT NULL,
    box_rows       INTEGER NOT NULL,
    box_cols       INTEGER NOT NULL,
    givens         INTEGER NOT NULL,
    solution       TEXT,
    solution_count INTEGER,
    symmetry_form  TEXT,
    created_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (box_rows, box_cols, grid),
    CHECK (box_rows >= 1 AND box_cols >= 1 AND size = box_rows * box_cols),
    CHECK (length(grid) = size * size),
    CHECK (givens BETWEEN 0 AND size * size),
    CHECK (solution IS NULL OR length(solution) = size * size),
    CHECK (solution_count IN (0, 1, 2))
);

CREATE INDEX puzzles_givens ON puzzles (givens);
CREATE INDEX puzzles_symmetry_form ON puzzles (symmetry_form);

CREATE TABLE collections (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL DEFAULT '',
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE imports (
    id                INTEGER PRIMARY KEY,
    file_name         TEXT    NOT NULL,
    file_sha256       TEXT    NOT NULL,
    format            TEXT    NOT NULL,
    collection_id     INTEGER REFERENCES collections (id) ON DELETE SET NULL,
    started_at        TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    finished_at       TEXT,
    puzzles_read      INTEGER NOT NULL DEFAULT 0,
    puzzles_new       INTEGER NOT NULL DEFAULT 0,
    puzzles_duplicate INTEGER NOT NULL DEFAULT 0,
    puzzles_rejected  INTEGER NOT NULL DEFAULT 0,
    notes             TEXT    NOT NULL DEFAULT ''
);

CREATE INDEX imports_file_sha256 ON imports (file_sha256);
CREATE INDEX imports_collection_id ON imports (collection_id);

CREATE TABLE collection_puzzles (
    collection_id INTEGER NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    puzzle_id     INTEGER NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    position      INTEGER NOT NULL CHECK (position >= 1),
    label         TEXT    NOT NULL DEFAULT '',
    import_id     INTEGER REFERENCES imports (id) ON DELETE SET NULL,
    source_line   INTEGER,
    metadata      TEXT,
    added_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (collection_id, puzzle_id)
);

CREATE INDEX collection_puzzles_puzzle_id ON collection_puzzles (puzzle_id);
CREATE INDEX collection_puzzles_position ON collection_puzzles (collection_id, position);
CREATE INDEX collection_puzzles_import_id ON collection_puzzles (import_id);

CREATE TABLE ratings (
    id            INTEGER PRIMARY KEY,
    puzzle_id     INTEGER NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    rater         TEXT    NOT NULL,
    rater_version TEXT    NOT NULL,
    options       TEXT    NOT NULL DEFAULT '{}',
    value         REAL,
    label         TEXT,
    details       TEXT,
    rated_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (puzzle_id, rater)
);

CREATE INDEX ratings_rater_value ON ratings (rater, value);

CREATE TABLE configs (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL UNIQUE,
    solver      TEXT    NOT NULL,
    params      TEXT    NOT NULL,
    params_hash TEXT    NOT NULL,
    description TEXT    NOT NULL DEFAULT '',
    preset      INTEGER NOT NULL DEFAULT 0 CHECK (preset IN (0, 1)),
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (solver, params_hash)
);

CREATE TABLE experiments (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL DEFAULT '',
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE runs (
    id              INTEGER PRIMARY KEY,
    experiment_id   INTEGER REFERENCES experiments (id) ON DELETE SET NULL,
    puzzle_id       INTEGER NOT NULL REFERENCES puzzles (id),
    config_id       INTEGER NOT NULL REFERENCES configs (id),
    seed            INTEGER NOT NULL,
    max_evaluations INTEGER NOT NULL DEFAULT 0 CHECK (max_evaluations >= 0),
    max_generations INTEGER NOT NULL DEFAULT 0 CHECK (max_generations >= 0),
    timeout_ms      INTEGER NOT NULL DEFAULT 0 CHECK (timeout_ms >= 0),
    status          TEXT    NOT NULL
                    CHECK (status IN ('solved', 'unsolved', 'timeout', 'canceled', 'error')),
    evaluations     INTEGER NOT NULL DEFAULT 0,
    generations     INTEGER NOT NULL DEFAULT 0,
    restarts        INTEGER NOT NULL DEFAULT 0,
    best_cost       INTEGER CHECK (best_cost >= 0),
    final_grid      TEXT,
    wall_seconds    REAL,
    error           TEXT,
    code_version    TEXT    NOT NULL DEFAULT '',
    host            TEXT    NOT NULL DEFAULT '',
    started_at      TEXT    NOT NULL,
    finished_at     TEXT    NOT NULL,
    UNIQUE (puzzle_id, config_id, seed, max_evaluations, max_generations, timeout_ms)
);

-- The UNIQUE index above starts with puzzle_id and serves lookups by
-- puzzle; these serve the other common filters.
CREATE INDEX runs_config_id_status ON runs (config_id, status);
CREATE INDEX runs_experiment_id ON runs (experiment_id);

CREATE TABLE trajectory_points (
    run_id          INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL CHECK (seq >= 0),
    generation      INTEGER NOT NULL,
    evaluations     INTEGER NOT NULL,
    elapsed_seconds REAL    NOT NULL,
    best_cost       INTEGER NOT NULL,
    current_cost    REAL,
    PRIMARY KEY (run_id, seq)
);

-- One row per puzzle per collection it belongs to; a puzzle in no
-- collection appears once with collection NULL. `sudokulab run --where`
-- and `sudokulab list --where` filter this view.
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

-- One row per run, with the names people filter on.
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

-- One row per rating, with the puzzle it rates.
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

-- +goose Down

DROP VIEW rating_table;
DROP VIEW run_results;
DROP VIEW puzzle_catalog;
DROP TABLE trajectory_points;
DROP TABLE runs;
DROP TABLE experiments;
DROP TABLE configs;
DROP TABLE ratings;
DROP TABLE collection_puzzles;
DROP TABLE imports;
DROP TABLE collections;
DROP TABLE puzzles;
