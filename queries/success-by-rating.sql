-- name: success-by-rating
-- description: Success rate, effort and generations of the solved runs
--   (mean and median), mean wall and CPU time, mean prefilter work and ERT
--   (effort of all runs / solved runs) per configuration and difficulty
--   label of one rater, easiest level first (rating_levels orders the labels
--   of raters that have levels; others sort by their mean value); effort is
--   in the solver's unit (effort_unit: evaluations, or nodes for the exact
--   solver). Puzzles the rater has not rated fall under '(unrated)'.
-- param: rater human the rater whose labels group the puzzles
-- param: experiment NULL only the runs of this experiment (NULL: every run)
-- param: config NULL only this configuration (NULL: every configuration)
WITH runs AS (
  SELECT r.config, COALESCE(rt.label, '(unrated)') AS label, lv.level, rt.value,
         r.solved, r.effort, r.effort_unit, r.generations, r.wall_seconds, r.cpu_seconds, r.prefilter_revisions
  FROM run_results r
  LEFT JOIN ratings rt ON rt.puzzle_id = r.puzzle_id AND rt.rater = :rater
  LEFT JOIN rating_levels lv ON lv.rater = rt.rater AND lv.label = rt.label
  WHERE (CAST(:experiment AS TEXT) IS NULL OR r.id IN (SELECT id FROM experiment_run_results WHERE experiment = :experiment))
    AND (CAST(:config AS TEXT) IS NULL OR r.config = :config)
),
solved AS (
  SELECT config, label, effort, generations,
         ROW_NUMBER() OVER (PARTITION BY config, label ORDER BY effort) AS ke,
         ROW_NUMBER() OVER (PARTITION BY config, label ORDER BY generations) AS kg,
         COUNT(*) OVER (PARTITION BY config, label) AS n
  FROM runs
  WHERE solved = 1
),
medians AS (
  SELECT config, label,
         ROUND(AVG(CASE WHEN ke IN ((n + 1) / 2, (n + 2) / 2) THEN effort END), 1) AS median_effort,
         ROUND(AVG(CASE WHEN kg IN ((n + 1) / 2, (n + 2) / 2) THEN generations END), 1) AS median_generations
  FROM solved
  GROUP BY config, label
)
SELECT r.config, r.label, r.level,
       ROUND(AVG(r.value), 2) AS mean_rating,
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
LEFT JOIN medians m ON m.config = r.config AND m.label = r.label
-- m has one row per group; PostgreSQL wants its columns grouped by.
GROUP BY r.config, r.label, r.level, m.median_effort, m.median_generations
ORDER BY r.config, r.level, AVG(r.value), r.label;
