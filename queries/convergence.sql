-- name: convergence
-- description: Convergence of the best cost: for each configuration and
--   budget (1, 2, 5, 10, 20, 50, ... generations or evaluations), the mean,
--   minimum, quartiles, median and maximum over runs of the best cost
--   reached within the budget, read from the stored trajectory points (a
--   run that stopped earlier keeps its last best cost). Runs without a
--   trajectory point within a budget do not count at that budget.
-- param: config NULL only this configuration (NULL: every configuration)
-- param: collection NULL only the puzzles of this collection (NULL: every puzzle)
-- param: experiment NULL only the runs of this experiment (NULL: every run)
-- param: axis generations the budget axis: generations or evaluations
WITH RECURSIVE
selected AS (
  SELECT r.id, r.config
  FROM run_results r
  WHERE (CAST(:config AS TEXT) IS NULL OR r.config = :config)
    AND (CAST(:experiment AS TEXT) IS NULL OR r.id IN (SELECT id FROM experiment_run_results WHERE experiment = :experiment))
    AND (CAST(:collection AS TEXT) IS NULL OR r.puzzle_id IN (
          SELECT id FROM puzzle_catalog WHERE collection = :collection))
),
points AS (
  SELECT s.id AS run_id, s.config, t.seq, t.best_cost,
         CASE WHEN :axis = 'evaluations' THEN t.evaluations ELSE t.generation END AS x
  FROM selected s
  JOIN trajectory_points t ON t.run_id = s.id
),
budgets(budget, step) AS (
  SELECT CAST(1 AS BIGINT), 0 -- BIGINT, or PostgreSQL types the budgets int4, too small for large evaluation counts
  UNION ALL
  SELECT CASE step % 3 WHEN 1 THEN budget * 5 / 2 ELSE budget * 2 END, step + 1
  FROM budgets
  WHERE budget < (SELECT MAX(x) FROM points)
),
stepped AS (
  -- Each point with the best cost recorded up to it and the next point's
  -- x: it stands for its run at every budget from its x up to the next's.
  SELECT run_id, config, x,
         MIN(best_cost) OVER (PARTITION BY run_id ORDER BY x, seq ROWS UNBOUNDED PRECEDING) AS best_cost,
         LEAD(x) OVER (PARTITION BY run_id ORDER BY x, seq) AS next_x
  FROM points
),
best AS (
  -- The best within a budget is the smallest recorded at or before it:
  -- the running minimum at the run's last point within the budget (one
  -- row per run and budget, where joining every point with every budget
  -- above it and grouping gave ten times as many rows).
  SELECT s.config, s.run_id, b.budget, s.best_cost
  FROM stepped s
  JOIN budgets b ON b.budget >= s.x AND (s.next_x IS NULL OR b.budget < s.next_x)
),
ranked AS (
  SELECT config, budget, best_cost,
         ROW_NUMBER() OVER (PARTITION BY config, budget ORDER BY best_cost) AS k,
         COUNT(*) OVER (PARTITION BY config, budget) AS n
  FROM best
)
SELECT config, budget,
       COUNT(*) AS runs,
       ROUND(AVG(best_cost), 3) AS mean_best_cost,
       MIN(best_cost) AS min_best_cost,
       MAX(CASE WHEN k = (n + 3) / 4 THEN best_cost END) AS q25_best_cost,
       ROUND(AVG(CASE WHEN k IN ((n + 1) / 2, (n + 2) / 2) THEN best_cost END), 1) AS median_best_cost,
       MAX(CASE WHEN k = (3 * n + 3) / 4 THEN best_cost END) AS q75_best_cost,
       MAX(best_cost) AS max_best_cost
FROM ranked
GROUP BY config, budget
ORDER BY config, budget;
