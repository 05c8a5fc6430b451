-- name: reproduce-ga
-- description: Our success counts and mean generations beside the papers' for the
--   genetic algorithms: Sato and Inoue 2010 Tables 1, 3 and 4 (presets
--   sato-inoue-*) and Franco et al. Caso 1 (presets franco-table3/4). As in
--   Sato and Inoue, a failed run counts as its whole generation budget
--   (runs.max_generations, 100,000 in the paper) in mean_generations;
--   mean_generations_solved averages the solved runs only; mean_best_cost
--   averages the final best cost of all runs. The experiment ga-ac3 (ours,
--   not in the papers, so without paper columns) compares the main
--   settings without and with the AC3 prefilter (presets *-ac3). Presets
--   that are readings or extensions of ours (*-any, *-elite, *-restart) are
--   shown beside the paper column of the variant they read or extend.
-- parameters: none; it reads the runs of the experiments ga-table1,
--   ga-table3-4, ga-franco and ga-ac3 written by scripts/reproduce-ga.sh.
WITH paper(experiment, config, puzzle, paper_runs, paper_solved, paper_mean) AS (
  VALUES
    ('ga-table1', 'sato-inoue-mut-cross-ls', 'sato-no1',   100, 100,    62),
    ('ga-table1', 'sato-inoue-mut-cross-ls', 'sato-no11',  100, 100,   137),
    ('ga-table1', 'sato-inoue-mut-cross-ls', 'sato-no27',  100, 100,   910),
    ('ga-table1', 'sato-inoue-mut-cross-ls', 'sato-no29',  100, 100,  3193),
    ('ga-table1', 'sato-inoue-mut-cross-ls', 'sato-no77',  100, 100,  9482),
    ('ga-table1', 'sato-inoue-mut-cross-ls', 'sato-no106', 100,  96, 26825),
    ('ga-table1', 'sato-inoue-mut-cross',    'sato-no1',   100, 100,   105),
    ('ga-table1', 'sato-inoue-mut-cross',    'sato-no11',  100, 100,   247),
    ('ga-table1', 'sato-inoue-mut-cross',    'sato-no27',  100, 100,  2274),
    ('ga-table1', 'sato-inoue-mut-cross',    'sato-no29',  100, 100,  6609),
    ('ga-table1', 'sato-inoue-mut-cross',    'sato-no77',  100, 100, 20658),
    ('ga-table1', 'sato-inoue-mut-cross',    'sato-no106', 100,  74, 56428),
    ('ga-table1', 'sato-inoue-mutation',     'sato-no1',   100, 100,   223),
    ('ga-table1', 'sato-inoue-mutation',     'sato-no11',  100,  96,  6627),
    ('ga-table1', 'sato-inoue-mutation',     'sato-no27',  100,  86, 26961),
    ('ga-table1', 'sato-inoue-mutation',     'sato-no29',  100,  66, 42141),
    ('ga-table1', 'sato-inoue-mutation',     'sato-no77',  100,  35, 77573),
    ('ga-table1', 'sato-inoue-mutation',     'sato-no106', 100,   9, 94314),
    -- Our runs with elitism 1 (not in the paper) beside the same paper columns.
    ('ga-table1', 'sato-inoue-mut-cross-elite', 'sato-no1',   100, 100,   105),
    ('ga-table1', 'sato-inoue-mut-cross-elite', 'sato-no11',  100, 100,   247),
    ('ga-table1', 'sato-inoue-mut-cross-elite', 'sato-no27',  100, 100,  2274),
    ('ga-table1', 'sato-inoue-mut-cross-elite', 'sato-no29',  100, 100,  6609),
    ('ga-table1', 'sato-inoue-mut-cross-elite', 'sato-no77',  100, 100, 20658),
    ('ga-table1', 'sato-inoue-mut-cross-elite', 'sato-no106', 100,  74, 56428),
    ('ga-table1', 'sato-inoue-mutation-elite',  'sato-no1',   100, 100,   223),
    ('ga-table1', 'sato-inoue-mutation-elite',  'sato-no11',  100,  96,  6627),
    ('ga-table1', 'sato-inoue-mutation-elite',  'sato-no27',  100,  86, 26961),
    ('ga-table1', 'sato-inoue-mutation-elite',  'sato-no29',  100,  66, 42141),
    ('ga-table1', 'sato-inoue-mutation-elite',  'sato-no77',  100,  35, 77573),
    ('ga-table1', 'sato-inoue-mutation-elite',  'sato-no106', 100,   9, 94314),
    -- The help-array reading of the mutation beside the same paper columns.
    ('ga-table1', 'sato-inoue-mutation-any',           'sato-no1',   100, 100,   223),
    ('ga-table1', 'sato-inoue-mutation-any',           'sato-no11',  100,  96,  6627),
    ('ga-table1', 'sato-inoue-mutation-any',           'sato-no27',  100,  86, 26961),
    ('ga-table1', 'sato-inoue-mutation-any',           'sato-no29',  100,  66, 42141),
    ('ga-table1', 'sato-inoue-mutation-any',           'sato-no77',  100,  35, 77573),
    ('ga-table1', 'sato-inoue-mutation-any',           'sato-no106', 100,   9, 94314),
    ('ga-table1', 'sato-inoue-mut-cross-any',          'sato-no1',   100, 100,   105),
    ('ga-table1', 'sato-inoue-mut-cross-any',          'sato-no11',  100, 100,   247),
    ('ga-table1', 'sato-inoue-mut-cross-any',          'sato-no27',  100, 100,  2274),
    ('ga-table1', 'sato-inoue-mut-cross-any',          'sato-no29',  100, 100,  6609),
    ('ga-table1', 'sato-inoue-mut-cross-any',          'sato-no77',  100, 100, 20658),
    ('ga-table1', 'sato-inoue-mut-cross-any',          'sato-no106', 100,  74, 56428),
    -- Ours: mut+cross+LS restarted after 5,000 generations without a better best.
    ('ga-table1', 'sato-inoue-mut-cross-ls-restart',   'sato-no1',   100, 100,    62),
    ('ga-table1', 'sato-inoue-mut-cross-ls-restart',   'sato-no11',  100, 100,   137),
    ('ga-table1', 'sato-inoue-mut-cross-ls-restart',   'sato-no27',  100, 100,   910),
    ('ga-table1', 'sato-inoue-mut-cross-ls-restart',   'sato-no29',  100, 100,  3193),
    ('ga-table1', 'sato-inoue-mut-cross-ls-restart',   'sato-no77',  100, 100,  9482),
    ('ga-table1', 'sato-inoue-mut-cross-ls-restart',   'sato-no106', 100,  96, 26825),
    ('ga-table3-4', 'sato-inoue-mut-cross-ls', 'ai-escargot', 100, 83, 44170),
    ('ga-table3-4', 'sato-inoue-mut-cross-ls', 'sato-sd3',    100, 58, 64259),
    ('ga-table3-4', 'sato-inoue-disparity',    'ai-escargot', 100, 90, 40365),
    ('ga-table3-4', 'sato-inoue-disparity',    'sato-sd3',    100, 62, 62283),
    ('ga-table3-4', 'sato-inoue-mut-cross-ls-restart', 'ai-escargot', 100, 83, 44170),
    ('ga-table3-4', 'sato-inoue-mut-cross-ls-restart', 'sato-sd3',    100, 58, 64259),
    -- Franco et al. report one run each (seed 13 and seed 1), solved.
    ('ga-franco', 'franco-table3', 'reseda-medium', 1, 1, 4457),
    ('ga-franco', 'franco-table4', 'reseda-medium', 1, 1, 1792)
  UNION ALL
  -- Ours: the AC3 prefilter on and off, every config on every puzzle.
  SELECT 'ga-ac3', c.column1, pz.column1, NULL, NULL, NULL
  FROM (VALUES ('sato-inoue-mut-cross-ls'), ('sato-inoue-mut-cross-ls-ac3'),
               ('franco-table3'), ('franco-table3-ac3')) c
  CROSS JOIN (VALUES ('sato-no27'), ('sato-no29'), ('sato-no77'), ('sato-no106'), ('ai-escargot')) pz
),
ours AS (
  SELECT r.experiment, r.config, pc.label AS puzzle,
         COUNT(*) AS runs,
         SUM(r.solved) AS solved,
         MAX(r.max_generations) AS budget,
         ROUND(AVG(CASE WHEN r.solved = 1 THEN r.generations ELSE r.max_generations END)) AS mean_generations,
         ROUND(AVG(CASE WHEN r.solved = 1 THEN r.generations END)) AS mean_generations_solved,
         ROUND(SUM(r.generations) / SUM(r.wall_seconds)) AS generations_per_second,
         ROUND(AVG(r.best_cost), 2) AS mean_best_cost
  FROM experiment_run_results r
  JOIN puzzle_catalog pc
    ON pc.id = r.puzzle_id AND pc.collection IN ('sato-inoue-2010', 'franco-tabu-ga')
  WHERE r.experiment IN ('ga-table1', 'ga-table3-4', 'ga-franco', 'ga-ac3')
  GROUP BY r.experiment, r.config, pc.label
)
SELECT p.experiment, p.config, p.puzzle,
       o.runs, o.solved, p.paper_solved || '/' || p.paper_runs AS paper_solved,
       ROUND(100.0 * o.solved / o.runs, 1) AS solved_pct,
       ROUND(100.0 * p.paper_solved / p.paper_runs, 1) AS paper_pct,
       o.budget, o.mean_generations, o.mean_generations_solved, p.paper_mean,
       o.generations_per_second, o.mean_best_cost
FROM paper p
LEFT JOIN ours o USING (experiment, config, puzzle)
ORDER BY p.experiment, p.config DESC, p.paper_mean, p.puzzle;
