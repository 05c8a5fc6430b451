-- name: reproduce-reseda
-- description: Our RESEDA results beside Maire and Prissette 2012 (presets
--   reseda-*): Table 1 (easy puzzle, three variants, four alphas), Table 2
--   (medium puzzle, six alphas), Table 3 (hard puzzle, restart
--   techniques), Table 5 (AI Escargot), section 5.2 (brute force on the
--   top-left box) and section 5.1's recommended strategy. A run of a
--   preset with attempts=1 is one attempt, so seconds is the paper's time
--   per attempt and ets = seconds / success rate its estimated time to
--   success; for the presets that restart until solved, ets is the mean
--   time of a run. rounds averages the generations (EDA steps) of solved
--   runs, the paper's "rounds"/"iterations" in case of convergence. The
--   paper's times are CPU seconds of a C++ program on a Core 2 Duo 2.66 GHz;
--   ours are wall seconds on whatever ran the script.
-- parameters: none; it reads the experiments reseda-table1, reseda-table2,
--   reseda-table3, reseda-table5, reseda-sec5.2 and reseda-sec5.1 written
--   by scripts/reproduce-reseda.sh.
WITH paper(seq, experiment, config, puzzle, paper_runs, paper_solved, paper_rounds, paper_seconds) AS (
  VALUES
    ( 1, 'reseda-table1', 'reseda-table1-both-a0.99',    'reseda-easy',   100, 100, 188, NULL),
    ( 2, 'reseda-table1', 'reseda-table1-both-a0.9',     'reseda-easy',   100, 100,  25, NULL),
    ( 3, 'reseda-table1', 'reseda-table1-both-a0.7',     'reseda-easy',   100, 100,   9, 0.03),
    ( 4, 'reseda-table1', 'reseda-table1-both-a0.5',     'reseda-easy',   100, 100,   6, NULL),
    ( 5, 'reseda-table1', 'reseda-table1-perm-a0.99',    'reseda-easy',   100,  98, 574, NULL),
    ( 6, 'reseda-table1', 'reseda-table1-perm-a0.9',     'reseda-easy',   100,  82,  67, NULL),
    ( 7, 'reseda-table1', 'reseda-table1-perm-a0.7',     'reseda-easy',   100,  42,  25, NULL),
    ( 8, 'reseda-table1', 'reseda-table1-perm-a0.5',     'reseda-easy',   100,  11,  17, NULL),
    ( 9, 'reseda-table1', 'reseda-table1-precomp-a0.99', 'reseda-easy',   100, 100, 522, NULL),
    (10, 'reseda-table1', 'reseda-table1-precomp-a0.9',  'reseda-easy',   100,  96,  60, NULL),
    (11, 'reseda-table1', 'reseda-table1-precomp-a0.7',  'reseda-easy',   100,  71,  22, NULL),
    (12, 'reseda-table1', 'reseda-table1-precomp-a0.5',  'reseda-easy',   100,  35,  14, NULL),
    (13, 'reseda-table2', 'reseda-table1-both-a0.99',    'reseda-medium', 100,  99, 277, NULL),
    (14, 'reseda-table2', 'reseda-table1-both-a0.9',     'reseda-medium', 100,  81,  37, NULL),
    (15, 'reseda-table2', 'reseda-table1-both-a0.7',     'reseda-medium', 100,  61,  14, NULL),
    (16, 'reseda-table2', 'reseda-table1-both-a0.5',     'reseda-medium', 100,  43,   8, NULL),
    (17, 'reseda-table2', 'reseda-table2-a0.3',          'reseda-medium', 100,  26,   7, NULL),
    (18, 'reseda-table2', 'reseda-table2-a0.1',          'reseda-medium', 100,  12,   7, NULL),
    (19, 'reseda-table3', 'reseda-table1-both-a0.7',     'reseda-hard',  1000,  89, NULL, 0.198),
    (20, 'reseda-table3', 'reseda-table3-zones3',        'reseda-hard',  1000, 474, NULL, 0.614),
    (21, 'reseda-table3', 'reseda-table3-zones9',        'reseda-hard',  1000, 619, NULL, 1.113),
    (22, 'reseda-table3', 'reseda-table3-zones27',       'reseda-hard',  1000, 906, NULL, 1.694),
    (23, 'reseda-table5', 'reseda-table3-zones3',        'ai-escargot',  1000,   0, NULL, 1.251),
    (24, 'reseda-table5', 'reseda-table3-zones9',        'ai-escargot',  1000,   1, NULL, 2.857),
    (25, 'reseda-table5', 'reseda-table3-zones27',       'ai-escargot',  1000,   9, NULL, 7.045),
    (26, 'reseda-sec5.2', 'reseda-sec5.2-fixed-block',   'ai-escargot',  1000, 580, NULL, 1.517),
    -- The paper estimates the hybrid's mean time to success as
    -- 1000 x 24 x 1.517 / 580 = 63 s; the runs are not reported.
    (27, 'reseda-sec5.2', 'reseda-sec5.2-brute-force',   'ai-escargot',  NULL, NULL, NULL, 63),
    -- Section 5.1 gives no numbers for these three puzzles.
    (28, 'reseda-sec5.1', 'reseda-sec5.1-recommended',   'reseda-easy',   NULL, NULL, NULL, NULL),
    (29, 'reseda-sec5.1', 'reseda-sec5.1-recommended',   'reseda-medium', NULL, NULL, NULL, NULL),
    (30, 'reseda-sec5.1', 'reseda-sec5.1-recommended',   'reseda-hard',   NULL, NULL, NULL, NULL)
),
ours AS (
  SELECT r.experiment, r.config, pc.label AS puzzle,
         COUNT(*) AS runs,
         SUM(r.solved) AS solved,
         AVG(CASE WHEN r.solved = 1 THEN r.generations END) AS rounds,
         AVG(CASE WHEN r.solved = 1 THEN r.evaluations END) AS evaluations,
         AVG(r.restarts) AS restarts,
         AVG(r.wall_seconds) AS seconds,
         AVG(r.solved) AS rate
  FROM experiment_run_results r
  JOIN puzzle_catalog pc ON pc.id = r.puzzle_id AND pc.collection = 'reseda-2012'
  WHERE r.experiment LIKE 'reseda-%'
  GROUP BY r.experiment, r.config, pc.label
)
SELECT p.experiment, p.config, p.puzzle,
       o.solved || '/' || o.runs AS solved,
       p.paper_solved || '/' || p.paper_runs AS paper_solved,
       ROUND(100.0 * o.solved / o.runs, 1) AS pct,
       ROUND(100.0 * p.paper_solved / p.paper_runs, 1) AS paper_pct,
       ROUND(o.rounds, 1) AS rounds,
       p.paper_rounds,
       ROUND(o.evaluations) AS evaluations,
       ROUND(o.restarts, 2) AS restarts,
       ROUND(o.seconds, 4) AS seconds,
       p.paper_seconds,
       ROUND(o.seconds / NULLIF(o.rate, 0), 4) AS ets,
       CASE WHEN p.paper_solved > 0 THEN ROUND(p.paper_seconds * p.paper_runs / p.paper_solved, 3)
            WHEN p.paper_runs IS NULL THEN p.paper_seconds END AS paper_ets
FROM paper p
LEFT JOIN ours o USING (experiment, config, puzzle)
ORDER BY p.seq;
