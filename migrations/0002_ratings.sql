-- 0002_ratings: rating history and the values a full recompute starts from (issue 7).
--
-- Rules as in 0001's header: run inside store_open's one transaction; no BEGIN, COMMIT or
-- PRAGMA user_version; never edited once released.
--
-- A player's rating (players.rating, rd, volatility) is the result of replaying their rated
-- games, in rating order (games.ended_at, then games.id), from their starting values: 1500 /
-- 350 / 0.06, or for a player who declared a rank at registration that rank's rating with a
-- high RD (common/rating.h, rating_init_rank). The starting values are kept so that a
-- director's change of an old result can replay everything after it (server/svc/ratings.c).

ALTER TABLE players ADD COLUMN rating_start REAL NOT NULL DEFAULT 1500;
ALTER TABLE players ADD COLUMN rd_start REAL NOT NULL DEFAULT 350;
ALTER TABLE players ADD COLUMN volatility_start REAL NOT NULL DEFAULT 0.06;
-- When the player's rating last changed by a game (that game's ended_at); NULL: never. Idle RD
-- growth (rating_idle) runs from here to the next rated game.
ALTER TABLE players ADD COLUMN last_rated_at REAL;

-- One row per player per rated game: the player's stored values before the game (before the
-- idle RD growth applied at the game) and after it. `at` is the game's ended_at, so rows of
-- one player in (at, game_id) order are in rating order and each row's *_before equals the
-- previous row's rating, rd, volatility. Rows are written in the transaction that stores the
-- game's result; a recompute deletes and rewrites them.
CREATE TABLE rating_history (
	id INTEGER PRIMARY KEY,
	player_id INTEGER NOT NULL REFERENCES players (id),
	game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	rating_before REAL NOT NULL,
	rd_before REAL NOT NULL CHECK (rd_before > 0),
	volatility_before REAL NOT NULL CHECK (volatility_before > 0),
	rating REAL NOT NULL,
	rd REAL NOT NULL CHECK (rd > 0),
	volatility REAL NOT NULL CHECK (volatility > 0),
	at REAL NOT NULL,
	UNIQUE (game_id, player_id)               -- also the by-game index
);
CREATE INDEX rating_history_player ON rating_history (player_id, at, game_id);
CREATE INDEX rating_history_at ON rating_history (at, game_id);

-- Rated ended games in rating order, for a recompute.
CREATE INDEX games_rating_order ON games (ended_at, id) WHERE phase = 'ended' AND rated = 1;
