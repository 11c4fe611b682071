/* store_vec: a growable array of fixed-size elements, for the rows a listing collects before
 * its callbacks run (so that they may write). Private to the store.
 *
 * Usage: struct store_vec v = STORE_VEC_INIT(struct store_game); then, per row,
 * e = store_vec_room(&v), fill *e, v.n++; read the rows as ((struct store_game *)v.v)[i];
 * free what the elements own, then store_vec_free(&v). */
#ifndef TENGEN_STORE_VEC_H
#define TENGEN_STORE_VEC_H

#include <stddef.h>

#define STORE_VEC_START 16 /* first capacity, elements; it doubles from there */

struct store_vec {
	void *v;        /* the elements, malloc'd; NULL until the first store_vec_room */
	size_t n;       /* elements in use */
	size_t cap;     /* elements allocated */
	size_t size;    /* bytes per element */
};

#define STORE_VEC_INIT(type) { NULL, 0, 0, sizeof(type) }

/* Room for one more element: a pointer to the zeroed element at index v->n (not counted in
 * v->n until the caller increments it). Earlier elements may move. NULL when out of memory
 * (or the size would overflow), *v unchanged. */
void *store_vec_room(struct store_vec *v);
/* Free the array (not what its elements point to) and empty it; the element size stays. */
void store_vec_free(struct store_vec *v);

#endif
