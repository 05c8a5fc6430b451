-- name: reproduce-tabu-cuckoo
-- description: Our success counts and iterations beside the papers' for the
--   tabu search of Franco et al. (section 6.1: Caso 1 = reseda-medium solved
--   in 637 iterations, one run) and the prefiltered cuckoo search of Soto et
--   al. 2014 (Table 1: 10,000 iterations; Table 2: 100,000 iterations, 30
--   tries), with and without the AC3 prefilter. Iterations are counted over
--   the solved runs: median (the lower one for an even count), mean and
--   minimum; mean_best_cost is the mean over all runs of the best cost
--   reached (0 when solved). The paper column quotes the paper for the
--   puzzle ours stands in for (Soto et al. used Mantere and Koljonen's easy,
--   medium and hard puzzles, which we do not have).
-- param: experiment NULL the experiment to read; NULL reads the
--   experiments tabu-caso1, cuckoo-table1, cuckoo-table2 and prefilter-hard
--   written by scripts/reproduce-tabu-cuckoo.sh. Any other experiment (such
--   as example-samples in lab.db.example) shows its franco-tabu and
--   soto-cuckoo runs without a paper column.
WITH runs AS (
  SELECT r.experiment, r.config, p.label AS puzzle, r.max_generations AS budget,
         r.solved, r.generations, r.evaluations, r.best_cost, r.wall_seconds
  FROM experiment_run_results r
  JOIN puzzle_catalog p ON p.id = r.puzzle_id AND p.collection = 'paper-puzzles'
  WHERE r.solver IN ('franco-tabu', 'soto-cuckoo')
    AND ((CAST(:experiment AS TEXT) IS NULL AND r.experiment IN ('tabu-caso1', 'cuckoo-table1', 'cuckoo-table2', 'prefilter-hard'))
         OR r.experiment = :experiment)
),
ranked AS (
  SELECT runs.*,
         ROW_NUMBER() OVER (PARTITION BY experiment, config, puzzle, budget ORDER BY solved DESC, generations) AS k,
         SUM(solved) OVER (PARTITION BY experiment, config, puzzle, budget) AS n_solved
  FROM runs
),
summary AS (
  SELECT experiment, config, puzzle, budget,
         COUNT(*) AS runs, SUM(solved) AS solved,
         MAX(CASE WHEN solved = 1 AND k = (n_solved + 1) / 2 THEN generations END) AS median_iterations,
         ROUND(AVG(CASE WHEN solved = 1 THEN generations END)) AS mean_iterations,
         MIN(CASE WHEN solved = 1 THEN generations END) AS min_iterations,
         ROUND(AVG(best_cost), 2) AS mean_best_cost,
         ROUND(AVG(wall_seconds), 3) AS mean_seconds
  FROM ranked
  GROUP BY experiment, config, puzzle, budget
),
paper(experiment, puzzle, paper) AS (
  VALUES
    ('tabu-caso1',    'reseda-medium', 'Caso 1: solved in 637 iterations (1 run)'),
    ('cuckoo-table1',  'reseda-easy',   'easy a, b, c: 100% (50 of 50 each)'),
    ('cuckoo-table1',  'reseda-medium', 'medium a: 100%; medium b, c below (lost)'),
    ('cuckoo-table1',  'reseda-hard',   'hard a, b, c: 51%, 80%, 70%'),
    ('cuckoo-table2', 'reseda-easy',   'easy: 30 of 30'),
    ('cuckoo-table2', 'reseda-medium', 'medium: 30 of 30'),
    ('cuckoo-table2', 'reseda-hard',   'hard: 30 of 30')
)
SELECT s.experiment, s.puzzle, s.config, s.budget, s.runs, s.solved,
       ROUND(100.0 * s.solved / s.runs, 1) AS success_pct,
       s.median_iterations, s.mean_iterations, s.min_iterations, s.mean_best_cost, s.mean_seconds,
       COALESCE(p.paper, '') AS paper
FROM summary s
LEFT JOIN paper p ON p.experiment = s.experiment AND p.puzzle = s.puzzle
ORDER BY CASE s.experiment WHEN 'tabu-caso1' THEN 1 WHEN 'cuckoo-table1' THEN 2 WHEN 'cuckoo-table2' THEN 3 ELSE 4 END,
         s.puzzle, s.config;
