-- 0010_tournaments_deleted: the tournaments deleted (tournament.delete), so that their numbers
-- are never given again.
--
-- Rules as in 0001's header: run inside store_open's one transaction; no BEGIN, COMMIT or
-- PRAGMA user_version; never edited once released.
--
-- tournaments.id is a plain INTEGER PRIMARY KEY: SQLite gives a new row the largest id plus
-- one, so deleting the newest event handed its number to the next one made, and an old link
-- (/tournament/5, an export naming it) then showed another event. SQLite adds AUTOINCREMENT
-- only by rebuilding the table; instead a deleted event leaves its id and name here, and a
-- new event's id is one more than the largest of both tables (store_tournament_create).
CREATE TABLE tournaments_deleted (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL,
	deleted_at REAL NOT NULL DEFAULT ((julianday('now') - 2440587.5) * 86400.0)
);
