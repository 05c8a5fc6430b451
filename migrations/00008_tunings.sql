-- Tunings: sudokulab tune's iterated races, kept so that a tuning killed
-- and started again resumes from what is recorded, and so that SQL can
-- show the race. docs/schema.md explains every column.

-- +goose Up

-- One row per tuning: what it tunes, on which puzzles, with which budget
-- and seed, how far it got and what it found.
CREATE TABLE tunings (
    id              INTEGER PRIMARY KEY,
    name            TEXT    NOT NULL UNIQUE,
    experiment_id   INTEGER NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
    solver          TEXT    NOT NULL,
    train_where     TEXT    NOT NULL,
    test_where      TEXT    NOT NULL DEFAULT '',
    space           TEXT    NOT NULL,
    objective       TEXT    NOT NULL CHECK (objective IN ('par10', 'success', 'effort')),
    budget_runs     INTEGER NOT NULL CHECK (budget_runs > 0),
    seed            INTEGER NOT NULL,
    max_evaluations INTEGER NOT NULL DEFAULT 0 CHECK (max_evaluations >= 0),
    max_generations INTEGER NOT NULL DEFAULT 0 CHECK (max_generations >= 0),
    timeout_ms      INTEGER NOT NULL DEFAULT 0 CHECK (timeout_ms >= 0),
    state           TEXT    NOT NULL DEFAULT 'racing' CHECK (state IN ('racing', 'done')),
    runs_used       INTEGER NOT NULL DEFAULT 0,
    iterations      INTEGER NOT NULL DEFAULT 0,
    stop_reason     TEXT,
    best_config_id  INTEGER REFERENCES configs (id),
    started_at      TEXT    NOT NULL,
    finished_at     TEXT
);

-- One row per candidate of a tuning: its number, its configuration, the
-- iteration that sampled it, the elite it was sampled around, and its
-- rank among the final elites.
CREATE TABLE tuning_candidates (
    tuning_id  INTEGER NOT NULL REFERENCES tunings (id) ON DELETE CASCADE,
    candidate  INTEGER NOT NULL,
    config_id  INTEGER NOT NULL REFERENCES configs (id),
    iteration  INTEGER NOT NULL,
    parent     INTEGER,
    elite_rank INTEGER,
    PRIMARY KEY (tuning_id, candidate)
);
CREATE INDEX tuning_candidates_config ON tuning_candidates (config_id);

-- One row per candidate and race step: the instance (puzzle and seed),
-- the candidate's cost on it, its mean rank so far, the test done after
-- the step and whether the candidate survived it.
CREATE TABLE tuning_steps (
    tuning_id INTEGER NOT NULL REFERENCES tunings (id) ON DELETE CASCADE,
    iteration INTEGER NOT NULL,
    step      INTEGER NOT NULL,
    candidate INTEGER NOT NULL,
    puzzle_id INTEGER NOT NULL REFERENCES puzzles (id),
    seed      INTEGER NOT NULL,
    cost      REAL    NOT NULL,
    mean_rank REAL    NOT NULL,
    test      TEXT CHECK (test IN ('friedman', 'wilcoxon')),
    p_value   REAL,
    alive     INTEGER NOT NULL CHECK (alive IN (0, 1)),
    PRIMARY KEY (tuning_id, iteration, step, candidate)
);

-- +goose Down
DROP TABLE tuning_steps;
DROP TABLE tuning_candidates;
DROP TABLE tunings;
