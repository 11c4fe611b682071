/* tests/support/hostworld: the hostile tests' daemon and bystander game (hostworld.h says what each
 * helper does). */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hostworld.h"

/* ---- the world: a daemon and a bystander game ---- */

struct hd hw_d;
struct hc *hw_b1, *hw_b2; /* the bystanders: hw_b1 Black, hw_b2 White */
long long hw_game;
static int next_move;

void hw_world_start(const char *const *extra)
{
	ck_assert_msg(hd_start(&hw_d, extra) == 0, "daemon did not start");
	hw_b1 = hc_login_new(hw_d.port, "by1");
	hw_b2 = hc_login_new(hw_d.port, "by2");
	ck_assert(hw_b1 && hw_b2);
	json_t *r = hc_req(hw_b1, "{ss ss si sb ss}", "cmd", "challenge", "opponent", "by2", "size", 19,
			   "rated", 0, "color", "black");
	OK(r);
	hw_game = hj_int(r, "game.id");
	if (hw_game <= 0)
		hw_game = hj_int(r, "game");
	json_decref(r);
	ck_assert_msg(hw_game > 0, "no game id");
	r = hc_req(hw_b2, "{ss sI}", "cmd", "accept", "game", (json_int_t)hw_game);
	OK(r);
	json_decref(r);
	hc_clear(hw_b1);
	hc_clear(hw_b2);
	next_move = 0;
}

/* The bystanders play one more move (never adjacent stones: no capture, always legal). */
void hw_world_start_with(const char *opt, int value)
{
	char v[24];
	snprintf(v, sizeof v, "%d", value);
	const char *const extra[] = {opt, v, NULL};
	hw_world_start(extra);
}

void hw_bystander_step(void)
{
	ck_assert_msg(next_move < 100, "bystander ran out of moves");
	int k = next_move++;
	static const char cols[] = "ABCDEFGHJKLMNOPQRST";
	char v[16];
	snprintf(v, sizeof v, "%c%d", cols[2 * (k % 10)], 2 * (k / 10) + 1);
	struct hc *mover = k % 2 ? hw_b2 : hw_b1, *other = k % 2 ? hw_b1 : hw_b2;
	json_t *r = hc_req(mover, "{ss sI ss}", "cmd", "play", "game", (json_int_t)hw_game, "vertex", v);
	ck_assert_msg(r && hj_ok(r), "bystander move %d (%s): %s", k + 1, v, hj_text(r));
	json_decref(r);
	json_t *e = hc_event(other, "game.move", hw_game, T);
	ck_assert_msg(e != NULL, "bystander opponent got no game.move for move %d", k + 1);
	json_decref(e);
	hc_clear(mover);
	hc_clear(other);
}

void hw_world_end(void)
{
	hw_bystander_step();
	json_t *r = hc_req(hw_b1, "{ss sI}", "cmd", "game", "game", (json_int_t)hw_game);
	OK(r);
	json_t *moves = hj_get(r, "game.moves");
	long long nmoves = json_is_array(moves) ? (long long)json_array_size(moves) : hj_int(r, "game.moves");
	ck_assert_msg(nmoves == next_move, "bystander game has %lld moves, %d were played", nmoves,
		      next_move);
	json_decref(r);
	const char *rep = hd_sanitizer_report(&hw_d);
	ck_assert_msg(rep == NULL, "sanitizer report in the daemon's log: %s", rep);
	hc_close(hw_b1);
	hc_close(hw_b2);
	ck_assert_int_eq(hd_stop(&hw_d), 0);
	hd_cleanup(&hw_d);
}

/* A fresh raw connection that answers ping. */
struct hc *hw_raw_client(void)
{
	struct hc *c = hc_open(hw_d.port);
	ck_assert(c != NULL);
	return c;
}

void hw_expect_ping(struct hc *c)
{
	json_t *r = hc_req(c, "{ss}", "cmd", "ping");
	ck_assert_msg(r && hj_ok(r), "connection no longer usable: %s", hj_text(r));
	json_decref(r);
}

/* Send one raw line (len bytes + "\n") and return the reply (must come within T). */
json_t *hw_raw_line(struct hc *c, const char *s, size_t len)
{
	ck_assert_int_eq(hc_send(c, s, len), 0);
	ck_assert_int_eq(hc_send(c, "\n", 1), 0);
	json_t *r = hc_reply(c, T);
	ck_assert_msg(r != NULL, "no reply to a hostile line of %zu bytes", len);
	return r;
}

bool hw_daemon_has_option(const char *opt)
{
	char cmd[HARNESS_PATH_MAX + 32];
	snprintf(cmd, sizeof cmd, "%s --help 2>&1", hd_binary());
	FILE *f = popen(cmd, "r");
	if (!f)
		return false;
	char line[512];
	bool found = false;
	while (fgets(line, sizeof line, f))
		found |= strstr(line, opt) != NULL;
	pclose(f);
	return found;
}
