/* game: one live game inside the game layer (struct game) and the functions the game layer's
 * files share with the layers above it (cmd/ handlers, svc/director.c). games.h is the part the
 * rest of the server uses.
 *
 * Files, each using only those before it: game.c (a game's state: freeing, colours, the
 * clocks' arithmetic and JSON, pending challenges), game_codec.c (the row's clocks and extra
 * text, written and read back in one place, and the replay of stored moves after a restart),
 * game_view.c (JSON views), game_audience.c (who receives which event, observers),
 * game_live.c (live games: loading, the timer, flag fall, lateness, scheduled starts, lapsing
 * challenges, recording moves, ending), game_play.c (a challenge made and accepted, a move
 * charged and played, a pause). Time comes from fairclock.h, never from the system. */
#ifndef TENGEN_GAME_H
#define TENGEN_GAME_H

#include "clock.h"
#include "games.h"
#include "jsonout.h"
#include "panic.h"
#include "referee.h"
#include "ruleset.h"

/* What a game row's extra text says, but the move it is current as of (game_save_as): equal
 * keys, equal texts. */
struct extra_key {
	bool valid;              /* the row was written from this key */
	bool complex;            /* claims or a score: never compared */
	int passes;
	enum color first_passer;
	enum color to_move;      /* EMPTY: not written */
	bool paused;
	int64_t turn_used;
	bool present[2];
	int lateness_limit_s;
	double late_credit_s;
	int pred_gen;            /* the prediction state's change count (game_predict.c) */
};

struct game {
	int64_t id;
	int64_t indexed[2];      /* the players it is listed under in srv->player_games (0: not
	                            listed); colours may swap, the pair never changes */
	struct store_game row;   /* the persisted row; its JSON strings are owned */
	struct referee ref;      /* valid once started (playing, counting, ended) */
	bool started;
	const struct ruleset *rs; /* what differs between rulesets: first move, opening, komi,
	                             result texts (common/ruleset.h); every game has
	                             ruleset_default() until games name one */
	struct rules rules;
	struct proto_time time;
	char black[PROTO_NAME_MAX + 1], white[PROTO_NAME_MAX + 1];
	struct conn **obs;       /* observers */
	size_t nobs, capobs;
	/* Clocks (docs/rules.md §2). clk[] are the clocks as of the last committed move; the clock
	 * of the player to move has run turn_used ms before turn_start, and since then. */
	struct server *srv;
	struct clock_control cc;
	struct clock_state clk[3];
	uint64_t turn_start;     /* ms (fairclock_fair_ms) the running turn was last (re)started */
	int64_t turn_used;       /* ms of the running turn before turn_start (pauses) */
	uint64_t hold_until;     /* after a restart: until then (fairclock_fair_ms) the clock of a
	                            player not yet back waits for them (game_turn_hold; 0: none) */
	bool back[3];            /* ... the player has logged in since the restart */
	bool paused;             /* Art. 14: a director's pause */
	/* A game lost by an illegal move (rules `illegal: lose`, or the seed's repetition): who
	 * played it, where and why (not recorded as a move; the SGF says so) */
	enum color illegal_color; /* EMPTY: none */
	int illegal_pt;
	enum offence illegal_offence;
	uint64_t count_since;    /* counting: when its time (set.counting_timeout_s) started
	                            (fairclock_fair_ms: counting opened, the game came back after a
	                            restart, plus the restart grace, or a pause ended) */
	/* The last turn the timer forfeited (byo-yomi, last_period "pass", Art. 22.5): its move
	 * number (0: none) and when (fairclock_fair_ms). A move of that player arriving within
	 * GAME_FLAG_RACE_MS, before the opponent moved, was sent before they could know: too
	 * late, not out of turn. */
	int flag_pass_number;
	uint64_t flag_pass_at;
	bool present[3];         /* scheduled games: the player has joined (Art. 22) */
	int lateness_limit_s;    /* Art. 22.1 */
	double late_credit_s;    /* s after start_at that are no lateness: the server was down
	                            (Art. 14; games_load). Lateness is the wall time since
	                            start_at + late_credit_s (game_late_since) */
	int64_t expires_at;      /* a pending challenge lapses then (Unix seconds) */
	enum color replay_to_move; /* the turn that replaying the stored moves gives */
	bool free_handicap;      /* handicap_placement "free": Black places the stones (the row's
				  * extra says so; ref.placing until they are placed) */
	struct extra_key saved;  /* what the row's extra was written from (game_save_as) */
	uv_timer_t timer;        /* due at the next flag fall, start or lateness limit */
	bool has_timer;
	bool due;                /* the timer is armed ... */
	uint64_t due_at;         /* ... for this fairclock_fair_ms time (games_fire_due) */
	/* The prediction ruleset (seed 000; game_predict.c). */
	enum color first_col;    /* the row column (BLACK or WHITE) holding the first player */
	int64_t pred_left[2];    /* per enum predict_role: allowance ms left as of pred_since */
	uint64_t pred_since[2];  /* fairclock_fair_ms it last started running; 0: not running */
	bool pred_started[2];    /* the allowance started (3rd stone: first; 4th: second) */
	int *own_moves;          /* numbers of the moves that chose `remove: "own"` */
	size_t nown, capown;
	enum capture_choice choice; /* the `remove` of the move being played */
	int pred_gen;            /* bumped at every change of the above: the row is rewritten */
};

