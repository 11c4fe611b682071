/* event: the names of the pairing systems. See event.h. */
#include <string.h>
#include "event.h"

const char *const event_system_names[EVENT_SYSTEMS] = {"round_robin", "double_round_robin",
	"swiss", "mcmahon", "knockout"};

const char *event_system_name(enum event_system s)
{
	return (unsigned)s < EVENT_SYSTEMS ? event_system_names[s] : NULL;
}

int event_system_parse(const char *name, enum event_system *out)
{
	for (int i = 0; name && i < EVENT_SYSTEMS; i++)
		if (strcmp(name, event_system_names[i]) == 0) {
			*out = (enum event_system)i;
			return 0;
		}
	return -1;
}
