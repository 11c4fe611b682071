-- 0006_player_profiles: what a tournament needs to know of a person (issue 16): the full name
-- ("Surname Firstname"), country, club and EGD PIN of an account, and the entrants a director
-- enters without an account.
--
-- Rules as in 0001's header: run inside store_open's one transaction; no BEGIN, COMMIT or
-- PRAGMA user_version; never edited once released.
--
-- An entrant (entrant = 1) is a players row that cannot log in (its pwhash is no hash and its
-- name is outside the protocol's name characters), so that its games are ordinary games rows.
-- NULL: not known. Lengths in bytes (UTF-8 names).
CREATE TABLE player_profiles (
	player_id INTEGER PRIMARY KEY REFERENCES players (id),
	full_name TEXT CHECK (full_name IS NULL OR length(CAST(full_name AS BLOB)) BETWEEN 1 AND 64),
	country TEXT CHECK (country IS NULL OR length(country) = 2),
	club TEXT CHECK (club IS NULL OR length(CAST(club AS BLOB)) BETWEEN 1 AND 16),
	egd_pin TEXT CHECK (egd_pin IS NULL OR length(egd_pin) = 8),
	entrant INTEGER NOT NULL DEFAULT 0 CHECK (entrant IN (0, 1))
);