/* ---- game.c ---- */

/* Free a game at once (no timer); game_free: one with a timer goes once its handle closed. */
void game_release(struct game *g);
/* A new zeroed game under the default ruleset (games name no other yet: ruleset_default()).
 * NULL when out of memory. Free with game_free. */
struct game *game_alloc(void);
void game_free(struct game *g);
/* A store write failed inside the iteration's transaction: memory is ahead of the database and
 * nothing has been reported yet. Log it (CORE_PANIC: the caller's file:line, "what=<what>", the
 * store's last error) and exit(1); a restart rebuilds every game from what committed. A macro so
 * the log names the call site. srv: struct server *; what: const char *. Never returns. */
#define game_persist_failed(srv, what) CORE_PANIC((srv)->store, "what=%s", (what))
/* BLACK or WHITE if player_id plays in g, else EMPTY. */
enum color game_color_of(const struct game *g, int64_t player_id);
/* "B" or "W". */
const char *game_color_name(enum color c);
/* An offence as players say it (messages and SGF comments; the wire `reason` keeps the code). */
const char *game_offence_text(enum offence o);
/* List g under its two players in srv->player_games (once; game_go_live). Returns 0, or -1
 * when memory runs out (g is then not listed). */
int game_index_add(struct server *srv, struct game *g);
/* Take g off its players' lists (game_retire). */
void game_index_del(struct server *srv, struct game *g);
/* The live games of player `id` (pending, playing, counting, ended but not yet retired),
 * oldest first: *n of them, valid until the next change of the live games. */
struct game *const *game_index_of(struct server *srv, int64_t id, size_t *n);
/* Free the index (games_free), and the challenge counts. */
void game_index_free(struct server *srv);
/* May player `id` make one more challenge at `now` (Unix seconds)? Counts it and returns 0,
 * or returns the seconds to wait (> 0) when it made GAMES_CHALLENGES_PER_WINDOW in the last
 * GAMES_CHALLENGE_WINDOW_S seconds (a sliding window), or -1 when memory runs out (not
 * counted). */
int game_challenge_take(struct server *srv, int64_t id, double now);
/* Pending challenges player `id` made (`sent`) or received. O(the player's live games). */
size_t game_pending_count(struct server *srv, int64_t id, bool sent);
/* The pending challenges of player `id`, sent and received, oldest first: a malloc'd array
 * (NULL when there are none or memory runs out) of *n games. */
