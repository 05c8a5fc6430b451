-- name: success-by-collection
-- description: Success rate, effort and generations of the solved runs
--   (mean and median), mean wall and CPU time, mean prefilter work and ERT
--   (expected running time: the effort of all runs divided by the number of
--   solved runs, NULL when none solved) per configuration and collection.
--   Effort is in the solver's unit (effort_unit): evaluations for the
--   stochastic solvers, search nodes for the exact solver. A run of a puzzle
--   that belongs to several collections counts in each.
-- param: experiment NULL only the runs of this experiment (NULL: every run)
-- param: collection NULL only this collection (NULL: every collection)
-- param: config NULL only this configuration (NULL: every configuration)
WITH runs AS (
  SELECT r.config, COALESCE(pc.collection, '(none)') AS collection,
         r.solved, r.effort, r.effort_unit, r.generations, r.wall_seconds, r.cpu_seconds, r.prefilter_revisions
  FROM run_results r
  JOIN puzzle_catalog pc ON pc.id = r.puzzle_id
  WHERE (CAST(:experiment AS TEXT) IS NULL OR r.id IN (SELECT id FROM experiment_run_results WHERE experiment = :experiment))
    AND (CAST(:collection AS TEXT) IS NULL OR pc.collection = :collection)
    AND (CAST(:config AS TEXT) IS NULL OR r.config = :config)
),
solved AS (
  SELECT config, collection, effort, generations,
         ROW_NUMBER() OVER (PARTITION BY config, collection ORDER BY effort) AS ke,
         ROW_NUMBER() OVER (PARTITION BY config, collection ORDER BY generations) AS kg,
         COUNT(*) OVER (PARTITION BY config, collection) AS n
  FROM runs
  WHERE solved = 1
),
medians AS (
  -- The median is the middle value, or the mean of the two middle ones.
  SELECT config, collection,
         ROUND(AVG(CASE WHEN ke IN ((n + 1) / 2, (n + 2) / 2) THEN effort END), 1) AS median_effort,
         ROUND(AVG(CASE WHEN kg IN ((n + 1) / 2, (n + 2) / 2) THEN generations END), 1) AS median_generations
  FROM solved
  GROUP BY config, collection
)
SELECT r.config, r.collection,
       COUNT(*) AS runs,
       SUM(r.solved) AS solved,
       ROUND(1.0 * SUM(r.solved) / COUNT(*), 4) AS success_rate,
       MAX(r.effort_unit) AS effort_unit,
       ROUND(AVG(CASE WHEN r.solved = 1 THEN r.effort END), 1) AS mean_effort_solved,
       m.median_effort AS median_effort_solved,
       ROUND(AVG(CASE WHEN r.solved = 1 THEN r.generations END), 1) AS mean_generations_solved,
       m.median_generations AS median_generations_solved,
       ROUND(AVG(r.wall_seconds), 4) AS mean_seconds,
       ROUND(AVG(r.cpu_seconds), 4) AS mean_cpu_seconds,
       ROUND(AVG(r.prefilter_revisions), 1) AS mean_prefilter_revisions,
       ROUND(1.0 * SUM(r.effort) / NULLIF(SUM(r.solved), 0), 1) AS ert_effort
FROM runs r
LEFT JOIN medians m ON m.config = r.config AND m.collection = r.collection
-- m has one row per group; PostgreSQL wants its columns grouped by.
GROUP BY r.config, r.collection, m.median_effort, m.median_generations
ORDER BY r.collection, r.config;
