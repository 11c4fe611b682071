/* store_sql: the text of every statement the store prepares, and the names of their
 * parameters. See store_int.h. */
#include "store_int.h"

/* The parameters of create and update are named as the columns after id, in GAME_COLS
 * order; update's :id is the id. */
#define GAME_PARAMS ":black_id, :white_id, :size, :komi, :handicap, :rated, :time_control, " \
	":rules, :phase, :result, :reason, :challenger_id, :color_choice, :tournament_id, " \
	":round, :start_at, :created_at, :ended_at, :clocks, :warnings_b, :warnings_w, :extra"
#define GAME_SET "black_id = :black_id, white_id = :white_id, size = :size, komi = :komi, " \
	"handicap = :handicap, rated = :rated, time_control = :time_control, rules = :rules, " \
	"phase = :phase, result = :result, reason = :reason, challenger_id = :challenger_id, " \
	"color_choice = :color_choice, tournament_id = :tournament_id, round = :round, " \
	"start_at = :start_at, created_at = :created_at, ended_at = :ended_at, " \
	"clocks = :clocks, warnings_b = :warnings_b, warnings_w = :warnings_w, extra = :extra"

/* store_game_update in two statements, so that a move (which changes only the columns of
 * GAME_STATE_SET) writes neither the indexes on games nor checks its foreign keys: SQLite
 * maintains every index, and checks every foreign key, of a column named in an UPDATE's SET
 * whether or not its value changes. ST_GAME_UPDATE sets every column but only if one of the
 * others differs from the stored row; ST_GAME_UPDATE_STATE (the same names, those of the
 * state and :id) sets the per-move state. */
#define GAME_OTHERS_SAME "black_id IS :black_id AND white_id IS :white_id AND size IS :size " \
	"AND komi IS :komi AND handicap IS :handicap AND rated IS :rated " \
	"AND time_control IS :time_control AND rules IS :rules AND phase IS :phase " \
	"AND challenger_id IS :challenger_id AND color_choice IS :color_choice " \
	"AND tournament_id IS :tournament_id AND round IS :round AND start_at IS :start_at " \
	"AND created_at IS :created_at AND ended_at IS :ended_at"
#define GAME_STATE_SET "result = :result, reason = :reason, clocks = :clocks, " \
	"warnings_b = :warnings_b, warnings_w = :warnings_w, extra = :extra"

/* The listing filters: :phase or NULL, :player_id or 0, :tournament_id or 0, :limit or -1,
 * :before the id every game listed is below (the page's keyset cursor; INT64_MAX: any).
 * Each variant leads with the condition an index serves, and with the id bound the index
 * (which holds the rowid) is walked from :before down, so a page costs the same wherever it
 * is (EXPLAIN QUERY PLAN: "games_phase (phase=? AND rowid<?)", "INTEGER PRIMARY KEY
 * (rowid<?)"). */
#define GAMES_FILTER_PHASE "(:phase IS NULL OR phase = :phase)"
#define GAMES_FILTER_PLAYER "(:player_id = 0 OR black_id = :player_id " \
	"OR white_id = :player_id)"
#define GAMES_FILTER_TOURNAMENT "(:tournament_id = 0 OR tournament_id = :tournament_id)"
#define GAMES_BEFORE "id < :before"
#define GAMES_TAIL " AND " GAMES_BEFORE " ORDER BY id DESC LIMIT :limit"
/* A game a restart loads (store_games_unfinished and its count). */
#define GAMES_UNFINISHED "phase IN ('pending', 'scheduled', 'playing', 'counting')"
/* A player's games: the newest :limit as Black and the newest :limit as White, each walked
 * down its index (games_black, games_white) from :before, merged: a page reads at most twice
 * :limit rows (plus those the other filters skip), where one query with "black_id = ? OR
 * white_id = ?" sorts every game of the player (black_id <> white_id: no game twice). */