struct game **game_pending_of(struct server *srv, int64_t id, size_t *n);
/* Does the player to move's clock run (playing, not paused, a time control)? */
bool game_clock_running(const struct game *g);
/* How long after its clock's own deadline the flag of clock column col falls, ms: the lag
 * credit a move (or placement) of that player would get now (server_player_lag_ms: the most
 * of their connections' round-trip times, at most --lag-allowance-ms; 0 when not connected).
 * A move is charged its time less that credit (game_move), so one arriving up to the credit
 * past the deadline is in time; the timer waits as long (docs/rules.md, Art. 12). */
int64_t game_flag_grace_ms(const struct game *g, enum color col);
/* Has the flag of clock column col (the player whose turn runs) fallen now, the lag credit
 * (game_flag_grace_ms) allowed past the bare deadline? *at: the clock at the bare elapsed
 * time (at the flag: main_ms 0, ...), as clock_peek gives it. */
bool game_flag_fallen(const struct game *g, enum color col, struct clock_state *at);
/* ms the player to move had used this turn at `at` (fairclock_fair_ms time); a time before
 * the turn started counts as its start. */
int64_t game_turn_elapsed_at(const struct game *g, uint64_t at);
/* ms the player to move has used this turn. */
int64_t game_turn_elapsed(const struct game *g);
/* ms until g's counting phase lapses (referee_count_lapse: set.counting_timeout_s from
 * count_since), 0 if due; -1 when none is due: not counting, paused, or no limit set. */
int64_t game_count_left_ms(const struct game *g);
/* The player to move's clock starts (again) now. */
void game_turn_restart(struct game *g);
/* After a restart the players may still be reconnecting: for the next `ms`, the clock of a
 * player to move who has not logged in again waits for them (the running turn now, and any
 * turn that comes to them in that time), what the turn had used kept (Chinese Rules 2002,
 * Art. 14: no clock runs while the server is down; docs/rules.md). game_turn_release ends
 * the wait for one player. */
void game_turn_hold(struct game *g, int64_t ms);
/* Player `c` is back (logged in): their clock no longer waits; if it was held, it runs from
 * now. Returns true if their running clock was held (it runs now), false otherwise. */
bool game_turn_release(struct game *g, enum color c);
/* ms until a held clock runs without its player coming back (0: not held). */
int64_t game_turn_held_ms(const struct game *g);
/* The clock rules (common/clock.h) of a wire time control. */
void game_control_from_time(const struct proto_time *t, struct clock_control *cc);
/* {"B": clock, "W": clock}: as committed, or (live) with the running clock as of now. JSON
 * null for a game without clocks. New reference. */
json_t *game_clocks_json(const struct game *g, bool live);
/* Read a clock object ({main_ms?, periods?, period_ms?, stones?}) into *s. */
void game_clock_state_from(const json_t *o, struct clock_state *s);
/* The clocks a move row keeps (store_move.clocks: both clocks after the move, as committed):
 * a JSON array of Black's fields then White's, each colour's those of clock_fields (main_ms,
 * periods, period_ms, stones, in that order), e.g. [3595615,5,30000,3600000,5,30000] for
 * byo-yomi: a third of the bytes of the {"B": clock, "W": clock} object, which made most of a
 * move row (docs/benchmarks.md, issue 22's sixth round). "" for a game without clocks. */
#define GAME_MOVE_CLOCKS_MAX 192
/* ms after the timer forfeited a player's turn during which that player's move (or pass) is
 * answered as too late (conflict, no penalty) rather than out of turn (a warning): it was
 * sent before the forfeit's event could reach them (a round trip and the client's handling). */
#define GAME_FLAG_RACE_MS 2000
void game_move_clocks_text(const struct game *g, char out[GAME_MOVE_CLOCKS_MAX]);
/* Read clocks text into *b and *w for the clock rules cc: a move row's array (above), or the
 * {"B": clock, "W": clock} object (a game row's, and move rows written before the array).
 * Returns 0, or -1 if the text is neither (an array of another length, a value not an
 * integer): *b and *w are then unchanged. */
int game_clocks_parse(const struct clock_control *cc, const char *text, struct clock_state *b,
		      struct clock_state *w);
