/*
 * coll.c: the host side of Collections (§3.5) and Sets (§3.4); the
 * layout and the per-element operations are in falcon/coll.h.
 */
#include "falcon/coll.h"
#include "falcon/graph.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

/* ---- Collection storage ------------------------------------------------- */

void *fal_coll_seg_alloc(fal_coll *c, int s)
{
  if (s < 0 || s >= FAL_COLL_NSEG) {
    fprintf(stderr, "falcon: error: a Collection cannot hold more than %lld "
            "elements\n", (long long)((FAL_COLL_FIRST << FAL_COLL_NSEG) - FAL_COLL_FIRST));
    exit(1);
  }
  void *expected = NULL;
  if (__atomic_compare_exchange_n(&c->st->seg[s], &expected, FAL_COLL_BUSY, 0,
                                  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    void *p = fal_alloc((size_t)((FAL_COLL_FIRST >> c->shrink) << s) * (size_t)c->elsize);
    __atomic_store_n(&c->st->seg[s], p, __ATOMIC_RELEASE);
    return p;
  }
  /* Another thread is allocating it: wait for the pointer. */
  void *p;
  while ((p = __atomic_load_n(&c->st->seg[s], __ATOMIC_ACQUIRE)) == FAL_COLL_BUSY)
    ;
  return p;
}

static fal_cstore *store_new(void)
{
  fal_cstore *st = fal_calloc(1, sizeof *st);
  st->refs = 1;
  return st;
}

static void store_retain(fal_cstore *st)
{
  if (st->refs > 0)
    st->refs++;
}

/* Drops one collection's use of a counted store; the last frees it. */
static void store_release(fal_cstore *st)
{
  if (!st || st->refs <= 0 || --st->refs > 0)
    return;
  for (int s = 0; s < FAL_COLL_NSEG; s++)
    if (st->seg[s] != FAL_COLL_BUSY)
      fal_free(st->seg[s]);
  fal_free(st);
}

void fal_coll_init(fal_coll *c, size_t elsize)
{
  memset(c, 0, sizeof *c);
  c->elsize = (int64_t)elsize;
  c->device = -1;
  c->st = store_new();
}

/* Frees the store c uses (which no other collection may use). */
static void storage_free(fal_coll *c)
{
  for (int s = 0; s < FAL_COLL_NSEG; s++)
    if (c->st->seg[s] != FAL_COLL_BUSY)
      fal_free(c->st->seg[s]);
  memset(c->st->seg, 0, sizeof c->st->seg);
  c->size = 0;
}

void fal_coll_free(fal_coll *c)
{
  if (c->st && c->st->refs > 1) { /* others use it: only drop c's use */
    store_release(c->st);
    c->st = store_new();
  }
  storage_free(c);
  if (c->far) {
    storage_free(c->far);
    fal_free(c->far);
  }
  if (c->cur) {
    storage_free(c->cur);
    fal_free(c->cur);
  }
  c->far = c->cur = NULL;
}

void fal_coll_set_size(fal_coll *c, int64_t n)
{
  if (n < 0)
    n = 0;
  if (c->local) { /* one thread's: grow it element by element */
    fal_lcoll_set_size(c, n);
    return;
  }
  /* Growing exposes elements that must exist. */
  for (int64_t i = c->size; i < n; i += FAL_COLL_FIRST)
    fal_coll_slot(c, i);
  if (n > 0)
    fal_coll_slot(c, n - 1);
  c->size = n;
}

static fal_coll *coll_side(const fal_coll *c)
{
  fal_coll *s = fal_alloc(sizeof *s);
  fal_coll_init(s, (size_t)c->elsize);
  s->key_prop = c->key_prop;
  s->key_off = c->key_off;
  s->shift = c->shift;
  return s;
}

void fal_coll_order(fal_coll *c, int *const *key_slot, int64_t key_off, int k)
{
  if (k < 0 || k > 62) {
    fprintf(stderr, "falcon: error: OrderByIntValue: shift %d out of range 0..62\n", k);
    exit(1);
  }
  c->ordered = 1;
  c->key_slot = key_slot;
  c->key_prop = key_slot ? *key_slot : NULL;
  c->key_off = key_off;
  c->shift = k;
  if (!c->far)
    c->far = coll_side(c);
  if (!c->cur)
    c->cur = coll_side(c);
  c->far->key_prop = c->cur->key_prop = c->key_prop;
  c->far->key_off = c->cur->key_off = key_off;
  c->far->shift = c->cur->shift = k;
}

/* Ordered drains: the collection and its batch exchange storage and
 * sizes (internal sides of one collection). */
static void swap_storage(fal_coll *a, fal_coll *b)
{
  fal_cstore *st = a->st;
  a->st = b->st;
  b->st = st;
  int64_t n = a->size;
  a->size = b->size;
  b->size = n;
}

/* A file-scope collection is initialised as {0, elsize, &its store}. */
static void ensure_store(fal_coll *c)
{
  if (!c->st)
    c->st = store_new();
}

void fal_coll_share(fal_coll *a, fal_coll *b)
{
  if (a == b)
    return;
  if (a->elsize != b->elsize) {
    fprintf(stderr, "falcon: error: assigning a Collection of %lld-byte elements "
            "to one of %lld-byte elements\n", (long long)b->elsize, (long long)a->elsize);
    exit(1);
  }
  ensure_store(b);
  if (a->st != b->st) {
    store_retain(b->st);
    store_release(a->st); /* frees a's old storage when nothing else uses it */
    a->st = b->st;
  }
  fal_coll_set_size(a, a->size); /* a's elements exist in the new storage */
}

void fal_coll_copy(fal_coll *dst, const fal_coll *src)
{
  if (dst == src)
    return;
  dst->size = 0;
  fal_coll_set_size(dst, src->size);
  for (int64_t i = 0; i < src->size; i++)
    memcpy(fal_coll_at(dst, i), fal_coll_at(src, i), (size_t)src->elsize);
}

int fal_coll_pop(fal_coll *c, void *out)
{
  int64_t n = __atomic_load_n(&c->size, __ATOMIC_ACQUIRE);
  do {
    if (n <= 0)
      return 0;
  } while (!__atomic_compare_exchange_n(&c->size, &n, n - 1, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE));
  memcpy(out, c->local ? fal_lcoll_at(c, n - 1) : fal_coll_at(c, n - 1), (size_t)c->elsize);
  return 1;
}

/* ---- ordered drains (OrderByIntValue, §3.5) ------------------------------ */

static int64_t min_bucket(const fal_coll *c, const fal_coll *keys)
{
  int64_t best = INT64_MAX;
#pragma omp parallel for reduction(min : best) schedule(static)
  for (int64_t i = 0; i < c->size; i++) {
    int64_t b = fal_coll_bucket(keys, fal_coll_at(c, i));
    if (b < best)
      best = b;
  }
  return best;
}

/* Moves the elements of `from` whose bucket is <= limit to `near` and
 * keeps the rest in `from` (in order). */
static void split(fal_coll *from, fal_coll *near, const fal_coll *keys,
                  int64_t limit)
{
  int64_t keep = 0, n = from->size;
  for (int64_t i = 0; i < n; i++) {
    void *x = fal_coll_at(from, i);
    if (fal_coll_bucket(keys, x) <= limit) {
      int64_t j = near->size++;
      memcpy(fal_coll_slot(near, j), x, (size_t)from->elsize);
    } else {
      if (keep != i)
        memcpy(fal_coll_at(from, keep), x, (size_t)from->elsize);
      keep++;
    }
  }
  from->size = keep;
}

void fal_coll_drain_begin(fal_coll *c)
{
  if (!c->ordered)
    return;
  if (c->key_slot)
    c->key_prop = c->far->key_prop = c->cur->key_prop = *c->key_slot;
  int64_t a = min_bucket(c, c), b = min_bucket(c->far, c);
  c->threshold = a < b ? a : b;
  c->draining = 1;
  /* Elements of later buckets wait in far. */
  fal_coll *tmp = c->cur;
  tmp->size = 0;
  swap_storage(c, tmp); /* c empty, tmp holds the elements */
  split(tmp, c, c, c->threshold);
  for (int64_t i = 0; i < tmp->size; i++) {
    int64_t j = c->far->size++;
    memcpy(fal_coll_slot(c->far, j), fal_coll_at(tmp, i), (size_t)c->elsize);
  }
  tmp->size = 0;
}

int fal_coll_drain_next(fal_coll *c)
{
  if (!c->ordered) {
    /* An unordered collection: one pass over its current elements. */
    return 0;
  }
  if (c->size == 0) {
    if (c->far->size == 0)
      return 0;
    c->threshold = min_bucket(c->far, c);
    split(c->far, c, c, c->threshold);
  }
  c->cur->size = 0;
  swap_storage(c, c->cur);
  return 1;
}

void fal_coll_drain_end(fal_coll *c)
{
  c->draining = 0;
}

/* ---- Set (§3.4) ------------------------------------------------------------ */

void fal_set_init(fal_set *s, const int *npoints, void *graph)
{
  memset(s, 0, sizeof *s);
  s->npoints = npoints;
  s->graph = graph;
  s->device = -1;
  fal_set_ready(s);
}

/* Sized to the graph's points when first used after the graph has them:
 * a Set may be declared before its graph is read. */
void fal_set_ready(fal_set *s)
{
  int64_t n = s->npoints ? *s->npoints : 0;
  if (s->on_gpu || n == s->n)
    return;
  fal_free(s->parent);
  s->parent = fal_alloc((size_t)(n + 1) * sizeof *s->parent);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; i++)
    s->parent[i] = (fal_point)i;
  s->n = n;
}

void fal_set_free(fal_set *s)
{
  if (!s->on_gpu)
    fal_free(s->parent);
  s->parent = NULL;
  s->n = 0;
}

void fal_coll_range_error(const fal_coll *c, int64_t i)
{
  fprintf(stderr, "falcon: error: Collection index %lld is out of range (size %lld)\n",
          (long long)i, (long long)c->size);
  exit(1);
}

void fal_set_range_error(const fal_set *s, fal_point x)
{
  fprintf(stderr, "falcon: error: point %ld is not in the Set (its graph has %lld "
          "points)\n", (long)x, (long long)s->n);
  exit(1);
}

/* S2 = S1 between two host Sets (the CUDA target has its own). */
void fal_hs_assign_host(fal_set *dst, fal_set *src)
{
  fal_set_ready(src);
  fal_set_ready(dst);
  if (dst->n != src->n) {
    fal_free(dst->parent);
    dst->parent = fal_alloc((size_t)(src->n + 1) * sizeof *dst->parent);
    dst->n = src->n;
  }
  memcpy(dst->parent, src->parent, (size_t)src->n * sizeof *src->parent);
}
