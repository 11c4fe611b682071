/* writer: one thread that writes batches of output to sockets, so that the loop thread goes
 * on reading and refereeing while the kernel takes the bytes (a loopback write also delivers
 * them to the reader: most of a move's cost, docs/benchmarks.md).
 *
 * The loop hands over a batch of items (a file descriptor and bytes each) and gets them back
 * in `done`, called on the loop thread, with how much of each was written and any error. One
 * batch is in flight at a time. The caller keeps every descriptor of a batch open until its
 * items come back, and does not touch their bytes meanwhile.
 */
#ifndef TENGEN_WRITER_H
#define TENGEN_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <uv.h>

struct writer_item {
	void *ctx;        /* the caller's (a connection) */
	int fd;           /* non-blocking socket */
	char *buf;        /* the bytes, and their allocation size (the caller's to reuse) */
	size_t len, cap;
	size_t done;      /* out: bytes written */
	int err;          /* out: 0, or the errno that stopped the writes (EAGAIN: socket full) */
};

struct writer;
/* Called on the loop thread with a finished batch; items[0..n) stay valid until it returns. */
typedef void (*writer_done_cb)(void *ctx, struct writer_item *items, size_t n);

/* Start the thread; `done` gets every batch back on `loop`. Returns NULL on failure. */
struct writer *writer_start(uv_loop_t *loop, writer_done_cb done, void *ctx);
/* True while a batch is in flight (handed over and not yet given back). */
bool writer_busy(struct writer *w);
/* Room for n items of the next batch (only while not busy). NULL on OOM. */
struct writer_item *writer_items(struct writer *w, size_t n);
/* Hand over the first n items. */
void writer_submit(struct writer *w, size_t n);
/* Drain, end the thread and close its handle (w is freed once closed). */
void writer_stop(struct writer *w);

#endif