json_t *game_score_json(const struct score *s);
/* Player c's claimed dead stones, as vertices. */
json_t *game_claims_json(const struct game *g, enum color c);
/* The points p of the board with set[p], as vertices (a JSON array). */
json_t *game_points_json(const struct game *g, const bool *set);
/* "fixed" or "free" (docs/protocol.md `handicap_placement`). */
const char *game_handicap_placement(const struct game *g);
/* A pending challenge whose colours nigiri draws at accept (Chinese Rules 2002, Art. 10):
 * `black`/`white` then name the challenger and the challenged, not colours. False under the
 * prediction ruleset (its own `first`). */
bool game_nigiri_pending(const struct game *g);
/* A free game not (yet) accepted: pending, or called off before its accept (declined,
 * withdrawn, lapsed). Its row lists the challenger as Black (docs/protocol.md, game object),
 * whatever colour it chose. */
bool game_unaccepted(const struct game *g);
/* A free handicap's stones as placed (vertices, in the order sent; [] while due); NULL for a
 * game with fixed placement. */
json_t *game_handicap_stones_json(const struct game *g);

/* ---- game_codec.c ---- */

/* g->black and g->white from the store. Returns 0, or -1 (no such player). */
int game_names_of(struct server *srv, struct game *g);
/* Set up g's referee (and both clocks) from the row. Returns 0, or -1 (referee_init). */
int game_start_referee(struct game *g);
/* The row's extra text (see game_codec.c), current as of move `at_move`; `to_move` only where
 * replaying would not give the turn. malloc'd; NULL when memory runs out. */
char *game_extra_text(const struct game *g, int at_move, const char *to_move);
/* Copy the referee's state into the row and write it (see game_codec.c); `move`: a move row
 * with the clocks follows. A store failure exits (game_persist_failed). */
void game_save_as(struct server *srv, struct game *g, bool move);
void game_save(struct server *srv, struct game *g);
/* A struct game for row `row` (copied; its strings are taken over), with the referee rebuilt
 * from `moves` (or from the store when moves is NULL) and the row's extra text read back.
 * NULL on a broken record (logged). */
struct game *game_build(struct server *srv, struct store_game *row,
			const struct store_move *moves, size_t nmoves);

/* ---- game_view.c ---- */

/* The settings object of a challenge (docs/protocol.md). */
json_t *game_settings_json(const struct game *g);
/* How the game object and game.start name player `id` of g (its players row name `name`): an
 * entrant without an account (tournament.register `entrant`, only in a tournament) by the
 * name entered, as the tournament's field names it, not by its internal row name (issue 16). */
json_t *game_player_name_json(struct server *srv, const struct game *g, int64_t id,
			      const char *name);
/* Did a director give warning w (Art. 23), not the referee? Stored since migration 0009; an
 * older row is told from its reason (an offence's name is the referee's). */
bool game_warning_by_director(const struct store_warning *w);
/* The `game` query's object (docs/protocol.md); srv's store names an entrant as entered. */
json_t *game_json(struct server *srv, const struct game *g);
/* Set o's `effective_komi` from its `komi` as shown (null when that is null: a prediction game
 * before its bar) and `handicap` stones: rs->effective_komi, the komi the count, KM and the
 * engines use (docs/rules.md, Art. 11: komi + n for n >= 2 stones). */
void game_json_effective_komi(json_t *o, const struct ruleset *rs, int handicap);

/* ---- game_audience.c ---- */

/* One line (len bytes with its "\n") / one message to both players and every observer. */
void game_send_line(struct server *srv, struct game *g, const char *line, size_t len);
void game_send(struct server *srv, struct game *g, const json_t *msg);
/* game.end to both players and observers (with the ratings of a rated game: the `ended`
 * hook). */
void game_send_end(struct server *srv, struct game *g);
/* The `challenge` event of pending g, from player `from` to player to_id. */
void game_send_challenge(struct server *srv, const struct game *g, const char *from, int64_t to_id);
/* game.start to each player (with the `player_brief` hook's players). */
void game_send_start(struct server *srv, struct game *g);
/* A game that ended leaves memory (g is gone); queries read it back from the store. */
void game_retire(struct server *srv, struct game *g);
/* game.move for a recorded move (game_record_move first: its clocks are the row's), `forfeit`
 * overriding the forfeit reason, to both players and every observer. */
