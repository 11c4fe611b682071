/* lean_load's kernel counters (lean_load.h): what the kernel counted, machine-wide, that can
 * delay a round trip outside both processes. On loopback a segment is lost only when a CPU's
 * input queue is full (`net.core.netdev_max_backlog`: /proc/net/softnet_stat's second column)
 * or a socket's receive queue is; the sender then waits for its retransmission timer, 200 ms
 * and doubling, which no loop figure shows. Read from /proc/net/snmp (Tcp: RetransSegs),
 * /proc/net/netstat (TcpExt: TCPTimeouts, ListenDrops, TCPRcvQDrop, TCPBacklogDrop) and
 * /proc/net/softnet_stat at the window's start, at each interval and at its end. A counter
 * the kernel does not show reads as 0. The whole machine's counters: other traffic counts
 * too, which on the benchmark's machine is none. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lean_load.h"

enum { K_RETRANS, K_TIMEOUTS, K_LISTEN_DROPS, K_RCVQ_DROPS, K_BACKLOG_DROPS, K_SOFTNET_DROPS,
       K_N };

static const char *const kern_names[K_N] = {
	"retrans", "rto", "listen_drops", "rcvq_drops", "backlog_drops", "softnet_drops",
};

static unsigned long long at_start[K_N], at_mark[K_N];
static bool started;

/* The value of `key` in a /proc/net/{snmp,netstat} file: a line "<prefix> name name ..."
 * followed by "<prefix> value value ...". 0 when absent. */
static unsigned long long proc_pair(const char *file, const char *prefix, const char *key)
{
	FILE *f = fopen(file, "r");
	if (!f)
		return 0;
	static char names[16384], values[16384];
	unsigned long long out = 0;
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
		return 0;
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

static void kern_read(unsigned long long k[K_N])
{
	k[K_RETRANS] = proc_pair("/proc/net/snmp", "Tcp:", "RetransSegs");
	k[K_TIMEOUTS] = proc_pair("/proc/net/netstat", "TcpExt:", "TCPTimeouts");
	k[K_LISTEN_DROPS] = proc_pair("/proc/net/netstat", "TcpExt:", "ListenDrops");
	k[K_RCVQ_DROPS] = proc_pair("/proc/net/netstat", "TcpExt:", "TCPRcvQDrop");
	k[K_BACKLOG_DROPS] = proc_pair("/proc/net/netstat", "TcpExt:", "TCPBacklogDrop");
	k[K_SOFTNET_DROPS] = softnet_drops();
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
	kern_read(now);
	printf("; kernel: retrans %llu rto %llu softnet drops %llu rcvq drops %llu",
	       now[K_RETRANS] - at_mark[K_RETRANS], now[K_TIMEOUTS] - at_mark[K_TIMEOUTS],
	       now[K_SOFTNET_DROPS] - at_mark[K_SOFTNET_DROPS],
	       now[K_RCVQ_DROPS] - at_mark[K_RCVQ_DROPS]);
	memcpy(at_mark, now, sizeof at_mark);
}

void kern_report(void)
{
	if (!started)
		return;
	unsigned long long now[K_N];
	kern_read(now);
	printf("  kernel, the whole machine in the window: %llu TCP segments retransmitted "
	       "(%llu retransmission timeouts), %llu packets dropped from full input queues "
	       "(softnet), %llu from full receive queues, %llu from socket backlogs, "
	       "%llu listen drops\n",
	       now[K_RETRANS] - at_start[K_RETRANS], now[K_TIMEOUTS] - at_start[K_TIMEOUTS],
	       now[K_SOFTNET_DROPS] - at_start[K_SOFTNET_DROPS],
	       now[K_RCVQ_DROPS] - at_start[K_RCVQ_DROPS],
	       now[K_BACKLOG_DROPS] - at_start[K_BACKLOG_DROPS],
	       now[K_LISTEN_DROPS] - at_start[K_LISTEN_DROPS]);
	printf("result mode=kernel");
	for (int i = 0; i < K_N; i++)
		printf(" %s=%llu", kern_names[i], now[i] - at_start[i]);
	printf("\n");
	fflush(stdout);
}
