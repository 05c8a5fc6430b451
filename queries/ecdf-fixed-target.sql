-- name: ecdf-fixed-target
-- description: Fixed-target view (as IOHprofiler and COCO report it): for
--   each configuration and budget (1, 2, 5, 10, 20, 50, ... evaluations or
--   generations), the fraction of runs that reached a best cost at or below
--   the target within the budget; the target 0 means solved. It is the
--   empirical distribution function of the running time to the target.
-- param: target 0 the best cost to reach (0: solved)
-- param: config NULL only this configuration (NULL: every configuration)
-- param: collection NULL only the puzzles of this collection (NULL: every puzzle)
-- param: experiment NULL only the runs of this experiment (NULL: every run)
-- param: axis evaluations the budget axis: evaluations or generations
WITH RECURSIVE
selected AS (
  SELECT r.id, r.config, r.solved,
         CASE WHEN :axis = 'generations' THEN r.generations ELSE r.evaluations END AS final
  FROM run_results r
  WHERE (CAST(:config AS TEXT) IS NULL OR r.config = :config)
    AND (CAST(:experiment AS TEXT) IS NULL OR r.id IN (SELECT id FROM experiment_run_results WHERE experiment = :experiment))
    AND (CAST(:collection AS TEXT) IS NULL OR r.puzzle_id IN (
          SELECT id FROM puzzle_catalog WHERE collection = :collection))
),
hits AS (
  -- When each run first reached the target (NULL: never), from its
  -- trajectory, or at its end if it was solved without one.
  SELECT s.id, s.config,
         COALESCE(MIN(CASE WHEN t.best_cost <= :target
                           THEN CASE WHEN :axis = 'generations' THEN t.generation ELSE t.evaluations END END),
                  CASE WHEN s.solved = 1 THEN s.final END) AS hit,
         MAX(s.final) AS last
  FROM selected s
  LEFT JOIN trajectory_points t ON t.run_id = s.id
  GROUP BY s.id, s.config, s.solved, s.final
),
budgets(budget, step) AS (
  SELECT CAST(1 AS BIGINT), 0 -- BIGINT, or PostgreSQL types the budgets int4, too small for large evaluation counts
  UNION ALL
  SELECT CASE step % 3 WHEN 1 THEN budget * 5 / 2 ELSE budget * 2 END, step + 1
  FROM budgets
  WHERE budget < (SELECT MAX(last) FROM hits)
)
SELECT h.config, b.budget,
       COUNT(*) AS runs,
       SUM(CASE WHEN h.hit <= b.budget THEN 1 ELSE 0 END) AS reached,
       ROUND(1.0 * SUM(CASE WHEN h.hit <= b.budget THEN 1 ELSE 0 END) / COUNT(*), 4) AS fraction
FROM hits h
CROSS JOIN budgets b
GROUP BY h.config, b.budget
ORDER BY h.config, b.budget;
