-- name: reproduce-nbcoin
-- description: Our NB-COIN results beside Table II of Waiyapara,
--   Wattanapornprom and Chongstitvatana: runs solved and mean generations
--   on the six puzzles of Sato and Inoue, for the preset nb-coin-table2
--   (eq. 4 and 5 summed, as written), nb-coin-table2-mean (averaged) and any
--   other configuration run in the experiment nb-coin-table2. The paper
--   reports 100 runs of at most 100,000 generations; its "Nfe" is the mean
--   generation count, all its runs having succeeded. mean_generations_solved
--   averages the solved runs; mean_generations counts a failed run as its
--   whole budget (runs.max_generations). The GA column is Sato and Inoue's
--   mut+cross+LS as Table II quotes it.
-- param: experiment nb-coin-table2 the experiment to read (written by
--   scripts/reproduce-nbcoin.sh); NULL reads the nb-coin runs of every
--   experiment, such as the samples in lab.db.example.
WITH paper(seq, puzzle, paper_solved, paper_generations, ga_solved, ga_generations) AS (
  VALUES
    (1, 'sato-no1',   100,    2, 100,    62),
    (2, 'sato-no11',  100,    4, 100,   137),
    (3, 'sato-no27',  100,  130, 100,   910),
    (4, 'sato-no29',  100, 1196, 100,  3193),
    (5, 'sato-no77',  100, 2710, 100,  9482),
    (6, 'sato-no106', 100, 2341,  96, 26825)
),
ours AS (
  SELECT r.config, pc.label AS puzzle,
         COUNT(*) AS runs,
         SUM(r.solved) AS solved,
         MAX(r.max_generations) AS budget,
         AVG(CASE WHEN r.solved = 1 THEN r.generations END) AS generations_solved,
         AVG(CASE WHEN r.solved = 1 THEN r.generations ELSE r.max_generations END) AS generations,
         SUM(r.generations) / SUM(r.wall_seconds) AS generations_per_second
  FROM run_results r
  JOIN puzzle_catalog pc ON pc.id = r.puzzle_id AND pc.collection = 'nb-coin'
  WHERE r.solver = 'nb-coin' AND (CAST(:experiment AS TEXT) IS NULL OR r.id IN (SELECT id FROM experiment_run_results WHERE experiment = :experiment))
  GROUP BY r.config, pc.label
)
SELECT o.config, p.puzzle,
       o.solved || '/' || o.runs AS solved,
       p.paper_solved || '/100' AS paper_solved,
       o.budget,
       ROUND(o.generations_solved, 1) AS mean_generations_solved,
       ROUND(o.generations) AS mean_generations,
       p.paper_generations,
       p.ga_solved || '/100' AS ga_solved,
       p.ga_generations,
       ROUND(o.generations_per_second) AS generations_per_second
FROM paper p
JOIN ours o USING (puzzle)
ORDER BY o.config, p.seq;
