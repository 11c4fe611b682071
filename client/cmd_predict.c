/* cmd_predict: `tengen predict GAME W+7`, a person's sealed prediction in a game of the
 * prediction ruleset (seed 000, Art. 5.3; docs/protocol.md "Prediction ruleset"). The opening
 * placements are ordinary moves: `tengen call play game=GAME vertex=D4`. See commands.h. */
#include "config.h"

#include <stdio.h>
#include <jansson.h>

#include "predict.h"
#include "cli.h"
#include "cli_run.h"
#include "commands.h"

static const char predict_usage[] =
	"usage: tengen [GLOBAL OPTIONS] predict GAME COLOR+MARGIN [--json]\n"
	"Seal your prediction in a prediction-rules game: which colour's area will be ahead at\n"
	"the end and by how many points (a multiple of 0.5): W+7, B+2.5, W+0.\n"
	"Nobody sees it until both players have sealed theirs.\n";

static void predict_print(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	(void)reply;
	printf("Prediction sealed in game %lld.\n",
	       (long long)json_integer_value(json_object_get(req, "game")));
}

int cmd_predict(int argc, char **argv)
{
	struct cli_opts o = {0};
	const char *pos[2];
	int npos;
	int r = cli_parse_args(argc, argv, &o, predict_usage, NULL, 0, NULL, pos, 2, &npos);
	if (r != 0)
		return r > 0 ? CMD_EXIT_OK : CMD_EXIT_USAGE;
	json_int_t g;
	struct predict_value v;
	if (npos != 2) {
		fputs(predict_usage, stderr);
		return CMD_EXIT_USAGE;
	}
	if (cli_parse_id("GAME", pos[0], &g) != 0)
		return CMD_EXIT_USAGE;
	if (predict_parse(pos[1], &v) < 0) {
		cli_errorf("'%s' is no prediction: give the colour ahead and the margin, as W+7 or "
			   "B+2.5", pos[1]);
		return CMD_EXIT_USAGE;
	}
	json_t *req = json_pack("{s:s, s:I, s:s, s:f}", "cmd", "predict", "game", g, "color",
				v.color == BLACK ? "B" : "W", "margin", v.margin);
	return cli_run_batch(&o, true, cli_batch_of(req), predict_print, NULL);
}
