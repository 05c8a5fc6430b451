-- name: history
-- description: Success rate and mean evaluations of the solved runs per
--   configuration per code version (runs.code_version), oldest version
--   first, with the change in success rate since the previous version, to
--   catch regressions.
-- param: config NULL only this configuration (NULL: every configuration)
-- param: collection NULL only the puzzles of this collection (NULL: every puzzle)
WITH versions AS (
  SELECT r.config, r.code_version,
         COUNT(*) AS runs,
         SUM(r.solved) AS solved,
         1.0 * SUM(r.solved) / COUNT(*) AS success_rate,
         AVG(CASE WHEN r.solved = 1 THEN r.evaluations END) AS mean_evaluations_solved,
         AVG(r.wall_seconds) AS mean_seconds,
         MIN(r.started_at) AS first_run,
         MAX(r.started_at) AS last_run
  FROM run_results r
  WHERE (CAST(:config AS TEXT) IS NULL OR r.config = :config)
    AND (CAST(:collection AS TEXT) IS NULL OR r.puzzle_id IN (
          SELECT id FROM puzzle_catalog WHERE collection = :collection))
  GROUP BY r.config, r.code_version
)
SELECT config, code_version, runs, solved,
       ROUND(success_rate, 4) AS success_rate,
       ROUND(success_rate - LAG(success_rate) OVER w, 4) AS success_change,
       ROUND(mean_evaluations_solved, 1) AS mean_evaluations_solved,
       ROUND(mean_seconds, 4) AS mean_seconds,
       first_run, last_run
FROM versions
WINDOW w AS (PARTITION BY config ORDER BY first_run)
ORDER BY config, first_run;
