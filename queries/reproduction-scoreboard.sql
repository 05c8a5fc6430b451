-- name: reproduction-scoreboard
-- description: One row per published cell of the five papers (every cell of
--   shared/papers/TARGETS.md, and Franco et al.'s Tabla 4 run): the
--   paper's value, ours from the recorded runs, the runs behind ours and a
--   status. A cell's runs are those of the configurations that stand for its
--   variant (see readings) on its puzzle, at the paper's generation budget
--   where it gives one: a run counts when its budget is at least the
--   paper's, and as solved only when solved within the paper's budget; a
--   seed run with several budgets counts once. Of the configurations with
--   runs, ours is the one with the highest lower
--   bound of the 95% Wilson interval of its success rate (then the lowest
--   effort; configs_run says how many were compared). Status: "quoted"
--   for a cell no configuration of the lab stands for under the readings
--   chosen (an algorithm a paper quotes from another and the lab does not
--   implement, such as Mantere and Koljonen's GA in Soto et al.'s Table
--   2); "not run" without runs, or with fewer than min_runs (ours then
--   still shows them); "short" or "beaten" when the 95% Wilson intervals of our
--   success rate and of the paper's do not overlap (ours below, or above);
--   otherwise, where both give an effort in generations, rounds or
--   iterations, "short" when ours is more than twice the paper's and
--   "beaten" when less than half; a cell whose only figure is a time (the
--   section 5.2 hybrid of RESEDA) is compared the same way on wall seconds,
--   which favours today's machines; "matched" otherwise. Times never decide
--   a cell that has a success count. Effort follows each paper's
--   convention (effort_unit): Sato and Inoue count a failed run as the
--   whole budget, the others average the solved runs; RESEDA's seconds are
--   per attempt. Soto et al.'s puzzles are not available: reseda-easy,
--   -medium and -hard stand in for them. RESEDA's Table 4 needs the
--   collections kennett-very-easy, kennett-easy, kennett-medium,
--   kennett-hard and kennett-fiendish (1000 generated puzzles each), which
--   scripts/kennett.sh makes.
-- param: paper NULL only the cells of this paper: reseda, sato-inoue,
--   nb-coin, soto-cuckoo or franco (NULL: all five)
-- param: readings readings the configurations that may stand for a cell:
--   paper (only the preset of the paper's text as written), readings (also
--   our other readings of the text, such as NB-COIN's credit=box and
--   neighbour readings or Sato and Inoue's help-array mutation) or all
--   (also our extensions: restarts, elitism, prefilters, stand-ins)
-- param: experiment NULL only the runs of this experiment (NULL: every
--   recorded run)
-- param: min_runs 10 the fewest runs behind ours that can match, beat or
--   fall short (the sample runs of lab.db.example have 2 to 4)
WITH cells(seq, paper, tbl, collection, puzzle, variant, family, budget, paper_runs, paper_solved, paper_effort, effort_unit, failed, extra) AS (
  VALUES
    -- Maire and Prissette 2012 (RESEDA). Effort: rounds of the converged runs, or seconds per attempt.
    ( 1, 'reseda', 'Table 1', 'paper-puzzles', 'reseda-easy', 'both optimizations, alpha 0.99', 'reseda-both-0.99', NULL, 100, 100, 188, 'rounds', 'solved', NULL),
    ( 2, 'reseda', 'Table 1', 'paper-puzzles', 'reseda-easy', 'both optimizations, alpha 0.9', 'reseda-both-0.9', NULL, 100, 100, 25, 'rounds', 'solved', NULL),
    ( 3, 'reseda', 'Table 1', 'paper-puzzles', 'reseda-easy', 'both optimizations, alpha 0.7', 'reseda-both-0.7', NULL, 100, 100, 9, 'rounds', 'solved', '~900 sampled grids, 0.03 s CPU'),
    ( 4, 'reseda', 'Table 1', 'paper-puzzles', 'reseda-easy', 'both optimizations, alpha 0.5', 'reseda-both-0.5', NULL, 100, 100, 6, 'rounds', 'solved', NULL),
    ( 5, 'reseda', 'Table 1', 'paper-puzzles', 'reseda-easy', 'permutations only, alpha 0.99', 'reseda-perm-0.99', NULL, 100, 98, 574, 'rounds', 'solved', NULL),
    ( 6, 'reseda', 'Table 1', 'paper-puzzles', 'reseda-easy', 'permutations only, alpha 0.9', 'reseda-perm-0.9', NULL, 100, 82, 67, 'rounds', 'solved', NULL),
    ( 7, 'reseda', 'Table 1', 'paper-puzzles', 'reseda-easy', 'permutations only, alpha 0.7', 'reseda-perm-0.7', NULL, 100, 42, 25, 'rounds', 'solved', NULL),
    ( 8, 'reseda', 'Table 1', 'paper-puzzles', 'reseda-easy', 'permutations only, alpha 0.5', 'reseda-perm-0.5', NULL, 100, 11, 17, 'rounds', 'solved', NULL),
    ( 9, 'reseda', 'Table 1', 'paper-puzzles', 'reseda-easy', 'pre-computation only, alpha 0.99', 'reseda-precomp-0.99', NULL, 100, 100, 522, 'rounds', 'solved', NULL),
    (10, 'reseda', 'Table 1', 'paper-puzzles', 'reseda-easy', 'pre-computation only, alpha 0.9', 'reseda-precomp-0.9', NULL, 100, 96, 60, 'rounds', 'solved', NULL),
    (11, 'reseda', 'Table 1', 'paper-puzzles', 'reseda-easy', 'pre-computation only, alpha 0.7', 'reseda-precomp-0.7', NULL, 100, 71, 22, 'rounds', 'solved', NULL),
    (12, 'reseda', 'Table 1', 'paper-puzzles', 'reseda-easy', 'pre-computation only, alpha 0.5', 'reseda-precomp-0.5', NULL, 100, 35, 14, 'rounds', 'solved', NULL),
    (13, 'reseda', 'Table 2', 'paper-puzzles', 'reseda-medium', 'both optimizations, alpha 0.99', 'reseda-both-0.99', NULL, 100, 99, 277, 'rounds', 'solved', NULL),
    (14, 'reseda', 'Table 2', 'paper-puzzles', 'reseda-medium', 'both optimizations, alpha 0.9', 'reseda-both-0.9', NULL, 100, 81, 37, 'rounds', 'solved', NULL),
    (15, 'reseda', 'Table 2', 'paper-puzzles', 'reseda-medium', 'both optimizations, alpha 0.7', 'reseda-both-0.7', NULL, 100, 61, 14, 'rounds', 'solved', NULL),
    (16, 'reseda', 'Table 2', 'paper-puzzles', 'reseda-medium', 'both optimizations, alpha 0.5', 'reseda-both-0.5', NULL, 100, 43, 8, 'rounds', 'solved', NULL),
    (17, 'reseda', 'Table 2', 'paper-puzzles', 'reseda-medium', 'both optimizations, alpha 0.3', 'reseda-both-0.3', NULL, 100, 26, 7, 'rounds', 'solved', NULL),
    (18, 'reseda', 'Table 2', 'paper-puzzles', 'reseda-medium', 'both optimizations, alpha 0.1', 'reseda-both-0.1', NULL, 100, 12, 7, 'rounds', 'solved', NULL),
    (19, 'reseda', 'Table 3', 'paper-puzzles', 'reseda-hard', 'no partial restart', 'reseda-both-0.7', NULL, 1000, 89, 0.198, 'seconds', NULL, 'ETS 2.225 s'),
    (20, 'reseda', 'Table 3', 'paper-puzzles', 'reseda-hard', 'partial restart, 1 zone of 3 (diagonal boxes)', 'reseda-zones3', NULL, 1000, 474, 0.614, 'seconds', NULL, 'ETS 1.295 s'),
    (21, 'reseda', 'Table 3', 'paper-puzzles', 'reseda-hard', 'partial restart, 1 zone of 9 (all boxes)', 'reseda-zones9', NULL, 1000, 619, 1.113, 'seconds', NULL, 'ETS 1.798 s'),
    (22, 'reseda', 'Table 3', 'paper-puzzles', 'reseda-hard', 'partial restart, 1 zone of 27 (rows, columns, boxes)', 'reseda-zones27', NULL, 1000, 906, 1.694, 'seconds', NULL, 'ETS 1.869 s'),
    (23, 'reseda', 'Table 5', 'paper-puzzles', 'ai-escargot', 'partial restart, 1 zone of 3 (diagonal boxes)', 'reseda-zones3', NULL, 1000, 0, 1.251, 'seconds', NULL, NULL),
    (24, 'reseda', 'Table 5', 'paper-puzzles', 'ai-escargot', 'partial restart, 1 zone of 9 (all boxes)', 'reseda-zones9', NULL, 1000, 1, 2.857, 'seconds', NULL, NULL),
    (25, 'reseda', 'Table 5', 'paper-puzzles', 'ai-escargot', 'partial restart, 1 zone of 27 (rows, columns, boxes)', 'reseda-zones27', NULL, 1000, 9, 7.045, 'seconds', NULL, 'about 778 s to success'),
    (26, 'reseda', 'Section 5.2', 'paper-puzzles', 'ai-escargot', 'right permutation of the top-left box fixed, 27 zones', 'reseda-fixed-block', NULL, 1000, 580, 1.517, 'seconds', NULL, NULL),
    (27, 'reseda', 'Section 5.2', 'paper-puzzles', 'ai-escargot', 'brute force over the 24 admissible permutations of the top-left box', 'reseda-brute-force', NULL, NULL, NULL, 63, 'seconds', NULL, 'estimated mean time to success'),
    (28, 'reseda', 'Table 4', 'kennett-very-easy', NULL, 'partial restart, 1 zone of 27 (rows, columns, boxes)', 'reseda-zones27', NULL, 1000, 1000, NULL, NULL, NULL, NULL),
    (29, 'reseda', 'Table 4', 'kennett-very-easy', NULL, 'partial restart, 1 zone of 9 (all boxes)', 'reseda-zones9', NULL, 1000, 1000, NULL, NULL, NULL, NULL),
    (30, 'reseda', 'Table 4', 'kennett-very-easy', NULL, 'partial restart, 1 zone of 3 (diagonal boxes)', 'reseda-zones3', NULL, 1000, 1000, NULL, NULL, NULL, NULL),
    (31, 'reseda', 'Table 4', 'kennett-easy', NULL, 'partial restart, 1 zone of 27 (rows, columns, boxes)', 'reseda-zones27', NULL, 1000, 1000, NULL, NULL, NULL, NULL),
    (32, 'reseda', 'Table 4', 'kennett-easy', NULL, 'partial restart, 1 zone of 9 (all boxes)', 'reseda-zones9', NULL, 1000, 994, NULL, NULL, NULL, NULL),
    (33, 'reseda', 'Table 4', 'kennett-easy', NULL, 'partial restart, 1 zone of 3 (diagonal boxes)', 'reseda-zones3', NULL, 1000, 982, NULL, NULL, NULL, NULL),
    (34, 'reseda', 'Table 4', 'kennett-medium', NULL, 'partial restart, 1 zone of 27 (rows, columns, boxes)', 'reseda-zones27', NULL, 1000, 959, NULL, NULL, NULL, NULL),
    (35, 'reseda', 'Table 4', 'kennett-medium', NULL, 'partial restart, 1 zone of 9 (all boxes)', 'reseda-zones9', NULL, 1000, 884, NULL, NULL, NULL, NULL),
    (36, 'reseda', 'Table 4', 'kennett-medium', NULL, 'partial restart, 1 zone of 3 (diagonal boxes)', 'reseda-zones3', NULL, 1000, 659, NULL, NULL, NULL, NULL),
    (37, 'reseda', 'Table 4', 'kennett-hard', NULL, 'partial restart, 1 zone of 27 (rows, columns, boxes)', 'reseda-zones27', NULL, 1000, 811, NULL, NULL, NULL, NULL),
    (38, 'reseda', 'Table 4', 'kennett-hard', NULL, 'partial restart, 1 zone of 9 (all boxes)', 'reseda-zones9', NULL, 1000, 563, NULL, NULL, NULL, NULL),
    (39, 'reseda', 'Table 4', 'kennett-hard', NULL, 'partial restart, 1 zone of 3 (diagonal boxes)', 'reseda-zones3', NULL, 1000, 365, NULL, NULL, NULL, NULL),
    (40, 'reseda', 'Table 4', 'kennett-fiendish', NULL, 'partial restart, 1 zone of 27 (rows, columns, boxes)', 'reseda-zones27', NULL, 1000, 605, NULL, NULL, NULL, NULL),
    (41, 'reseda', 'Table 4', 'kennett-fiendish', NULL, 'partial restart, 1 zone of 9 (all boxes)', 'reseda-zones9', NULL, 1000, 336, NULL, NULL, NULL, NULL),
    (42, 'reseda', 'Table 4', 'kennett-fiendish', NULL, 'partial restart, 1 zone of 3 (diagonal boxes)', 'reseda-zones3', NULL, 1000, 221, NULL, NULL, NULL, NULL),
    -- Sato and Inoue 2010: 100 runs of at most 100,000 generations; a failed run counts as 100,000.
    (43, 'sato-inoue', 'Table 1', 'paper-puzzles', 'sato-no1', 'mut+cross+LS', 'sato-mcl', 100000, 100, 100, 62, 'generations', 'budget', NULL),
    (44, 'sato-inoue', 'Table 1', 'paper-puzzles', 'sato-no11', 'mut+cross+LS', 'sato-mcl', 100000, 100, 100, 137, 'generations', 'budget', NULL),
    (45, 'sato-inoue', 'Table 1', 'paper-puzzles', 'sato-no27', 'mut+cross+LS', 'sato-mcl', 100000, 100, 100, 910, 'generations', 'budget', NULL),
    (46, 'sato-inoue', 'Table 1', 'paper-puzzles', 'sato-no29', 'mut+cross+LS', 'sato-mcl', 100000, 100, 100, 3193, 'generations', 'budget', NULL),
    (47, 'sato-inoue', 'Table 1', 'paper-puzzles', 'sato-no77', 'mut+cross+LS', 'sato-mcl', 100000, 100, 100, 9482, 'generations', 'budget', NULL),
    (48, 'sato-inoue', 'Table 1', 'paper-puzzles', 'sato-no106', 'mut+cross+LS', 'sato-mcl', 100000, 100, 96, 26825, 'generations', 'budget', NULL),
    (49, 'sato-inoue', 'Table 1', 'paper-puzzles', 'sato-no1', 'mut+cross', 'sato-mc', 100000, 100, 100, 105, 'generations', 'budget', NULL),
    (50, 'sato-inoue', 'Table 1', 'paper-puzzles', 'sato-no11', 'mut+cross', 'sato-mc', 100000, 100, 100, 247, 'generations', 'budget', NULL),
    (51, 'sato-inoue', 'Table 1', 'paper-puzzles', 'sato-no27', 'mut+cross', 'sato-mc', 100000, 100, 100, 2274, 'generations', 'budget', NULL),
    (52, 'sato-inoue', 'Table 1', 'paper-puzzles', 'sato-no29', 'mut+cross', 'sato-mc', 100000, 100, 100, 6609, 'generations', 'budget', NULL),
    (53, 'sato-inoue', 'Table 1', 'paper-puzzles', 'sato-no77', 'mut+cross', 'sato-mc', 100000, 100, 100, 20658, 'generations', 'budget', NULL),
    (54, 'sato-inoue', 'Table 1', 'paper-puzzles', 'sato-no106', 'mut+cross', 'sato-mc', 100000, 100, 74, 56428, 'generations', 'budget', NULL),
    (55, 'sato-inoue', 'Table 1', 'paper-puzzles', 'sato-no1', 'swap mutation only', 'sato-m', 100000, 100, 100, 223, 'generations', 'budget', NULL),
    (56, 'sato-inoue', 'Table 1', 'paper-puzzles', 'sato-no11', 'swap mutation only', 'sato-m', 100000, 100, 96, 6627, 'generations', 'budget', NULL),
    (57, 'sato-inoue', 'Table 1', 'paper-puzzles', 'sato-no27', 'swap mutation only', 'sato-m', 100000, 100, 86, 26961, 'generations', 'budget', NULL),
    (58, 'sato-inoue', 'Table 1', 'paper-puzzles', 'sato-no29', 'swap mutation only', 'sato-m', 100000, 100, 66, 42141, 'generations', 'budget', NULL),
    (59, 'sato-inoue', 'Table 1', 'paper-puzzles', 'sato-no77', 'swap mutation only', 'sato-m', 100000, 100, 35, 77573, 'generations', 'budget', NULL),
    (60, 'sato-inoue', 'Table 1', 'paper-puzzles', 'sato-no106', 'swap mutation only', 'sato-m', 100000, 100, 9, 94314, 'generations', 'budget', NULL),
    (61, 'sato-inoue', 'Table 3', 'paper-puzzles', 'ai-escargot', 'mut+cross+LS (SD2)', 'sato-mcl', 100000, 100, 83, 44170, 'generations', 'budget', NULL),
    (62, 'sato-inoue', 'Table 3', 'paper-puzzles', 'sato-sd3', 'mut+cross+LS (SD3)', 'sato-mcl', 100000, 100, 58, 64259, 'generations', 'budget', NULL),
    (63, 'sato-inoue', 'Table 4', 'paper-puzzles', 'ai-escargot', 'mut+cross+LS with the disparity-hypothesis correction (SD2)', 'sato-disparity', 100000, 100, 90, 40365, 'generations', 'budget', NULL),
    (64, 'sato-inoue', 'Table 4', 'paper-puzzles', 'sato-sd3', 'mut+cross+LS with the disparity-hypothesis correction (SD3)', 'sato-disparity', 100000, 100, 62, 62283, 'generations', 'budget', NULL),
    -- Waiyapara et al. (NB-COIN), Table II: 100 runs of at most 100,000 generations ("Nfe" = mean generations).
    (65, 'nb-coin', 'Table II', 'paper-puzzles', 'sato-no1', 'NB-COIN, Table I settings', 'nbcoin', 100000, 100, 100, 2, 'generations', 'solved', NULL),
    (66, 'nb-coin', 'Table II', 'paper-puzzles', 'sato-no11', 'NB-COIN, Table I settings', 'nbcoin', 100000, 100, 100, 4, 'generations', 'solved', NULL),
    (67, 'nb-coin', 'Table II', 'paper-puzzles', 'sato-no27', 'NB-COIN, Table I settings', 'nbcoin', 100000, 100, 100, 130, 'generations', 'solved', NULL),
    (68, 'nb-coin', 'Table II', 'paper-puzzles', 'sato-no29', 'NB-COIN, Table I settings', 'nbcoin', 100000, 100, 100, 1196, 'generations', 'solved', NULL),
    (69, 'nb-coin', 'Table II', 'paper-puzzles', 'sato-no77', 'NB-COIN, Table I settings', 'nbcoin', 100000, 100, 100, 2710, 'generations', 'solved', NULL),
    (70, 'nb-coin', 'Table II', 'paper-puzzles', 'sato-no106', 'NB-COIN, Table I settings', 'nbcoin', 100000, 100, 100, 2341, 'generations', 'solved', NULL),
    (71, 'nb-coin', 'Table II', 'paper-puzzles', 'sato-no1', 'GA mut+cross+LS, as quoted from Sato and Inoue', 'sato-mcl', 100000, 100, 100, 62, 'generations', 'budget', NULL),
    (72, 'nb-coin', 'Table II', 'paper-puzzles', 'sato-no11', 'GA mut+cross+LS, as quoted from Sato and Inoue', 'sato-mcl', 100000, 100, 100, 137, 'generations', 'budget', NULL),
    (73, 'nb-coin', 'Table II', 'paper-puzzles', 'sato-no27', 'GA mut+cross+LS, as quoted from Sato and Inoue', 'sato-mcl', 100000, 100, 100, 910, 'generations', 'budget', NULL),
    (74, 'nb-coin', 'Table II', 'paper-puzzles', 'sato-no29', 'GA mut+cross+LS, as quoted from Sato and Inoue', 'sato-mcl', 100000, 100, 100, 3193, 'generations', 'budget', NULL),
    (75, 'nb-coin', 'Table II', 'paper-puzzles', 'sato-no77', 'GA mut+cross+LS, as quoted from Sato and Inoue', 'sato-mcl', 100000, 100, 100, 9482, 'generations', 'budget', NULL),
    (76, 'nb-coin', 'Table II', 'paper-puzzles', 'sato-no106', 'GA mut+cross+LS, as quoted from Sato and Inoue', 'sato-mcl', 100000, 100, 96, 26825, 'generations', 'budget', NULL),
    -- Soto et al. 2014: Mantere and Koljonen's puzzles, which we lack; the RESEDA puzzles of the same level stand in.
    (77, 'soto-cuckoo', 'Table 1', 'paper-puzzles', 'reseda-easy', 'prefiltered cuckoo search, 10,000 iterations (paper: easy a, b, c, 50 of 50 each)', 'soto-cuckoo', 10000, 50, 50, NULL, NULL, NULL, NULL),
    (78, 'soto-cuckoo', 'Table 1', 'paper-puzzles', 'reseda-medium', 'prefiltered cuckoo search, 10,000 iterations (paper: medium a)', 'soto-cuckoo', 10000, 50, 50, NULL, NULL, NULL, NULL),
    (79, 'soto-cuckoo', 'Table 1', 'paper-puzzles', 'reseda-hard', 'prefiltered cuckoo search, 10,000 iterations (paper: hard a)', 'soto-cuckoo', 10000, 97, 50, NULL, NULL, NULL, NULL),
    (80, 'soto-cuckoo', 'Table 1', 'paper-puzzles', 'reseda-hard', 'prefiltered cuckoo search, 10,000 iterations (paper: hard b)', 'soto-cuckoo', 10000, 62, 50, NULL, NULL, NULL, NULL),
    (81, 'soto-cuckoo', 'Table 1', 'paper-puzzles', 'reseda-hard', 'prefiltered cuckoo search, 10,000 iterations (paper: hard c)', 'soto-cuckoo', 10000, 71, 50, NULL, NULL, NULL, NULL),
    (82, 'soto-cuckoo', 'Table 2', 'paper-puzzles', 'reseda-hard', 'prefiltered cuckoo search, 100,000 iterations (paper: hard)', 'soto-cuckoo', 100000, 30, 30, NULL, NULL, NULL, NULL),
    (83, 'soto-cuckoo', 'Table 2', 'paper-puzzles', 'reseda-hard', 'GA of Mantere and Koljonen, as quoted, 100,000 iterations (paper: hard)', 'soto-mk-ga', 100000, 30, 2, NULL, NULL, NULL, NULL),
    (84, 'soto-cuckoo', 'Table 2', 'paper-puzzles', 'reseda-hard', 'hybrid AC3-tabu search, as quoted, 100,000 iterations (paper: hard)', 'soto-hybrid-tabu', 100000, 30, 30, NULL, NULL, NULL, NULL),
    -- Franco, Gomez and Gallego: one run each on Caso 1 (reseda-medium).
    (85, 'franco', 'Section 6.1, Table 2', 'paper-puzzles', 'reseda-medium', 'tabu search, Table 2 settings', 'franco-tabu', NULL, 1, 1, 637, 'iterations', 'solved', 'one run'),
    (86, 'franco', 'Section 6.2, Tabla 3', 'paper-puzzles', 'reseda-medium', 'GA, Tabla 3 settings', 'franco-ga3', NULL, 1, 1, 4457, 'generations', 'solved', 'one run, seed 13'),
    (87, 'franco', 'Section 6.2, Tabla 4', 'paper-puzzles', 'reseda-medium', 'GA, Tabla 4 settings', 'franco-ga4', NULL, 1, 1, 1792, 'generations', 'solved', 'one run, seed 1')
),
-- The configurations that stand for each variant: paper (the text as
-- written), reading (another reading of the text) or ours (an extension).
candidates(family, config, role) AS (
  VALUES
    ('reseda-both-0.99', 'reseda-table1-both-a0.99', 'paper'),
    ('reseda-both-0.9', 'reseda-table1-both-a0.9', 'paper'),
    ('reseda-both-0.7', 'reseda-table1-both-a0.7', 'paper'),
    ('reseda-both-0.7', 'reseda-table1-both-a0.7-ac3', 'ours'),
    ('reseda-both-0.5', 'reseda-table1-both-a0.5', 'paper'),
    ('reseda-both-0.3', 'reseda-table2-a0.3', 'paper'),
    ('reseda-both-0.1', 'reseda-table2-a0.1', 'paper'),
    ('reseda-perm-0.99', 'reseda-table1-perm-a0.99', 'paper'),
    ('reseda-perm-0.9', 'reseda-table1-perm-a0.9', 'paper'),
    ('reseda-perm-0.7', 'reseda-table1-perm-a0.7', 'paper'),
    ('reseda-perm-0.5', 'reseda-table1-perm-a0.5', 'paper'),
    ('reseda-precomp-0.99', 'reseda-table1-precomp-a0.99', 'paper'),
    ('reseda-precomp-0.9', 'reseda-table1-precomp-a0.9', 'paper'),
    ('reseda-precomp-0.7', 'reseda-table1-precomp-a0.7', 'paper'),
    ('reseda-precomp-0.5', 'reseda-table1-precomp-a0.5', 'paper'),
    ('reseda-zones3', 'reseda-table3-zones3', 'paper'),
    ('reseda-zones3', 'reseda-table3-zones3-ac3', 'ours'),
    ('reseda-zones9', 'reseda-table3-zones9', 'paper'),
    ('reseda-zones27', 'reseda-table3-zones27', 'paper'),
    ('reseda-zones27', 'reseda-table3-zones27-ac3', 'ours'),
    ('reseda-fixed-block', 'reseda-sec5.2-fixed-block', 'paper'),
    ('reseda-brute-force', 'reseda-sec5.2-brute-force', 'paper'),
    ('reseda-brute-force', 'reseda-sec5.2-brute-force-ac3', 'ours'),
    ('sato-mcl', 'sato-inoue-mut-cross-ls', 'paper'),
    ('sato-mcl', 'sato-inoue-mut-cross-ls-restart', 'ours'),
    ('sato-mcl', 'sato-inoue-mut-cross-ls-luby', 'ours'),
    ('sato-mcl', 'sato-inoue-mut-cross-ls-geometric', 'ours'),
    ('sato-mcl', 'sato-inoue-mut-cross-ls-ac3', 'ours'),
    ('sato-mc', 'sato-inoue-mut-cross', 'paper'),
    ('sato-mc', 'sato-inoue-mut-cross-any', 'reading'),
    ('sato-mc', 'sato-inoue-mut-cross-elite', 'ours'),
    ('sato-m', 'sato-inoue-mutation', 'paper'),
    ('sato-m', 'sato-inoue-mutation-any', 'reading'),
    ('sato-m', 'sato-inoue-mutation-elite', 'ours'),
    ('sato-disparity', 'sato-inoue-disparity', 'paper'),
    ('sato-disparity', 'sato-inoue-disparity-ac3', 'ours'),
    ('nbcoin', 'nb-coin-table2', 'paper'),
    ('nbcoin', 'nb-coin-table2-mean', 'reading'),
    ('nbcoin', 'nb-coin-table2-box', 'reading'),
    ('nbcoin', 'nb-coin-table2-mean-box', 'reading'),
    ('nbcoin', 'nb-coin-table2-neighbour', 'reading'),
    ('nbcoin', 'nb-coin-table2-mean-neighbour', 'reading'),
    ('nbcoin', 'nb-coin-table2-box-restart', 'ours'),
    ('nbcoin', 'nb-coin-table2-box-luby', 'ours'),
    ('nbcoin', 'nb-coin-table2-box-geometric', 'ours'),
    ('nbcoin', 'nb-coin-table2-ac3', 'ours'),
    ('nbcoin', 'nb-coin-table2-mean-ac3', 'ours'),
    ('soto-cuckoo', 'soto-cuckoo', 'paper'),
    ('soto-cuckoo', 'soto-cuckoo-domain-moves', 'reading'),
    ('soto-cuckoo', 'soto-cuckoo-gac', 'ours'),
    -- Our tabu search with a prefilter stands in for the hybrid of Soto et al. [20].
    ('soto-hybrid-tabu', 'franco-tabu-union-move-ac3', 'ours'),
    ('soto-hybrid-tabu', 'franco-tabu-table2-ac3', 'ours'),
    ('franco-tabu', 'franco-tabu-table2', 'paper'),
    ('franco-tabu', 'franco-tabu-table2-move', 'reading'),
    ('franco-tabu', 'franco-tabu-table2-aspiration', 'ours'),
    ('franco-tabu', 'franco-tabu-union', 'ours'),
    ('franco-tabu', 'franco-tabu-union-move', 'ours'),
    ('franco-tabu', 'franco-tabu-no-memory', 'ours'),
    ('franco-tabu', 'franco-tabu-table2-ac3', 'ours'),
    ('franco-tabu', 'franco-tabu-union-move-ac3', 'ours'),
    ('franco-ga3', 'franco-table3', 'paper'),
    ('franco-ga3', 'franco-table3-ac3', 'ours'),
    ('franco-ga4', 'franco-table4', 'paper')
),
selected AS (
  SELECT c.* FROM cells c WHERE CAST(:paper AS TEXT) IS NULL OR c.paper = :paper
),
runs AS (
  SELECT r.id, r.config, r.puzzle_id, r.seed, r.solved, r.generations, r.max_generations, r.wall_seconds
  FROM run_results r
  WHERE r.status IN ('solved', 'unsolved', 'timeout')
    AND (CAST(:experiment AS TEXT) IS NULL OR r.id IN (
      SELECT id FROM experiment_run_results WHERE experiment = :experiment))
),
-- A seed run with several budgets is one sample: the run with the largest
-- budget (0: none) stands for it.
cell_runs AS (
  SELECT c.seq, k.config, c.budget, r.solved, r.generations, r.wall_seconds,
         ROW_NUMBER() OVER (PARTITION BY c.seq, k.config, r.puzzle_id, r.seed
                            ORDER BY CASE WHEN r.max_generations = 0 THEN 1 ELSE 0 END DESC, r.max_generations DESC, r.id) AS dup
  FROM selected c
  JOIN candidates k ON k.family = c.family
  JOIN runs r ON r.config = k.config AND (c.budget IS NULL OR r.max_generations >= c.budget)
  WHERE (k.role = 'paper' OR (k.role = 'reading' AND :readings IN ('readings', 'all')) OR :readings = 'all')
    AND EXISTS (SELECT 1 FROM puzzle_catalog pc
                WHERE pc.id = r.puzzle_id AND pc.collection = c.collection AND (c.puzzle IS NULL OR pc.label = c.puzzle))
),
per_config AS (
  SELECT r.seq, r.config,
         COUNT(*) AS n,
         SUM(CASE WHEN r.solved = 1 AND (r.budget IS NULL OR r.generations <= r.budget) THEN 1 ELSE 0 END) AS k,
         AVG(CASE WHEN r.solved = 1 AND (r.budget IS NULL OR r.generations <= r.budget) THEN 1.0 * r.generations END) AS gens_solved,
         AVG(CASE WHEN r.solved = 1 AND (r.budget IS NULL OR r.generations <= r.budget) THEN 1.0 * r.generations ELSE 1.0 * r.budget END) AS gens_budget,
         AVG(r.wall_seconds) AS seconds
  FROM cell_runs r
  WHERE r.dup = 1
  GROUP BY r.seq, r.config
),
scored AS (
  SELECT p.seq, p.config, p.n, p.k,
         1.0 * p.k / p.n AS rate,
         (1.0 * p.k / p.n + 1.9208 / p.n
           - 1.96 * SQRT((1.0 * p.k / p.n) * (1 - 1.0 * p.k / p.n) / p.n + 0.9604 / (1.0 * p.n * p.n))) / (1 + 3.8416 / p.n) AS lo,
         (1.0 * p.k / p.n + 1.9208 / p.n
           + 1.96 * SQRT((1.0 * p.k / p.n) * (1 - 1.0 * p.k / p.n) / p.n + 0.9604 / (1.0 * p.n * p.n))) / (1 + 3.8416 / p.n) AS hi,
         CASE WHEN c.effort_unit = 'seconds' THEN p.seconds
              WHEN c.failed = 'budget' THEN p.gens_budget
              WHEN c.effort_unit IS NOT NULL THEN p.gens_solved END AS effort
  FROM per_config p
  JOIN selected c ON c.seq = p.seq
),
ranked AS (
  SELECT s.*,
         ROW_NUMBER() OVER (PARTITION BY s.seq ORDER BY s.lo DESC, COALESCE(s.effort, 1e18), s.config) AS pick,
         COUNT(*) OVER (PARTITION BY s.seq) AS configs_run
  FROM scored s
),
board AS (
  SELECT c.*, o.config, o.n, o.k, o.rate, o.lo, o.hi, o.effort, o.configs_run,
         1.0 * c.paper_solved / c.paper_runs AS paper_rate,
         (1.0 * c.paper_solved / c.paper_runs + 1.9208 / c.paper_runs
           - 1.96 * SQRT((1.0 * c.paper_solved / c.paper_runs) * (1 - 1.0 * c.paper_solved / c.paper_runs) / c.paper_runs
                         + 0.9604 / (1.0 * c.paper_runs * c.paper_runs))) / (1 + 3.8416 / c.paper_runs) AS paper_lo,
         (1.0 * c.paper_solved / c.paper_runs + 1.9208 / c.paper_runs
           + 1.96 * SQRT((1.0 * c.paper_solved / c.paper_runs) * (1 - 1.0 * c.paper_solved / c.paper_runs) / c.paper_runs
                         + 0.9604 / (1.0 * c.paper_runs * c.paper_runs))) / (1 + 3.8416 / c.paper_runs) AS paper_hi
  FROM selected c
  LEFT JOIN ranked o ON o.seq = c.seq AND o.pick = 1
),
-- The cells some configuration may stand for under the readings chosen.
implemented AS (
  SELECT DISTINCT c.seq
  FROM selected c
  JOIN candidates k ON k.family = c.family
  WHERE k.role = 'paper' OR (k.role = 'reading' AND :readings IN ('readings', 'all')) OR :readings = 'all'
)
SELECT b.seq, b.paper, b.tbl AS paper_table,
       COALESCE(b.puzzle, 'collection ' || b.collection) AS puzzle,
       b.variant,
       CASE WHEN b.paper_runs IS NULL THEN 'until solved' ELSE b.paper_solved || '/' || b.paper_runs END
         || CASE WHEN b.paper_effort IS NULL THEN '' ELSE ', ' || b.paper_effort || ' ' || b.effort_unit END
         || CASE WHEN b.extra IS NULL THEN '' ELSE ' (' || b.extra || ')' END AS paper_value,
       CASE WHEN b.n IS NULL THEN ''
            ELSE b.k || '/' || b.n
              || CASE WHEN b.effort IS NULL THEN ''
                      WHEN b.effort_unit = 'seconds' THEN ', ' || ROUND(CAST(b.effort AS NUMERIC), 4) || ' seconds'
                      ELSE ', ' || ROUND(CAST(b.effort AS NUMERIC), 1) || ' ' || b.effort_unit END END AS ours,
       COALESCE(b.n, 0) AS runs,
       b.config,
       CASE
         WHEN b.seq NOT IN (SELECT seq FROM implemented) THEN 'quoted'
         WHEN b.n IS NULL OR b.n < :min_runs THEN 'not run'
         WHEN b.paper_runs IS NOT NULL AND b.hi < b.paper_lo THEN 'short'
         WHEN b.paper_runs IS NOT NULL AND b.lo > b.paper_hi THEN 'beaten'
         WHEN b.effort IS NULL OR b.paper_effort IS NULL THEN 'matched'
         WHEN b.effort_unit = 'seconds' AND b.paper_runs IS NOT NULL THEN 'matched'
         WHEN b.effort > 2 * b.paper_effort THEN 'short'
         WHEN b.effort < 0.5 * b.paper_effort THEN 'beaten'
         ELSE 'matched'
       END AS status,
       ROUND(CAST(b.paper_rate AS NUMERIC), 4) AS paper_rate,
       ROUND(CAST(b.rate AS NUMERIC), 4) AS our_rate,
       ROUND(CAST(b.lo AS NUMERIC), 4) AS our_rate_low,
       ROUND(CAST(b.hi AS NUMERIC), 4) AS our_rate_high,
       b.paper_effort,
       ROUND(CAST(b.effort AS NUMERIC), 4) AS our_effort,
       b.effort_unit,
       COALESCE(b.configs_run, 0) AS configs_run
FROM board b
ORDER BY b.seq;