void game_send_move(struct server *srv, struct game *g, enum color me,
		    const struct referee_move *m, const char *forfeit);
/* The move reply line {"id":…,"ok":true,"move":{…}} and "\n"; NULL when memory runs out. */
char *game_move_reply_line(const struct game *g, enum color me, const struct referee_move *m,
			   const json_t *id, size_t *len);
/* c observes g (again: nothing changes). Returns 0; -1 when memory runs out, or -2 when g has
 * `max` observers already, not counting connections of its own players, and c is not one of
 * them (max 0: no limit; --max-observers); nothing changed for g either way. */
int game_observer_add(struct game *g, struct conn *c, size_t max);
/* c no longer observes game `id`. */
void game_unobserve(struct server *srv, struct conn *c, int64_t id);

/* ---- game_live.c ---- */

/* Make g live: in srv->games, its timer, the running clock starting now (after a restart too:
 * no clock runs while the server is down, Art. 14). */
void game_go_live(struct server *srv, struct game *g);
/* The live game `id` (pending, scheduled, playing or counting), or NULL: an ended game is not
 * kept in memory. The one way outside game/ to reach a live game. */
struct game *game_live(struct server *srv, int64_t id);
/* Game `id`: the live one, or one read back from the store (*owned: the caller frees it with
 * game_free). NULL if there is none or its record is broken (logged). */
struct game *game_get(struct server *srv, int64_t id, bool *owned);
/* For a pairing without a result (tournament.pairings): set o's `phase` to live game `id`'s
 * ("scheduled", "playing" or "counting", as the game object's) and `paused: true` while a
 * director holds it; o is left as it is when game `id` is not live. */
void game_pairing_phase(struct server *srv, int64_t id, json_t *o);
/* Write a referee move of `me` (m) to the store: the move row with the clocks after it, a
 * warning, the game row. `forfeit` overrides the forfeit reason (e.g. "time"). */
void game_record_move(struct server *srv, struct game *g, enum color me,
		      const struct referee_move *m, const char *forfeit);
/* End the game now with `result` (time, lateness, double forfeit, adjudication): stored,
 * game.end sent, the game retired (g is gone). */
void game_end(struct server *srv, struct game *g, const char *result, enum end_reason why);
/* (Re)arm g's timer for the next thing due: a challenge lapsing, a scheduled start, the
 * lateness limit (Art. 22.1), the flag of the player to move (Art. 12). */
void game_arm(struct game *g);
/* The flag of the player to move fell (Art. 12): lost on time, or with `last_period: pass`
 * under byo-yomi the turn is forfeited as a pass (Art. 22.5). Returns true if the game ended
 * (g is gone). */
bool game_flag_fall(struct server *srv, struct game *g);
/* Start scheduled game g now (Art. 22: Black's clock starts): phase playing, stored in the
 * iteration's transaction, game.begin to its players and audience. The timer at a scheduled
 * start_at, or games_join when both players of a game without a start time (start_at 0: a
 * board event) have joined. The caller re-arms (game_arm). */
void game_begin(struct server *srv, struct game *g);
/* A player reports present at a scheduled game (or moves in it): Art. 22.2, twice the
 * lateness from main time. Returns the lateness in ms (0 if present already). */
int64_t game_mark_present(struct game *g, enum color c);
/* When lateness starts for g (Unix seconds): its start_at, later by the time the server was
 * down since (late_credit_s; Art. 14, 22). */
double game_late_since(const struct game *g);
/* Send the events of a recorded referee move; retires the game if it ended. Returns true if it
 * did (g is gone). */
bool game_announce_move(struct server *srv, struct game *g, enum color me,
			const struct referee_move *m, const char *forfeit);

