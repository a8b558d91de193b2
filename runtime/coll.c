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

static void bins_free(fal_coll *c);

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
  bins_free(c);
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
  if (fal_tl_ab.used)
    fal_abuf_flush_coll(c); /* this thread's own adds first */
  int64_t n = __atomic_load_n(&c->size, __ATOMIC_ACQUIRE);
  do {
    if (n <= 0)
      return 0;
  } while (!__atomic_compare_exchange_n(&c->size, &n, n - 1, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE));
  memcpy(out, c->local ? fal_lcoll_at(c, n - 1) : fal_coll_at(c, n - 1), (size_t)c->elsize);
  return 1;
}

/* ---- per-thread add buffers (coll.h) ------------------------------------ */

__thread fal_abufs fal_tl_ab;

/* n elements from x into c's slots at, at + 1, ... (reserved already),
 * one segment run at a time; segments are allocated as needed. */
static void coll_write(fal_coll *c, int64_t at, const char *x, int64_t n)
{
  while (n > 0) {
    int64_t off;
    int seg = fal_coll_seg_of(at, &off);
    int64_t room = (FAL_COLL_FIRST << seg) - off, k = n < room ? n : room;
    char *p = fal_coll_slot(c, at);
    if (!p)
      fal_coll_seg_alloc(c, seg); /* beyond the last segment: reports it */
    memcpy(p, x, (size_t)(k * c->elsize));
    x += k * c->elsize;
    at += k;
    n -= k;
  }
}

/* Appends b's elements to its collection: one atomic add reserves them. */
static void abuf_flush_one(fal_abuf *b)
{
  if (!b->n)
    return;
  int64_t at = __atomic_fetch_add(&b->c->size, b->n, __ATOMIC_ACQ_REL);
  coll_write(b->c, at, b->d, b->n);
  b->n = 0;
}

void fal_abuf_begin(void)
{
  fal_tl_ab.on = 1;
}

void fal_abuf_flush(void)
{
  for (int i = 0; i < fal_tl_ab.used; i++)
    abuf_flush_one(&fal_tl_ab.b[i]);
}

void fal_abuf_end(void)
{
  fal_abuf_flush();
  fal_tl_ab.on = 0;
  fal_tl_ab.used = 0;
}

void fal_abuf_flush_coll(fal_coll *c)
{
  for (int i = 0; i < fal_tl_ab.used; i++)
    if (fal_tl_ab.b[i].c == c)
      abuf_flush_one(&fal_tl_ab.b[i]);
}