#define GAMES_OF_PLAYER(col) "SELECT * FROM (SELECT " GAME_COLS " FROM games WHERE " col \
	" = :player_id AND " GAMES_FILTER_PHASE " AND " GAMES_FILTER_TOURNAMENT GAMES_TAIL ")"

/* Rating order position: :at (ended_at), :game_id. Rows of rating_history at or after
 * it, and a player's last row before it. */
#define HIST_FROM "(at > :at OR (at = :at AND game_id >= :game_id))"
#define HIST_LAST_BEFORE(col) "(SELECT h." col " FROM rating_history h " \
	"WHERE h.player_id = players.id " \
	"AND (h.at < :at OR (h.at = :at AND h.game_id < :game_id)) " \
	"ORDER BY h.at DESC, h.game_id DESC LIMIT 1)"

/* Reasons of a game decided on the board (leaderboard's last_played; server/svc/ratings.c rates
 * the same set). */
#define BOARD_REASONS "('resignation', 'time', 'score', 'warnings', 'illegal', 'adjudicated')"

/* The leaderboard: the player's columns, then games, last_played; :limit the limit. Entrants
 * (player_profiles.entrant, migration 0006) are left out: they have no account. */
/* A player's newest game played on the board as `col`: one search of migration 0011's partial
 * index games_black_played / games_white_played, whose WHERE clause these terms repeat (an OR
 * of both colours was answered by a scan of every ended game per player). */
#define LAST_PLAYED_AS(col) "SELECT max(g.ended_at) FROM games g WHERE g." col " = players.id " \
	"AND g.phase = 'ended' AND g.reason IN " BOARD_REASONS
#define LEADERBOARD_SELECT "SELECT " PLAYER_COLS ", " \
	"(SELECT count(*) FROM rating_history h WHERE h.player_id = players.id) " \
	"AS rated_games, " \
	"nullif(max(coalesce((" LAST_PLAYED_AS("black_id") "), -1), " \
	"coalesce((" LAST_PLAYED_AS("white_id") "), -1)), -1) " \
	"AS last_played FROM players WHERE NOT EXISTS (SELECT 1 FROM player_profiles pp " \
	"WHERE pp.player_id = players.id AND pp.entrant = 1) ORDER BY "
#define LEADERBOARD_LIMIT " LIMIT :limit"

