-- name: success-by-rating
-- description: Success rate, evaluations and generations of the solved runs
--   (mean and median), mean wall time and ERT (evaluations of all runs /
--   solved runs) per configuration and difficulty label of one rater;
--   puzzles the rater has not rated fall under the label '(unrated)'.
-- param: rater human the rater whose labels group the puzzles
-- param: experiment NULL only the runs of this experiment (NULL: every run)
-- param: config NULL only this configuration (NULL: every configuration)
WITH runs AS (
  SELECT r.config, COALESCE(rt.label, '(unrated)') AS label, rt.value,
         r.solved, r.evaluations, r.generations, r.wall_seconds
  FROM run_results r
  LEFT JOIN ratings rt ON rt.puzzle_id = r.puzzle_id AND rt.rater = :rater
  WHERE (CAST(:experiment AS TEXT) IS NULL OR r.id IN (SELECT er.run_id FROM experiment_runs er JOIN experiments e ON e.id = er.experiment_id WHERE e.name = :experiment))
    AND (CAST(:config AS TEXT) IS NULL OR r.config = :config)
),
solved AS (
  SELECT config, label, evaluations, generations,
         ROW_NUMBER() OVER (PARTITION BY config, label ORDER BY evaluations) AS ke,
         ROW_NUMBER() OVER (PARTITION BY config, label ORDER BY generations) AS kg,
         COUNT(*) OVER (PARTITION BY config, label) AS n
  FROM runs
  WHERE solved = 1
),
medians AS (
  SELECT config, label,
         ROUND(AVG(CASE WHEN ke IN ((n + 1) / 2, (n + 2) / 2) THEN evaluations END), 1) AS median_evaluations,
         ROUND(AVG(CASE WHEN kg IN ((n + 1) / 2, (n + 2) / 2) THEN generations END), 1) AS median_generations
  FROM solved
  GROUP BY config, label
)
SELECT r.config, r.label,
       ROUND(AVG(r.value), 2) AS mean_rating,
       COUNT(*) AS runs,
       SUM(r.solved) AS solved,
       ROUND(1.0 * SUM(r.solved) / COUNT(*), 4) AS success_rate,
       ROUND(AVG(CASE WHEN r.solved = 1 THEN r.evaluations END), 1) AS mean_evaluations_solved,
       m.median_evaluations AS median_evaluations_solved,
       ROUND(AVG(CASE WHEN r.solved = 1 THEN r.generations END), 1) AS mean_generations_solved,
       m.median_generations AS median_generations_solved,
       ROUND(AVG(r.wall_seconds), 4) AS mean_seconds,
       ROUND(1.0 * SUM(r.evaluations) / NULLIF(SUM(r.solved), 0), 1) AS ert_evaluations
FROM runs r
LEFT JOIN medians m ON m.config = r.config AND m.label = r.label
-- m has one row per group; PostgreSQL wants its columns grouped by.
GROUP BY r.config, r.label, m.median_evaluations, m.median_generations
ORDER BY r.config, AVG(r.value), r.label;
