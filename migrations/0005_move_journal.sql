-- 0005_move_journal: moves are appended to a journal and folded into `moves` in batches.
--
-- `moves` is keyed by (game_id, number), so with many games in play every move wrote a page of
-- its own game (the leaf that game's rows live in): a commit of N moves of N games wrote N
-- pages to the WAL and, at the checkpoint, to the database. A journal row is keyed by the
-- order it was written in, so the moves of one commit share a page or two. The daemon folds
-- the journal into `moves` (one transaction: INSERT ... SELECT in game and number order, then
-- DELETE) once it holds enough rows or is old enough, when it opens a database, and when it
-- stops; see server/store/store_journal.c (store_journal_fold). A game's moves are the rows of both tables
-- (the store reads them as one list), and a (game_id, number) is in at most one of them: the
-- store refuses a move whose number the game has in either (STORE_CONFLICT).
CREATE TABLE move_journal (
	seq INTEGER PRIMARY KEY,
	game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	number INTEGER NOT NULL CHECK (number >= 1),
	color TEXT NOT NULL CHECK (color IN ('B', 'W')),
	vertex TEXT NOT NULL CHECK (vertex <> ''),
	forfeit TEXT,
	clocks TEXT CHECK (clocks IS NULL OR json_valid(clocks)),
	at REAL NOT NULL
);