const char *const store_stmt_sql[ST_COUNT] = {
	[ST_BEGIN] = "BEGIN IMMEDIATE",
	[ST_COMMIT] = "COMMIT",
	[ST_ROLLBACK] = "ROLLBACK",
	[ST_PLAYER_CREATE] = "INSERT INTO players (name, pwhash, role) "
		"VALUES (:name, :pwhash, :role)",
	[ST_PLAYER_BY_NAME] = "SELECT " PLAYER_COLS " FROM players WHERE name = :name",
	[ST_PLAYER_BY_ID] = "SELECT " PLAYER_COLS " FROM players WHERE id = :id",
	[ST_PLAYER_SET_ROLE] = "UPDATE players SET role = :role WHERE name = :name",
	[ST_PLAYER_SET_RATING] =
		"UPDATE players SET rating = :rating, rd = :rd, volatility = :volatility "
		"WHERE id = :id",
	[ST_PLAYERS_LIST] = "SELECT " PLAYER_COLS " FROM players ORDER BY rating DESC, name",
	[ST_GAME_CREATE] = "INSERT INTO games (" GAME_COLS ") VALUES (NULL, "
		GAME_PARAMS ")",
	[ST_GAME_UPDATE] = "UPDATE games SET " GAME_SET " WHERE id = :id AND NOT ("
		GAME_OTHERS_SAME ")",
	[ST_GAME_UPDATE_STATE] = "UPDATE games SET " GAME_STATE_SET " WHERE id = :id",
	[ST_GAME_GET] = "SELECT " GAME_COLS " FROM games WHERE id = :id",
	[ST_GAMES_ANY] = "SELECT " GAME_COLS " FROM games WHERE " GAMES_FILTER_PHASE " AND "
		GAMES_FILTER_PLAYER " AND " GAMES_FILTER_TOURNAMENT GAMES_TAIL,
	[ST_GAMES_BY_PHASE] = "SELECT " GAME_COLS " FROM games WHERE phase = :phase AND "
		GAMES_FILTER_PLAYER " AND " GAMES_FILTER_TOURNAMENT GAMES_TAIL,
	[ST_GAMES_BY_PLAYER] = GAMES_OF_PLAYER("black_id") " UNION ALL "
		GAMES_OF_PLAYER("white_id") " ORDER BY id DESC LIMIT :limit",
	[ST_GAMES_BY_TOURNAMENT] = "SELECT " GAME_COLS " FROM games "
		"WHERE tournament_id = :tournament_id AND " GAMES_FILTER_PHASE " AND "
		GAMES_FILTER_PLAYER GAMES_TAIL,
	[ST_GAMES_UNFINISHED] = "SELECT " GAME_COLS " FROM games WHERE " GAMES_UNFINISHED
		" ORDER BY id",
	[ST_GAMES_UNFINISHED_COUNT] = "SELECT count(*) FROM games WHERE " GAMES_UNFINISHED,
	/* Moves go to the journal (migration 0005) and are folded into moves in batches. */
	[ST_MOVE_ADD] = "INSERT INTO move_journal (game_id, " MOVE_COLS ") VALUES (:game_id, "
		":number, :color, :vertex, :forfeit, :clocks, :at)",
	[ST_MOVE_FOLDED] = "SELECT count(*) FROM moves WHERE game_id = :game_id AND number = :number",
	[ST_MOVE_FOLDED_MAX] = "SELECT coalesce(max(number), 0) FROM moves WHERE game_id = :game_id",
	/* store_moves_get: the moves table's rows of a game from a number on, then the journal's
	 * one at a time by the seq its key holds in memory (the journal has no index by game). */
	[ST_MOVES_FROM] = "SELECT " MOVE_COLS " FROM moves WHERE game_id = :game_id AND "
		"number >= :number ORDER BY number",
	[ST_JOURNAL_ROW] = "SELECT " MOVE_COLS " FROM move_journal WHERE seq = :seq AND "
		"game_id = :game_id AND number = :number", /* a seq may be reused once deleted */
	[ST_JOURNAL_KEYS] = "SELECT game_id, number, seq FROM move_journal",
	/* A journal row that moves has already, the same move, is a copy a fold off the loop
	 * made before it stopped (store_ckpt_fold_slice); another move of that number collides. */
	[ST_JOURNAL_FOLD] = "INSERT INTO moves (game_id, " MOVE_COLS ") SELECT game_id, "
		MOVE_COLS " FROM move_journal j WHERE NOT EXISTS (SELECT 1 FROM moves m WHERE "
		"m.game_id = j.game_id AND m.number = j.number AND m.color = j.color AND "
		"m.vertex = j.vertex AND m.at = j.at) ORDER BY game_id, number",
	[ST_JOURNAL_CLEAR] = "DELETE FROM move_journal",
	[ST_JOURNAL_MAX] = "SELECT coalesce(max(seq), 0) FROM move_journal",
	[ST_WARNING_ADD] = "INSERT INTO warnings (game_id, color, reason, number, at, by_director) "
		"VALUES (:game_id, :color, :reason, :number, :at, :by_director)",
	[ST_WARNINGS_GET] = "SELECT " WARNING_COLS " FROM warnings WHERE game_id = :game_id "
		"ORDER BY id",
	[ST_SAVEPOINT] = "SAVEPOINT store_multi",
	[ST_RELEASE] = "RELEASE store_multi",
	[ST_ROLLBACK_TO] = "ROLLBACK TO store_multi",
	[ST_PLAYER_SET_RATED] = "UPDATE players SET rating = :rating, rd = :rd, "
		"volatility = :volatility, last_rated_at = :at WHERE id = :id",
	[ST_PLAYER_SET_START] = "UPDATE players SET rank = :rank, rating_start = :rating, "
		"rd_start = :rd, volatility_start = :volatility, rating = :rating, rd = :rd, "
		"volatility = :volatility WHERE id = :id AND "
		"NOT EXISTS (SELECT 1 FROM rating_history WHERE player_id = :id)",
	[ST_RATING_ADD] = "INSERT INTO rating_history (player_id, game_id, rating_before, "
		"rd_before, volatility_before, rating, rd, volatility, at) "
		"VALUES (:player_id, :game_id, :rating_before, :rd_before, :volatility_before, :rating, "
		":rd, :volatility, :at)",
	[ST_HISTORY_BY_PLAYER] = "SELECT " HIST_COLS " FROM rating_history WHERE player_id = :player_id "
		"ORDER BY at, game_id",
	[ST_HISTORY_BY_GAME] = "SELECT " HIST_COLS " FROM rating_history WHERE game_id = :game_id "
		"ORDER BY player_id",
	[ST_REWIND_PLAYERS] = "UPDATE players SET "
		"rating = coalesce(" HIST_LAST_BEFORE("rating") ", rating_start), "
		"rd = coalesce(" HIST_LAST_BEFORE("rd") ", rd_start), "
		"volatility = coalesce(" HIST_LAST_BEFORE("volatility") ", volatility_start), "
		"last_rated_at = " HIST_LAST_BEFORE("at") " "
		"WHERE id IN (SELECT player_id FROM rating_history WHERE " HIST_FROM ")",
	[ST_REWIND_DELETE] = "DELETE FROM rating_history WHERE " HIST_FROM,
	[ST_RATED_GAMES] = "SELECT " GAME_COLS " FROM games WHERE phase = 'ended' AND rated = 1 "
		"AND (ended_at > :at OR (ended_at = :at AND id >= :game_id)) ORDER BY ended_at, id",
	[ST_LEADERBOARD_RATING] = LEADERBOARD_SELECT "rating DESC, name" LEADERBOARD_LIMIT,
	[ST_LEADERBOARD_NAME] = LEADERBOARD_SELECT "name, id" LEADERBOARD_LIMIT,
	[ST_LEADERBOARD_GAMES] = LEADERBOARD_SELECT
		"rated_games DESC, rating DESC, name" LEADERBOARD_LIMIT,
	[ST_LEADERBOARD_LAST_PLAYED] = LEADERBOARD_SELECT
		"last_played IS NULL, last_played DESC, name" LEADERBOARD_LIMIT,
	/* a number never given before, a deleted event's included (migration 0010) */
	[ST_TOURNAMENT_CREATE] = "INSERT INTO tournaments (id, name, system, state) "
		"VALUES (max((SELECT coalesce(max(id), 0) FROM tournaments), "
		"(SELECT coalesce(max(id), 0) FROM tournaments_deleted)) + 1, :name, :system, :state)",
	[ST_TOURNAMENT_TOMBSTONE] = "INSERT INTO tournaments_deleted (id, name) SELECT id, name "
		"FROM tournaments WHERE id = :id AND NOT EXISTS "
		"(SELECT 1 FROM games WHERE tournament_id = :id)",
	[ST_TOURNAMENT_UPDATE] = "UPDATE tournaments SET state = :state WHERE id = :id",
	[ST_TOURNAMENT_GET] = "SELECT " TOURNAMENT_COLS " FROM tournaments WHERE id = :id",
	[ST_TOURNAMENT_BY_NAME] = "SELECT " TOURNAMENT_COLS " FROM tournaments WHERE name = :name",
	[ST_TOURNAMENTS_LIST] = "SELECT " TOURNAMENT_COLS " FROM tournaments ORDER BY id",
	[ST_TOURNAMENT_DELETE] = "DELETE FROM tournaments WHERE id = :id AND NOT EXISTS "
		"(SELECT 1 FROM games WHERE tournament_id = :id)",
	[ST_TOURNAMENT_HAS_GAMES] = "SELECT count(*) FROM games WHERE tournament_id = :id",
	/* an entrant's records (no account, one entry of one event), while it has no games */
	[ST_ENTRANT_PROFILE_DELETE] = "DELETE FROM player_profiles WHERE player_id = :player_id "
		"AND entrant = 1 AND NOT EXISTS (SELECT 1 FROM games WHERE black_id = :player_id "
		"OR white_id = :player_id)",
	[ST_ENTRANT_DELETE] = "DELETE FROM players WHERE id = :player_id AND NOT EXISTS "
		"(SELECT 1 FROM player_profiles WHERE player_id = :player_id) AND NOT EXISTS "
		"(SELECT 1 FROM rating_history WHERE player_id = :player_id)",
	[ST_PROFILE_GET] = "SELECT " PROFILE_COLS " FROM player_profiles WHERE player_id = :player_id",
	[ST_PROFILE_SET] = "INSERT INTO player_profiles (player_id, " PROFILE_COLS ") VALUES "
		"(:player_id, :full_name, :country, :club, :egd_pin, :entrant) "
		"ON CONFLICT (player_id) DO UPDATE SET full_name = excluded.full_name, "
		"country = excluded.country, club = excluded.club, egd_pin = excluded.egd_pin, "
		"entrant = excluded.entrant",
	[ST_ALIVE_GET] = "SELECT at FROM server_alive WHERE id = 1",
	[ST_ALIVE_SET] = "INSERT INTO server_alive (id, at) VALUES (1, :at) "
		"ON CONFLICT (id) DO UPDATE SET at = excluded.at",
};

