-- name: collection-summary
-- description: One row per collection: puzzles, givens (min, mean, max),
--   puzzles with a stored solution and with a unique one, those whose
--   solution count is undetermined (the count's budget ran out:
--   count_status 'undetermined'; sudokulab count finishes them), the labels of one
--   rater and how many puzzles carry each, and duplicates up to symmetry
--   (puzzles whose puzzles.symmetry_form another puzzle of the collection
--   shares; unknown until the canonical forms are computed).
-- param: rater human the rater whose labels are counted
WITH members AS (
  SELECT pc.collection, pc.id, pc.givens, pc.solution, pc.solution_count, pc.count_status, pc.symmetry_form,
         rt.label
  FROM puzzle_catalog pc
  LEFT JOIN ratings rt ON rt.puzzle_id = pc.id AND rt.rater = :rater
  WHERE pc.collection IS NOT NULL
),
labels AS MATERIALIZED (
  -- Materialized: the collections' rows below each read it.
  SELECT collection, label, COUNT(*) AS n
  FROM members
  WHERE label IS NOT NULL
  GROUP BY collection, label
),
duplicates AS (
  -- Per collection, the puzzles whose symmetry form another puzzle of the
  -- collection shares (counted once per collection, not per row below).
  SELECT collection, SUM(n - 1) AS n
  FROM (SELECT collection, symmetry_form, COUNT(*) AS n
        FROM members
        WHERE symmetry_form IS NOT NULL
        GROUP BY collection, symmetry_form) f
  GROUP BY collection
)
SELECT m.collection,
       COUNT(*) AS puzzles,
       MIN(m.givens) AS min_givens,
       ROUND(AVG(m.givens), 2) AS mean_givens,
       MAX(m.givens) AS max_givens,
       SUM(CASE WHEN m.solution IS NOT NULL THEN 1 ELSE 0 END) AS with_solution,
       SUM(CASE WHEN m.solution_count = 1 THEN 1 ELSE 0 END) AS unique_solution,
       SUM(CASE WHEN m.count_status = 'undetermined' THEN 1 ELSE 0 END) AS undetermined,
       SUM(CASE WHEN m.label IS NOT NULL THEN 1 ELSE 0 END) AS rated,
       COALESCE((SELECT group_concat(l.label || '=' || l.n, ', ')
                   FROM (SELECT labels.* FROM labels
                         LEFT JOIN rating_levels lv ON lv.rater = :rater AND lv.label = labels.label
                         WHERE labels.collection = m.collection ORDER BY lv.level, labels.label) l), '') AS labels,
       SUM(CASE WHEN m.symmetry_form IS NOT NULL THEN 1 ELSE 0 END) AS with_symmetry_form,
       COALESCE(MAX(d.n), 0) AS symmetry_duplicates
FROM members m
LEFT JOIN duplicates d ON d.collection = m.collection
GROUP BY m.collection
ORDER BY m.collection;
