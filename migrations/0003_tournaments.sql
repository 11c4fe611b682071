-- 0003_tournaments: tournaments (the tournament module's state).
--
-- Rules as in 0001's header: run inside store_open's one transaction; no BEGIN, COMMIT or
-- PRAGMA user_version; never edited once released.
--
-- The store keeps a tournament's state as one JSON document (settings, registered players,
-- byes, withdrawals, rounds) that only the tournament module reads; the store checks that it
-- is valid JSON. Tournament games are rows of `games` with tournament_id and round.
-- games.tournament_id stays without a foreign key: SQLite adds one only by rebuilding the
-- games table, which the rows referencing games would make a risky migration.

-- Names are unique case-insensitively, like player names.
CREATE TABLE tournaments (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(name) BETWEEN 1 AND 64),
	system TEXT NOT NULL CHECK (length(system) BETWEEN 1 AND 31),
	state TEXT NOT NULL CHECK (json_valid(state)),
	created_at REAL NOT NULL DEFAULT ((julianday('now') - 2440587.5) * 86400.0)
);
