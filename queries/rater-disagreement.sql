-- name: rater-disagreement
-- description: The puzzles the raters disagree on most: each rater's value
--   becomes a percentile rank among the puzzles it rated (0 = easiest, 1 =
--   hardest, by PERCENT_RANK), and a puzzle's spread is its highest minus
--   its lowest percentile over the raters; largest spread first.
-- param: collection NULL only the puzzles of this collection (NULL: every puzzle)
-- param: limit 20 how many puzzles to list
WITH rated AS (
  SELECT puzzle_id, rater, value, label,
         PERCENT_RANK() OVER (PARTITION BY rater ORDER BY value) AS pct
  FROM ratings
  WHERE value IS NOT NULL
    AND (CAST(:collection AS TEXT) IS NULL OR puzzle_id IN (
          SELECT id FROM puzzle_catalog WHERE collection = :collection))
),
spread AS (
  SELECT puzzle_id, COUNT(*) AS raters,
         MAX(pct) - MIN(pct) AS spread
  FROM rated
  GROUP BY puzzle_id
  HAVING COUNT(*) >= 2
)
SELECT s.puzzle_id,
       (SELECT pc.collection || ':' || pc.label FROM puzzle_catalog pc
         WHERE pc.id = s.puzzle_id ORDER BY pc.collection, pc.position LIMIT 1) AS puzzle,
       s.raters, ROUND(s.spread, 4) AS spread,
       (SELECT group_concat(x.rater || '=' || ROUND(x.pct, 2) || COALESCE(' (' || x.label || ')', ''), ', ')
          FROM (SELECT * FROM rated r WHERE r.puzzle_id = s.puzzle_id ORDER BY r.pct, r.rater) x) AS percentiles
FROM spread s
ORDER BY s.spread DESC, s.puzzle_id
LIMIT :limit;