/* ---- game_predict_state.c, game_predict.c (and game_live.c): the prediction ruleset ---- */

/* The allowance of `role` (Art. 5.3.3): ms left at `now` (fairclock ms; INT64_MAX when
 * unlimited, not running or sealed); start it (the 3rd / 4th stone); stop it (kept). */
int64_t game_predict_allowance_left(const struct game *g, enum predict_role role, uint64_t now);
void game_predict_allowance_start(struct game *g, enum predict_role role, uint64_t now);
void game_predict_allowance_stop(struct game *g, enum predict_role role, uint64_t now);
/* Exchange the two columns (ids, names, clocks, presence); first_col follows. */
void game_predict_swap_columns(struct game *g);

/* Does g play under the prediction ruleset? */
bool game_is_prediction(const struct game *g);
/* In its opening or prediction stage (colours not yet decided)? */
bool game_predict_before_play(const struct game *g);
/* The row column of a role, the role of a column (see game_predict.c). */
enum color game_role_col(const struct game *g, enum predict_role role);
enum predict_role game_col_role(const struct game *g, enum color col);
/* The role whose opening placement is due (Art. 5.2: first, second, second, first). */
enum predict_role game_predict_placer(const struct game *g);
/* The row's phase text: "playing" for the opening and the prediction stage. */
const char *game_row_phase(const struct game *g);
/* Accept a prediction-rules challenge: first player by the challenger's `first` or by lot
 * (Art. 5.1); phase opening; the first player's clock runs. As game_accept. */
void game_predict_accept(struct server *srv, struct game *g, int64_t by_id, const char *by_name);
/* An opening placement by `role` (whose turn the caller checked) at point pt, charged to its
 * clock like game_move; starts the allowances at stones 3 and 4. */
enum game_move_rc game_place(struct server *srv, struct game *g, enum predict_role role, int pt,
			     uint64_t read_ms, int64_t lag_ms, struct referee_move *m);
/* `role` seals `white` (points, White's terms) in the open transaction; the second seal shows
 * both (*revealed): columns become colours, komi minus the bar, play starts with White's
 * clock. Returns 0, or referee_predict's -1 / -2 (nothing changed). */
int game_predict_seal(struct server *srv, struct game *g, enum predict_role role, double white,
		      bool *revealed);
/* Before the colours are decided `loser` loses (time): the winner is recorded as White. g is
 * gone. */
void game_predict_lose(struct server *srv, struct game *g, enum predict_role loser,
		       enum ruleset_win how);
/* ms until the opening placer's flag or an allowance runs out; -1: nothing due. */
int64_t game_predict_due(const struct game *g);
/* The timer fired: a flag or an allowance ran out? Returns true if the game ended (g gone). */
bool game_predict_timer(struct server *srv, struct game *g);
/* A move of g->choice was played: remember an own removal for the replay. */
void game_predict_note_move(struct game *g, const struct referee_move *m);
/* The row extra's "prediction" object (NULL for other rulesets); new reference. */
json_t *game_predict_extra_json(const struct game *g);
/* Before the replay: first column, sealed predictions, own removals, allowances. */
void game_predict_preload(struct game *g);
/* Replay stored move `number` of colour c at pt through the referee. Returns 0 or -1. */
int game_predict_replay(struct game *g, enum color c, int pt, int number);
/* After restore_state: the stage the row's phase column cannot say. */
void game_predict_restore(struct game *g);
/* The game goes live at `now` (fairclock ms): running allowances resume. */
void game_predict_go_live(struct game *g, uint64_t now);
/* Views: predictions / bar objects (JSON null until shown), a count's score {black, white,
 * bar}, the name of a role, and the fields the `game` object adds or overrides. */
json_t *game_predict_predictions_json(const struct game *g);
json_t *game_predict_bar_json(const struct game *g);
json_t *game_predict_score_json(const struct score *s);
const char *game_predict_name(const struct game *g, enum predict_role role);
void game_predict_view(const struct game *g, json_t *o);
/* A record's additions for a prediction-rules game (nothing for others): RU with the decisive
 * suffix, and the root comment (first and second player, the predictions once shown, the
 * colour choice and the bar; never a sealed prediction). Returns 0, or -1 (no memory). */
