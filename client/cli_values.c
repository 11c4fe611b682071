/* client/cli_values: the values of command-line options shared by several commands
 * (durations, time controls, yes/no). See cli_values.h. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_values.h"

int cli_parse_duration(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	if (*end == 's')
		end++;
	else if (*end == 'm')
		v *= 60, end++;
	else if (*end == 'h')
		v *= 3600, end++;
	if (*end)
		return -1;
	*out = v;
	return 0;
}

json_t *cli_parse_time(const char *spec)
{
	char buf[CLI_TIME_SPEC_MAX];
	if (strlen(spec) >= sizeof buf)
		goto bad;
	strcpy(buf, spec);
	char *colon = strchr(buf, ':');
	char *rest = colon ? colon + 1 : buf + strlen(buf);
	if (colon)
		*colon = '\0';
	double v[3];
	if (strcmp(buf, "none") == 0 && !colon)
		return json_pack("{s:s}", "system", "none");
	if (!colon)
		goto bad;
	if (strcmp(buf, "absolute") == 0) {
		if (cli_parse_duration(rest, &v[0]) != 0)
			goto bad;
		return json_pack("{s:s, s:f}", "system", "absolute", "main_s", v[0]);
	}
	if (strcmp(buf, "byoyomi") == 0) {
		/* MAIN/PERIODSxPERIOD */
		char *slash = strchr(rest, '/');
		char *x = slash ? strchr(slash + 1, 'x') : NULL;
		if (!slash || !x)
			goto bad;
		*slash = '\0';
		*x = '\0';
		char *end;
		long periods = strtol(slash + 1, &end, 10);
		if (*end || end == slash + 1 || cli_parse_duration(rest, &v[0]) != 0 ||
		    cli_parse_duration(x + 1, &v[1]) != 0)
			goto bad;
		return json_pack("{s:s, s:f, s:i, s:f}", "system", "byoyomi", "main_s", v[0],
				 "periods", (int)periods, "period_s", v[1]);
	}
	if (strcmp(buf, "canadian") == 0) {
		/* MAIN/STONES/PERIOD */
		char *s1 = strchr(rest, '/');
		char *s2 = s1 ? strchr(s1 + 1, '/') : NULL;
		if (!s1 || !s2)
			goto bad;
		*s1 = '\0';
		*s2 = '\0';
		char *end;
		long stones = strtol(s1 + 1, &end, 10);
		if (*end || end == s1 + 1 || cli_parse_duration(rest, &v[0]) != 0 ||
		    cli_parse_duration(s2 + 1, &v[1]) != 0)
			goto bad;
		return json_pack("{s:s, s:f, s:i, s:f}", "system", "canadian", "main_s", v[0],
				 "stones", (int)stones, "period_s", v[1]);
	}
	if (strcmp(buf, "fischer") == 0) {
		/* MAIN+INC[/MAX] */
		char *plus = strchr(rest, '+');
		if (!plus)
			goto bad;
		*plus = '\0';
		char *slash = strchr(plus + 1, '/');
		if (slash)
			*slash = '\0';
		if (cli_parse_duration(rest, &v[0]) != 0 || cli_parse_duration(plus + 1, &v[1]) != 0 ||
		    (slash && cli_parse_duration(slash + 1, &v[2]) != 0))
			goto bad;
		json_t *t = json_pack("{s:s, s:f, s:f}", "system", "fischer", "main_s", v[0],
				      "increment_s", v[1]);
		if (t && slash)
			json_object_set_new(t, "max_s", json_real(v[2]));
		return t;
	}
bad:
	return NULL;
}

int cli_parse_yes_no(const char *s)
{
	if (!strcmp(s, "yes") || !strcmp(s, "true") || !strcmp(s, "on") || !strcmp(s, "1"))
		return 1;
	if (!strcmp(s, "no") || !strcmp(s, "false") || !strcmp(s, "off") || !strcmp(s, "0"))
		return 0;
	return -1;
}
