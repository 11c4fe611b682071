/* lean_load's kernel counters (lean_load.h): what the kernel counted that can delay a round
 * trip outside both processes. On loopback a segment is lost only when a CPU's input queue is
 * full (`net.core.netdev_max_backlog`: /proc/net/softnet_stat's second column) or a socket's
 * receive queue is; unless a fast retransmit or a tail-loss probe resends it sooner, the
 * sender waits for its retransmission timer (200 ms at least, doubling; a SYN's 1 s), which
 * no loop figure shows. Read from /proc/net/snmp (Tcp: RetransSegs),
 * /proc/net/netstat (TcpExt: TCPTimeouts, ListenDrops, TCPRcvQDrop, TCPBacklogDrop) and
 * /proc/net/softnet_stat at the window's start, at each interval and at its end. A counter
 * that cannot be read, or that went back, is printed "?" and left out of the result line.
 * The counters of the network namespace (softnet_stat: of the machine's CPUs): other traffic
 * counts too, which on the benchmark's machine is none. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lean_load.h"

enum { K_RETRANS, K_TIMEOUTS, K_LISTEN_DROPS, K_RCVQ_DROPS, K_BACKLOG_DROPS, K_SOFTNET_DROPS,
       K_N };

static const char *const kern_names[K_N] = {
	"retrans", "rto", "listen_drops", "rcvq_drops", "backlog_drops", "softnet_drops",
};

#define KERN_UNKNOWN ULLONG_MAX /* a counter that could not be read */

static unsigned long long at_start[K_N], at_mark[K_N];
static bool started;

/* The value of `key` in a /proc/net/{snmp,netstat} file: a line "<prefix> name name ..."
 * followed by "<prefix> value value ...". KERN_UNKNOWN when the file or the key is absent. */
static unsigned long long proc_pair(const char *file, const char *prefix, const char *key)
{
	FILE *f = fopen(file, "r");
	if (!f)
		return KERN_UNKNOWN;
	static char names[16384], values[16384];
	unsigned long long out = KERN_UNKNOWN;
	size_t plen = strlen(prefix);
	while (fgets(names, sizeof names, f) && fgets(values, sizeof values, f)) {
		if (strncmp(names, prefix, plen) != 0 || strncmp(values, prefix, plen) != 0)
			continue;
		char *sn = NULL, *sv = NULL;
		char *n = strtok_r(names + plen, " \n", &sn), *v = strtok_r(values + plen, " \n", &sv);
		for (; n && v; n = strtok_r(NULL, " \n", &sn), v = strtok_r(NULL, " \n", &sv))
			if (strcmp(n, key) == 0) {
				out = strtoull(v, NULL, 10);
				break;
			}
		break;
	}
	fclose(f);
	return out;
}

/* The sum over CPUs of /proc/net/softnet_stat's second column (packets dropped because the
 * CPU's input queue was full), hexadecimal. */
static unsigned long long softnet_drops(void)
{
	FILE *f = fopen("/proc/net/softnet_stat", "r");
	if (!f)
		return KERN_UNKNOWN;
	unsigned long long sum = 0;
	char line[512];
	while (fgets(line, sizeof line, f)) {
		unsigned long long processed, dropped;
		if (sscanf(line, "%llx %llx", &processed, &dropped) == 2)
			sum += dropped;
	}
	fclose(f);
	return sum;
}

/* Every counter now; a file that cannot be read leaves its counters at KERN_UNKNOWN. */
static void kern_read(unsigned long long k[K_N])
{
	k[K_RETRANS] = proc_pair("/proc/net/snmp", "Tcp:", "RetransSegs");
	k[K_TIMEOUTS] = proc_pair("/proc/net/netstat", "TcpExt:", "TCPTimeouts");
	k[K_LISTEN_DROPS] = proc_pair("/proc/net/netstat", "TcpExt:", "ListenDrops");
	k[K_RCVQ_DROPS] = proc_pair("/proc/net/netstat", "TcpExt:", "TCPRcvQDrop");
	k[K_BACKLOG_DROPS] = proc_pair("/proc/net/netstat", "TcpExt:", "TCPBacklogDrop");
	k[K_SOFTNET_DROPS] = softnet_drops();
}

/* now - then as text, or "?" when either is unknown or the counter went back (a CPU taken
 * offline leaves softnet_stat). */
static const char *kern_diff(unsigned long long now, unsigned long long then, char buf[24])
{
	if (now == KERN_UNKNOWN || then == KERN_UNKNOWN || now < then)
		return "?";
	snprintf(buf, 24, "%llu", now - then);
	return buf;
}

void kern_begin(void)
{
	kern_read(at_start);
	memcpy(at_mark, at_start, sizeof at_mark);
	started = true;
}

void kern_interval(void)
{
	if (!started)
		return;
	unsigned long long now[K_N];
	char b[4][24];
	kern_read(now);
	printf("; kernel: retrans %s rto %s softnet drops %s rcvq drops %s",
	       kern_diff(now[K_RETRANS], at_mark[K_RETRANS], b[0]),
	       kern_diff(now[K_TIMEOUTS], at_mark[K_TIMEOUTS], b[1]),
	       kern_diff(now[K_SOFTNET_DROPS], at_mark[K_SOFTNET_DROPS], b[2]),
	       kern_diff(now[K_RCVQ_DROPS], at_mark[K_RCVQ_DROPS], b[3]));
	memcpy(at_mark, now, sizeof at_mark);
}

void kern_report(void)
{
	if (!started)
		return;
	unsigned long long now[K_N];
	char b[K_N][24];
	kern_read(now);
	const char *d[K_N];
	for (int i = 0; i < K_N; i++)
		d[i] = kern_diff(now[i], at_start[i], b[i]);
	printf("  kernel (this network namespace) in the window: %s TCP segments retransmitted "
	       "(%s retransmission timeouts), %s packets dropped from full input queues "
	       "(softnet), %s from full receive queues, %s from socket backlogs, %s listen drops\n",
	       d[K_RETRANS], d[K_TIMEOUTS], d[K_SOFTNET_DROPS], d[K_RCVQ_DROPS],
	       d[K_BACKLOG_DROPS], d[K_LISTEN_DROPS]);
	printf("result mode=kernel");
	for (int i = 0; i < K_N; i++)
		if (strcmp(d[i], "?") != 0) /* an unknown counter is left out: get() reads none */
			printf(" %s=%s", kern_names[i], d[i]);
	printf("\n");
	fflush(stdout);
}
