-- name: rater-correlation
-- description: How far the raters agree: for every pair of raters, the
--   Spearman rank correlation of their values over the puzzles both rated
--   (the Pearson correlation of the ranks, ties sharing their mean rank;
--   NULL when a rater gives one value to every puzzle), lowest first.
-- param: collection NULL only the puzzles of this collection (NULL: every puzzle)
WITH rated AS (
  SELECT puzzle_id, rater, value
  FROM ratings
  WHERE value IS NOT NULL
    AND (CAST(:collection AS TEXT) IS NULL OR puzzle_id IN (
          SELECT id FROM puzzle_catalog WHERE collection = :collection))
),
pairs AS (
  SELECT a.rater AS rater_a, b.rater AS rater_b, a.puzzle_id, a.value AS va, b.value AS vb
  FROM rated a
  JOIN rated b ON b.puzzle_id = a.puzzle_id AND a.rater < b.rater
),
ranked AS (
  SELECT rater_a, rater_b,
         RANK() OVER (PARTITION BY rater_a, rater_b ORDER BY va)
           + (COUNT(*) OVER (PARTITION BY rater_a, rater_b, va) - 1) / 2.0 AS ra,
         RANK() OVER (PARTITION BY rater_a, rater_b ORDER BY vb)
           + (COUNT(*) OVER (PARTITION BY rater_a, rater_b, vb) - 1) / 2.0 AS rb
  FROM pairs
),
moments AS (
  SELECT rater_a, rater_b, COUNT(*) AS n,
         AVG(ra) AS ma, AVG(rb) AS mb,
         AVG(ra * rb) AS mab, AVG(ra * ra) AS maa, AVG(rb * rb) AS mbb
  FROM ranked
  GROUP BY rater_a, rater_b
)
SELECT rater_a, rater_b, n AS puzzles,
       ROUND((mab - ma * mb) / NULLIF(SQRT((maa - ma * ma) * (mbb - mb * mb)), 0), 4) AS spearman
FROM moments
ORDER BY spearman, rater_a, rater_b;