int fal_abuf_add(fal_coll *c, const void *x)
{
  fal_abuf *b = NULL;
  for (int i = 0; i < fal_tl_ab.used; i++)
    if (fal_tl_ab.b[i].c == c) {
      b = &fal_tl_ab.b[i];
      break;
    }
  if (!b) {
    if (fal_tl_ab.used == FAL_ABUF_N || c->elsize > FAL_ABUF_BYTES / 16 || c->local)
      return 0; /* a plain add */
    b = &fal_tl_ab.b[fal_tl_ab.used++];
    b->c = c;
    b->n = 0;
    b->cap = FAL_ABUF_BYTES / c->elsize;
  }
  memcpy(b->d + b->n * c->elsize, x, (size_t)c->elsize);
  if (++b->n == b->cap)
    abuf_flush_one(b);
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

/* Host drains keep the elements of later buckets in per-thread bins
 * (the shape of GAPBS's delta-stepping): thread t appends to its own list
 * of each bucket without atomics, and between two batches one thread
 * finds the smallest non-empty bucket over all threads and gathers it
 * into c->cur, the batch.  Bins cover FAL_BIN_WINDOW buckets from `base`;
 * elements of buckets beyond wait in the thread's `far` list until the
 * window is empty, then the window moves to the smallest of them.  Adds
 * from threads without a slot of their own (nested parallelism, threads
 * of other teams) take the last slot under a lock. */
#define FAL_BIN_WINDOW ((int64_t)1 << 16)

typedef struct {
  char *a;
  int64_t n, cap;
} bin_vec;

typedef struct {
  bin_vec *bin;  /* bins 0 .. nbin-1 (relative to base) */
  int64_t nbin;
  int64_t lo;    /* bins below lo are empty */
  bin_vec far;   /* buckets at or beyond base + FAL_BIN_WINDOW */
  bin_vec work;  /* what fal_coll_bin_take handed out */
  char pad[64];  /* slots of two threads on separate cache lines */
} bin_slot;

typedef struct {
  int nslot;     /* threads + 1 (the last: shared, under lock) */
  bin_slot *slot;
  int64_t base;  /* the bucket of bin 0 */
  int64_t cur;   /* the bin being processed */
  int lock;
} bin_set;

static void vec_push(bin_vec *v, const void *x, int64_t elsize)
{
  if (v->n == v->cap) {
    int64_t cap = v->cap ? 2 * v->cap : 64;
    char *a = fal_alloc((size_t)(cap * elsize));
    if (v->n)
      memcpy(a, v->a, (size_t)(v->n * elsize));
    fal_free(v->a);
    v->a = a;
    v->cap = cap;
  }
  memcpy(v->a + v->n * elsize, x, (size_t)elsize);
  v->n++;
}

/* x into slot s: its bin, or far beyond the window. */
static void slot_put(bin_set *B, bin_slot *s, const fal_coll *c, const void *x)
{
  int64_t b = fal_coll_bucket(c, x) - B->base;
  if (b < B->cur)
    b = B->cur; /* below the batch (a key lowered further): the next pass */
  if (b >= FAL_BIN_WINDOW) {
    vec_push(&s->far, x, c->elsize);
    return;
  }
  if (b >= s->nbin) {
    int64_t nb = s->nbin ? s->nbin : 16;
    while (nb <= b)
      nb *= 2;
    if (nb > FAL_BIN_WINDOW)
      nb = FAL_BIN_WINDOW;
    bin_vec *bin = fal_calloc((size_t)nb, sizeof *bin);
    if (s->nbin)
      memcpy(bin, s->bin, (size_t)s->nbin * sizeof *bin);
    fal_free(s->bin);
    s->bin = bin;
    s->nbin = nb;
  }
  vec_push(&s->bin[b], x, c->elsize);
  if (b < s->lo)
    s->lo = b;
}

void fal_coll_bin_add(fal_coll *c, const void *x)
{
  bin_set *B = c->bins;
  int t = B->nslot - 1;
#ifdef _OPENMP
  if (omp_get_level() == 1 && omp_get_thread_num() < B->nslot - 1)
    t = omp_get_thread_num();
#endif
  if (t < B->nslot - 1) {
    slot_put(B, &B->slot[t], c, x);
    return;
  }
  while (__atomic_exchange_n(&B->lock, 1, __ATOMIC_ACQUIRE))
    ;
  slot_put(B, &B->slot[t], c, x);
  __atomic_store_n(&B->lock, 0, __ATOMIC_RELEASE);
}

/* Between the batch and the barrier, a thread of the drain's team takes
 * what it added to the current bucket itself, when that is fewer than
 * FAL_BIN_LOCAL elements, and processes it at once (GAPBS's bin fusion:
 * a bucket's later passes on road graphs are a few elements per thread,
 * not worth a barrier each).  Those elements belong to the bucket being
 * processed, so the order of buckets is kept.  NULL when there is
 * nothing (or too much) to take. */
#ifndef FAL_BIN_LOCAL
#define FAL_BIN_LOCAL 1000
#endif
const void *fal_coll_bin_take(fal_coll *c, int64_t *n)
{
  bin_set *B = c->bins;
#ifdef _OPENMP
  if (!B || !c->draining || omp_get_level() != 1)
    return NULL;
  int t = omp_get_thread_num();
  if (t >= B->nslot - 1)
    return NULL;
  bin_slot *s = &B->slot[t];
  int64_t b = B->cur;
  if (b >= s->nbin || s->bin[b].n == 0 || s->bin[b].n >= FAL_BIN_LOCAL)
    return NULL;
  bin_vec v = s->work;
  s->work = s->bin[b];
  s->bin[b] = v;
  s->bin[b].n = 0;
  *n = s->work.n;
  return s->work.a;
#else
  (void)B;
  (void)n;
  return NULL;
#endif
}

static void bins_free(fal_coll *c)
{
  bin_set *B = c->bins;
  if (!B)
    return;
  for (int t = 0; t < B->nslot; t++) {
    for (int64_t i = 0; i < B->slot[t].nbin; i++)
      fal_free(B->slot[t].bin[i].a);
    fal_free(B->slot[t].bin);
    fal_free(B->slot[t].far.a);
    fal_free(B->slot[t].work.a);
  }
  fal_free(B->slot);
  fal_free(B);
  c->bins = NULL;
}

/* Appends n elements to c. */
static void coll_append(fal_coll *c, const char *x, int64_t n)
{
  int64_t at = c->size;
  fal_coll_set_size(c, at + n);
  coll_write(c, at, x, n);
}

void fal_coll_drain_begin(fal_coll *c)
{
  if (!c->ordered)
    return;
  if (c->key_slot)
    c->key_prop = c->far->key_prop = c->cur->key_prop = *c->key_slot;
  if (!c->bins) {
    int n = 1;
#ifdef _OPENMP
    n = omp_get_max_threads();
#endif
    bin_set *B = fal_calloc(1, sizeof *B);
    B->nslot = n + 1;
    B->slot = fal_calloc((size_t)B->nslot, sizeof *B->slot);
    c->bins = B;
  }
  bin_set *B = c->bins;
  /* The elements there are (and any a GPU-side far left) go to the
   * shared slot, the window starting at the smallest bucket. */
  int64_t a = min_bucket(c, c), b = min_bucket(c->far, c);
  B->base = a < b ? a : b;
  B->cur = 0;
  for (int t = 0; t < B->nslot; t++)
    B->slot[t].lo = 0;
  bin_slot *s = &B->slot[B->nslot - 1];
  for (int64_t i = 0; i < c->size; i++)
    slot_put(B, s, c, fal_coll_at(c, i));
  for (int64_t i = 0; i < c->far->size; i++)
    slot_put(B, s, c, fal_coll_at(c->far, i));
  c->size = c->far->size = c->cur->size = 0;
  c->draining = 1;
}

/* The smallest non-empty bin at or after B->cur, or -1. */
static int64_t bins_min(bin_set *B)
{
  int64_t m = -1;
  for (int t = 0; t < B->nslot; t++) {
    bin_slot *s = &B->slot[t];
    int64_t i = s->lo > B->cur ? s->lo : B->cur, end = m >= 0 && m < s->nbin ? m : s->nbin;
    while (i < end && !s->bin[i].n)
      i++;
    s->lo = i;
    if (i < end)
      m = i;
  }
  return m;
}

int fal_coll_drain_next(fal_coll *c)
{
  if (!c->ordered) {
    /* An unordered collection: one pass over its current elements. */
    return 0;
  }
  bin_set *B = c->bins;
  c->cur->size = 0;
  int64_t m = bins_min(B);
  if (m < 0) {
    /* The window is empty: move it to the smallest bucket waiting in far. */
    int64_t lo = INT64_MAX;
    for (int t = 0; t < B->nslot; t++) {
      bin_vec *f = &B->slot[t].far;
      for (int64_t i = 0; i < f->n; i++) {
        int64_t k = fal_coll_bucket(c, f->a + i * c->elsize);
        if (k < lo)
          lo = k;
      }
    }
    if (lo == INT64_MAX)
      return 0;
    B->base = lo;
    B->cur = 0;
    for (int t = 0; t < B->nslot; t++) {
      bin_slot *s = &B->slot[t];
      bin_vec f = s->far;
      s->far.a = NULL;
      s->far.n = s->far.cap = 0;
      s->lo = 0;
      for (int64_t i = 0; i < f.n; i++)
        slot_put(B, s, c, f.a + i * c->elsize);
      fal_free(f.a);
    }
    m = bins_min(B);
    if (m < 0)
      return 0;
  }
  for (int t = 0; t < B->nslot; t++) {
    bin_slot *s = &B->slot[t];
    if (m < s->nbin && s->bin[m].n) {
      coll_append(c->cur, s->bin[m].a, s->bin[m].n);
      s->bin[m].n = 0;
    }
  }
  B->cur = m;
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
