-- 0001_initial: players, games, moves, warnings.
--
-- store_open (server/store/store.c) runs the pending migrations in order inside ONE transaction and
-- then sets PRAGMA user_version to their count: a migration must not contain BEGIN, COMMIT or
-- PRAGMA user_version, and is never edited once released (add a new NNNN_name.sql instead).
-- Foreign keys are enforced while migrations run.
--
-- Conventions: times are Unix epoch seconds (REAL, fractions allowed); columns holding JSON
-- are checked with json_valid; NULL means "none" in optional columns.
-- Later migrations add tournaments (games.tournament_id and games.round are ready, without a
-- foreign key until the tournaments table exists) and rating history.

-- Accounts. Names are unique case-insensitively (COLLATE NOCASE: ASCII folding, which covers
-- the protocol's [A-Za-z0-9_.-]): "Alice" and "alice" are one name; the spelling given at
-- registration is kept, and lookups by name match in any case.
CREATE TABLE players (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(name) BETWEEN 1 AND 32),
	pwhash TEXT NOT NULL CHECK (pwhash <> ''),
	role TEXT NOT NULL DEFAULT 'player' CHECK (role IN ('player', 'td', 'admin')),
	-- Glicko-2: rating, rating deviation, volatility (the usual starting values).
	rating REAL NOT NULL DEFAULT 1500,
	rd REAL NOT NULL DEFAULT 350,
	volatility REAL NOT NULL DEFAULT 0.06,
	rank TEXT,                                -- declared rank, e.g. '5k', '3d'
	created_at REAL NOT NULL DEFAULT ((julianday('now') - 2440587.5) * 86400.0)
);

-- Games, from the challenge (or the tournament pairing) to the result. The columns that
-- change during play (phase, clocks, warnings, extra) are rewritten at each commit.
CREATE TABLE games (
	id INTEGER PRIMARY KEY,
	black_id INTEGER NOT NULL REFERENCES players (id),
	white_id INTEGER NOT NULL REFERENCES players (id),
	size INTEGER NOT NULL CHECK (size >= 1),
	komi REAL NOT NULL,
	handicap INTEGER NOT NULL DEFAULT 0 CHECK (handicap >= 0),
	rated INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1)),
	time_control TEXT CHECK (time_control IS NULL OR json_valid(time_control)),
	rules TEXT CHECK (rules IS NULL OR json_valid(rules)),
	phase TEXT NOT NULL
		CHECK (phase IN ('pending', 'scheduled', 'playing', 'counting', 'ended')),
	result TEXT,                              -- SGF form: 'B+R', 'W+3.5', '0', 'Void'
	reason TEXT,                              -- 'resignation', 'time', 'score', ...
	challenger_id INTEGER REFERENCES players (id),
	color_choice TEXT CHECK (color_choice IS NULL OR color_choice IN ('nigiri', 'black', 'white')),
	tournament_id INTEGER,
	round INTEGER CHECK (round IS NULL OR round >= 1),
	start_at REAL,                            -- scheduled start
	created_at REAL NOT NULL,
	ended_at REAL,
	clocks TEXT CHECK (clocks IS NULL OR json_valid(clocks)),
	warnings_b INTEGER NOT NULL DEFAULT 0 CHECK (warnings_b >= 0),
	warnings_w INTEGER NOT NULL DEFAULT 0 CHECK (warnings_w >= 0),
	extra TEXT CHECK (extra IS NULL OR json_valid(extra)),
	CHECK (black_id <> white_id)
);
CREATE INDEX games_phase ON games (phase);
CREATE INDEX games_black ON games (black_id);
CREATE INDEX games_white ON games (white_id);
CREATE INDEX games_tournament ON games (tournament_id, round) WHERE tournament_id IS NOT NULL;

-- Every turn of every game, in order; the primary key is the moves-by-game index. A forfeited
-- turn (docs/rules.md §3) is vertex 'pass' with `forfeit` naming why: 'occupied', 'suicide',
-- 'superko', 'time'.
CREATE TABLE moves (
	game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	number INTEGER NOT NULL CHECK (number >= 1),
	color TEXT NOT NULL CHECK (color IN ('B', 'W')),
	vertex TEXT NOT NULL CHECK (vertex <> ''),
	forfeit TEXT,
	clocks TEXT CHECK (clocks IS NULL OR json_valid(clocks)),
	at REAL NOT NULL,
	PRIMARY KEY (game_id, number)
) WITHOUT ROWID;

-- Referee warnings (docs/rules.md §3: out of turn, ko retake, a TD's warning for conduct).
CREATE TABLE warnings (
	id INTEGER PRIMARY KEY,
	game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	color TEXT NOT NULL CHECK (color IN ('B', 'W')),
	reason TEXT NOT NULL,
	number INTEGER CHECK (number IS NULL OR number >= 1), -- move number when given
	at REAL NOT NULL
);
CREATE INDEX warnings_game ON warnings (game_id);
