-- 0011_games_played_by_player: each player's games played on the board, newest last, for the
-- leaderboard's `last_played` (`players`, store_leaderboard).
--
-- Rules as in 0001's header: run inside store_open's one transaction; no BEGIN, COMMIT or
-- PRAGMA user_version; never edited once released.
--
-- The leaderboard took each player's newest game played as max(ended_at) over
-- `(black_id = p OR white_id = p) AND phase = 'ended' AND reason IN (...)`, which SQLite
-- answered through games_phase: every ended game read once per player listed. A trial's
-- 24,000 games and 302 accounts made one `players` request 1.9-3.7 s of the loop thread (no
-- login needed). With these two partial indexes each player's newest game is one search per
-- colour (5 ms for the whole list there). The WHERE clause is the query's own terms, word
-- for word (BOARD_REASONS in server/store/store_sql.c), so that SQLite can use them.
CREATE INDEX games_black_played ON games (black_id, ended_at)
	WHERE phase = 'ended' AND reason IN ('resignation', 'time', 'score', 'warnings', 'illegal', 'adjudicated');
CREATE INDEX games_white_played ON games (white_id, ended_at)
	WHERE phase = 'ended' AND reason IN ('resignation', 'time', 'score', 'warnings', 'illegal', 'adjudicated');
