-- 0002_ratings: placeholder (being written)
SELECT 1;
