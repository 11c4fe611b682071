-- 0008_server_alive: when the daemon was last known to be running.
--
-- tengend writes the time (Unix seconds) here every SERVER_ALIVE_MS while it runs and once
-- more as it stops (store_alive_set). At the next start, the time from then to the start is
-- time the server was down: no clock runs then (Chinese Rules 2002, Art. 14), and a scheduled
-- game's lateness (Art. 22) does not count it either (server/game/game_live.c, games_load).
-- One row at most.
CREATE TABLE server_alive (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	at REAL NOT NULL
);