const char *const store_param_names[P_COUNT] = {
	[P_ID] = ":id", [P_NAME] = ":name", [P_PWHASH] = ":pwhash", [P_ROLE] = ":role",
	[P_RATING] = ":rating", [P_RD] = ":rd", [P_VOLATILITY] = ":volatility",
	[P_RANK] = ":rank", [P_BLACK_ID] = ":black_id", [P_WHITE_ID] = ":white_id",
	[P_SIZE] = ":size", [P_KOMI] = ":komi", [P_HANDICAP] = ":handicap", [P_RATED] = ":rated",
	[P_TIME_CONTROL] = ":time_control", [P_RULES] = ":rules", [P_PHASE] = ":phase",
	[P_RESULT] = ":result", [P_REASON] = ":reason", [P_CHALLENGER_ID] = ":challenger_id",
	[P_COLOR_CHOICE] = ":color_choice", [P_TOURNAMENT_ID] = ":tournament_id",
	[P_ROUND] = ":round", [P_START_AT] = ":start_at", [P_CREATED_AT] = ":created_at",
	[P_ENDED_AT] = ":ended_at", [P_CLOCKS] = ":clocks", [P_WARNINGS_B] = ":warnings_b",
	[P_WARNINGS_W] = ":warnings_w", [P_EXTRA] = ":extra", [P_PLAYER_ID] = ":player_id",
	[P_LIMIT] = ":limit", [P_GAME_ID] = ":game_id", [P_NUMBER] = ":number",
	[P_COLOR] = ":color", [P_VERTEX] = ":vertex", [P_FORFEIT] = ":forfeit", [P_AT] = ":at",
	[P_RATING_BEFORE] = ":rating_before", [P_RD_BEFORE] = ":rd_before",
	[P_VOLATILITY_BEFORE] = ":volatility_before", [P_SYSTEM] = ":system",
	[P_STATE] = ":state", [P_BEFORE] = ":before", [P_FULL_NAME] = ":full_name",
	[P_COUNTRY] = ":country", [P_CLUB] = ":club", [P_EGD_PIN] = ":egd_pin",
	[P_ENTRANT] = ":entrant", [P_SEQ] = ":seq",
	[P_BY_DIRECTOR] = ":by_director",
};