int game_predict_sgf_info(const struct game *g, struct sgf_game *s);

/* ---- game_play.c ---- */

/* A challenge, as the `challenge` command checked it (docs/protocol.md). */
struct game_challenge_spec {
	int64_t challenger_id, opponent_id;
	const char *challenger, *opponent;   /* names */
	int size;
	double komi;                         /* points */
	int handicap;                        /* stones: 0 or 2-9 */
	bool free_handicap;                  /* handicap_placement "free" (handicap 2-9) */
	bool rated;
	const char *color_choice;            /* "nigiri", "black", "white" */
	struct proto_time time;              /* games_time_check accepts it */
	const struct ruleset *rs; /* what differs between rulesets: first move, opening, komi,
	                             result texts (common/ruleset.h); every game has
	                             ruleset_default() until games name one */
	struct rules rules;
	int64_t expires_s;                   /* it lapses this long after it is made */
};
/* Create, store and make live a pending challenge (the challenger listed as Black until
 * accept). Returns the game, or NULL with *why ("out of memory", "could not set up the
 * board"; nothing stored). A store failure exits (game_persist_failed). */
struct game *game_challenge_new(struct server *srv, const struct game_challenge_spec *s,
				const char **why);
/* Player by_id (by_name) accepts pending challenge g: colours by the challenger's choice or
 * nigiri (Art. 10), play starts, Black's clock runs. The caller replies, then game_send_start. */
void game_accept(struct server *srv, struct game *g, int64_t by_id, const char *by_name);
/* Would a move of `me` now be charged to its clock (me to move, the clock running)? */
bool game_move_charges(const struct game *g, enum color me);
enum game_move_rc {
	GAME_MOVE_PLAYED,     /* *m is the referee's verdict, recorded (it may be an offence) */
	GAME_MOVE_FLAG,       /* the flag fell first: the turn was forfeited (Art. 22.5) */
	GAME_MOVE_FLAG_ENDED, /* the flag fell first: the game is lost on time (g is gone) */
};
/* A move of `me` at point pt (BOARD_PASS for a pass) in a playing, unpaused game, in the
 * iteration's open transaction: the mover is marked present (Art. 22.2); the mover's clock is
 * charged up to read_ms (fairclock_fair_ms time the request was read; 0 or later than now:
 * now) less lag_ms; then the referee judges the move and it is recorded. The caller replies,
 * then game_announce_move. */
enum game_move_rc game_move(struct server *srv, struct game *g, enum color me, int pt,
			    uint64_t read_ms, int64_t lag_ms, struct referee_move *m);
/* Black (`me` must be BLACK) places the free handicap stones pts[0..n-1] in a playing,
 * unpaused game (Chinese Rules 2002, Art. 2; GTP 2 §6.3.3): the placement is Black's turn and
 * charged to Black's clock like a move (less lag_ms; a flag that fell first: GAME_MOVE_FLAG*,
 * as game_move, nothing placed). *rc is referee_place_free's verdict, *bad its index; only
 * REFEREE_PLACE_OK changes the game: the stones stored in the row (its extra), White's clock
 * runs. The caller replies, then game_announce_handicap. */
enum game_move_rc game_place_handicap(struct server *srv, struct game *g, enum color me,
				      const int *pts, int n, uint64_t read_ms, int64_t lag_ms,
				      enum referee_place_rc *rc, int *bad);
/* game.handicap {game, stones, to_move, clocks} to the players and observers; rearms the timer. */
void game_announce_handicap(struct server *srv, struct game *g);
/* A director (`by`) pauses or resumes a live game (Art. 14: no clock runs while paused); the
 * caller replies, then game_announce_pause (the event and the timer). */
void game_pause(struct server *srv, struct game *g, bool pause, const char *by);
void game_announce_pause(struct server *srv, struct game *g, bool pause, const char *by);

#endif
