-- name: hardest-puzzles
-- description: The puzzles the configurations agree are hardest: for each
--   puzzle with runs, how many configurations tried it and how many solved
--   it at least once, the overall success rate and the mean over
--   configurations of each one's success rate; fewest solving
--   configurations first, then lowest mean success rate (the mean
--   evaluations of solved runs leave out the exact solver, which counts
--   nodes instead).
-- param: collection NULL only the puzzles of this collection (NULL: every puzzle)
-- param: limit 20 how many puzzles to list
WITH per_config AS (
  SELECT r.puzzle_id, r.config,
         COUNT(*) AS runs, SUM(r.solved) AS solved,
         AVG(CASE WHEN r.solved = 1 AND r.effort_unit = 'evaluations' THEN r.evaluations END) AS evaluations_solved
  FROM run_results r
  WHERE CAST(:collection AS TEXT) IS NULL OR r.puzzle_id IN (
        SELECT id FROM puzzle_catalog WHERE collection = :collection)
  GROUP BY r.puzzle_id, r.config
),
per_puzzle AS (
  SELECT puzzle_id,
         COUNT(*) AS configs,
         SUM(CASE WHEN solved > 0 THEN 1 ELSE 0 END) AS configs_solving,
         SUM(runs) AS runs,
         SUM(solved) AS solved,
         AVG(1.0 * solved / runs) AS mean_success_rate,
         AVG(evaluations_solved) AS mean_evaluations_solved
  FROM per_config
  GROUP BY puzzle_id
)
-- NULL mean evaluations (only the exact solver solved it) rank as hardest;
-- SQLite and PostgreSQL sort NULLs at opposite ends, so say it.
SELECT RANK() OVER (ORDER BY configs_solving, mean_success_rate,
                          CASE WHEN mean_evaluations_solved IS NULL THEN 0 ELSE 1 END,
                          mean_evaluations_solved DESC) AS hardness_rank,
       p.puzzle_id,
       (SELECT pc.collection || ':' || pc.label FROM puzzle_catalog pc
         WHERE pc.id = p.puzzle_id ORDER BY pc.collection, pc.position LIMIT 1) AS puzzle,
       pz.givens, p.configs, p.configs_solving, p.runs, p.solved,
       ROUND(1.0 * p.solved / p.runs, 4) AS success_rate,
       ROUND(p.mean_success_rate, 4) AS mean_success_rate,
       ROUND(p.mean_evaluations_solved, 1) AS mean_evaluations_solved
FROM per_puzzle p
JOIN puzzles pz ON pz.id = p.puzzle_id
ORDER BY hardness_rank, p.puzzle_id
LIMIT :limit;
