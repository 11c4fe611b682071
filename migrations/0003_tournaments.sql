-- 0003_tournaments: placeholder (being written)
SELECT 1;
