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
  SELECT s.id AS run_id, s.config, t.best_cost,
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
best AS (
  -- The best cost never increases, so the best within a budget is the
  -- smallest recorded at or before it.
  SELECT p.config, p.run_id, b.budget, MIN(p.best_cost) AS best_cost
  FROM points p
  JOIN budgets b ON p.x <= b.budget
  GROUP BY p.config, p.run_id, b.budget
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
