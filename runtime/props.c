/*
 * props.c: the runtime half of a graph variable in generated code
 * (fal_gbase, falcon/falcon.h): property registration and allocation
 * (struct of arrays, §3.1), loading, the hidden locks of `single` (§4.3),
 * keeping properties with their elements when a mutable graph grows (§6)
 * and edge look-ups outside a neighbour loop (§3.1 getweight/getedge).
 */
#include "falcon/falcon.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* Elements of a property (one more is allocated).  A mutable graph (§6)
 * indexes by id below point_cap and slot below slot_cap. */
static size_t prop_count(const fal_gbase *b, fal_prop_kind kind)
{
  const fal_graph *g = &b->csr;
  switch (kind) {
  case FAL_PROP_POINT:
    return (size_t)(g->end ? g->point_cap : g->npoints);
  case FAL_PROP_EDGE:
    return (size_t)(g->end ? g->slot_cap : g->nedges);
  case FAL_PROP_GRAPH:
    return 1;
  }
  return 1;
}

/* A zeroed array of n elements.  Arrays of 64 KiB or more are zeroed
 * by the OpenMP threads, in the static schedule's chunks that the
 * generated point loops use: each page is first touched by the thread
 * that will use it (placed near it on a machine of several sockets), the
 * page faults are paid here, and the thread team is started while the
 * graph loads, not in the program's first (timed) parallel loop.  GAPBS's
 * graph builder starts its team the same way, by building in parallel. */
static void *zeroed_array(size_t n, size_t size)
{
  if (n * size < ((size_t)1 << 16))
    return fal_calloc(n, size);
  char *a = fal_alloc_array(n, size);
  const size_t bytes = n * size;
#ifdef _OPENMP
#pragma omp parallel
  {
    size_t nt = (size_t)omp_get_num_threads(), t = (size_t)omp_get_thread_num();
    size_t lo = bytes / nt * t, hi = t + 1 == nt ? bytes : bytes / nt * (t + 1);
    memset(a + lo, 0, hi - lo);
  }
#else
  memset(a, 0, bytes);
#endif
  return a;
}

static void prop_alloc(const fal_gbase *b, const fal_prop *p)
{
  fal_free(*p->slot);
  *p->slot = zeroed_array(prop_count(b, p->kind) + 1, p->size);
}

void fal_prop_add(fal_gbase *b, void **slot, size_t size, fal_prop_kind kind)
{
  for (int i = 0; i < b->nprops; i++)
    if (b->props[i].slot == slot)
      return; /* added twice: keep the first */
  if (b->nprops == b->cap) {
    b->cap = b->cap ? 2 * b->cap : 8;
    fal_prop *n = fal_alloc((size_t)b->cap * sizeof *n);
    if (b->nprops)
      memcpy(n, b->props, (size_t)b->nprops * sizeof *n);
    fal_free(b->props);
    b->props = n;
  }
  fal_prop *p = &b->props[b->nprops++];
  *p = (fal_prop){slot, size, kind};
  *slot = NULL;
  if (b->loaded || kind == FAL_PROP_GRAPH)
    prop_alloc(b, p);
}

/* A graph just read into b->csr: what the program needs built, and its
 * properties (in_edges builds the in-edges). */
static void gbase_loaded(fal_gbase *b, void (*in_edges)(fal_graph *))
{
  b->loaded = 1;
  if (b->need_in_edges)
    in_edges(&b->csr);
  if (b->need_sources)
    fal_graph_build_sources(&b->csr);
  if (b->is_mutable && fal_graph_make_mutable(&b->csr, 3) != 0)
    exit(1);
  for (int i = 0; i < b->nprops; i++)
    if (b->props[i].kind != FAL_PROP_GRAPH)
      prop_alloc(b, &b->props[i]);
}

void fal_gbase_read(fal_gbase *b, const char *path)
{
  fal_graph_free(&b->csr);
  if (fal_graph_read(&b->csr, path, FAL_FORMAT_AUTO) != 0)
    exit(1);
  gbase_loaded(b, fal_graph_build_in_edges);
}

int fal_gbase_rows_ok(const fal_gbase *b)
{
  return !b->is_mutable && !b->need_sources; /* those number every edge */
}

void fal_gbase_take_rows(fal_gbase *b, fal_graph *rows, void (*in_edges)(fal_graph *))
{
  fal_graph_free(&b->csr);
  b->csr = *rows;
  memset(rows, 0, sizeof *rows);
  gbase_loaded(b, in_edges); /* no sources, not mutable: fal_gbase_rows_ok */
}

/* ---- mutation (§6) ------------------------------------------------------ */

/* Moves the registered properties and the locks of `single` to a new
 * layout: edge values follow from[], point arrays keep their indices. */
static void gbase_move(void *arg, const fal_graph_moves *m)
{
  fal_gbase *b = arg;
  for (int i = 0; i < b->nprops; i++) {
    const fal_prop *p = &b->props[i];
    unsigned char *old = *p->slot;
    if (p->kind == FAL_PROP_GRAPH || !old)
      continue;
    size_t z = p->size;
    unsigned char *fresh;
    if (p->kind == FAL_PROP_POINT) {
      fresh = fal_calloc((size_t)m->point_cap + 1, z);
      int64_t keep = m->old_point_cap < m->point_cap ? m->old_point_cap : m->point_cap;
      memcpy(fresh, old, (size_t)keep * z);
    } else {
      fresh = fal_calloc((size_t)m->slot_cap + 1, z);
      for (int64_t s = 0; s < m->slot_cap; s++)
        if (m->from[s] >= 0)
          memcpy(fresh + (size_t)s * z, old + (size_t)m->from[s] * z, z);
    }
    fal_free(old);
    *p->slot = fresh;
  }
  /* The locks are zeroed before each use (fal_single_reset). */
  if (b->single_lock) {
    fal_free(b->single_lock);
    b->single_lock = fal_calloc((size_t)m->point_cap + 1, 1);
  }
  if (b->single_elock) {
    fal_free(b->single_elock);
    b->single_elock = fal_calloc((size_t)m->slot_cap + 1, 1);
  }
}

void fal_gbase_mutable(fal_gbase *b)
{
  b->is_mutable = 1;
  if (fal_graph_is_mutable(&b->csr))
    return;
  if (fal_graph_make_mutable_with(&b->csr, 3, gbase_move, b) != 0)
    exit(1);
  if (!b->loaded) { /* a graph built from nothing by addPoint */
    b->loaded = 1;
    for (int i = 0; i < b->nprops; i++)
      if (b->props[i].kind != FAL_PROP_GRAPH)
        prop_alloc(b, &b->props[i]);
  }
}

int fal_gbase_settle(fal_gbase *b)
{
  int r = fal_graph_settle(&b->csr, gbase_move, b);
  if (r < 0)
    exit(1); /* the message is printed */
  return r;
}

int64_t fal_gbase_grows(const fal_gbase *b) { return b->csr.grows; }

fal_point fal_gbase_add_point(fal_gbase *b)
{
  fal_point p = fal_graph_add_point(&b->csr);
  if (p < b->csr.point_cap)
    return p;
#ifdef _OPENMP
  if (omp_in_parallel()) {
    fprintf(stderr,
            "falcon: error: addPoint: more than %lld points added in one "
            "parallel loop (the spare capacity, §6)\n",
            (long long)b->csr.point_cap);
    exit(1);
  }
#endif
  fal_gbase_settle(b);
  return p;
}

void fal_gbase_free(fal_gbase *b)
{
  for (int i = 0; i < b->nprops; i++) {
    fal_free(*b->props[i].slot);
    *b->props[i].slot = NULL;
  }
  fal_free(b->props);
  fal_free(b->single_lock);
  fal_free(b->single_elock);
  fal_owner_free(&b->own[0]);
  fal_owner_free(&b->own[1]);
  fal_graph_free(&b->csr);
  memset(b, 0, sizeof *b);
}

void fal_single_reset(fal_gbase *b, int edges)
{
  unsigned char **lock = edges ? &b->single_elock : &b->single_lock;
  size_t n = prop_count(b, edges ? FAL_PROP_EDGE : FAL_PROP_POINT) + 1;
  if (!*lock)
    *lock = fal_calloc(n, 1);
  else
    memset(*lock, 0, n);
}

/* Every case of g.getedge (falcon/falcon.h calls this for mutable and
 * sortEdges graphs only).  Adjacency lists are sorted by destination
 * (graph.c): a lower-bound binary search.  A mutable graph's are not
 * (edges are appended): the first live p -> t slot by a scan. */
fal_edge fal_graph_getedge_any(const fal_graph *g, fal_point p, fal_point t)
{
  if (g->end) {
    if (p >= g->point_cap)
      return -1; /* a point added since the last settle: no slots yet */
    int64_t end = __atomic_load_n(&g->end[p], __ATOMIC_ACQUIRE);
    for (int64_t e = g->offsets[p]; e < end; e++)
      if (!__atomic_load_n(&g->edel[e], __ATOMIC_ACQUIRE) && g->dst[e] == t)
        return e;
    return -1;
  }
  if (g->unsorted) { /* sortEdges: not in destination order (§3.1) */
    for (int64_t e = g->offsets[p]; e < g->offsets[p + 1]; e++)
      if (g->dst[e] == t)
        return e;
    return -1;
  }
  return fal_graph_getedge_sorted(g, p, t);
}

fal_weight fal_graph_getweight(const fal_graph *g, fal_point p, fal_point t)
{
  fal_edge e = fal_graph_getedge(g, p, t);
  return e < 0 ? 0 : g->weight[e];
}

/* ---- single on a Collection (§4.3) --------------------------------------- */

void fal_owner_begin(fal_owner *o, int64_t n)
{
  if (n < 0)
    n = 0;
  if (n > o->n) {
    int64_t cap = o->n * 2 > n ? o->n * 2 : n;
    uint64_t *a = fal_alloc((size_t)(cap + 1) * sizeof *a);
    if (o->own)
      memcpy(a, o->own, (size_t)o->n * sizeof *a);
    memset(a + o->n, 0xff, (size_t)(cap + 1 - o->n) * sizeof *a);
    fal_free(o->own);
    o->own = a;
    o->n = cap;
  }
  if (++o->epoch >= FAL_OWN_EMAX) { /* after 16M rounds: clear and restart */
    memset(o->own, 0xff, (size_t)(o->n + 1) * sizeof *o->own);
    o->epoch = 1;
  }
}

void fal_owner_free(fal_owner *o)
{
  fal_free(o->own);
  memset(o, 0, sizeof *o);
}

unsigned char *fal_pend_get(int64_t n)
{
  return fal_calloc((size_t)(n < 0 ? 0 : n) + 1, 1);
}

void fal_pend_free(unsigned char *p)
{
  fal_free(p);
}

/* ---- graph views (§3.6) ---------------------------------------------------- */

void fal_view_resize(void **a, int64_t *cap, int64_t oldn, int64_t n, size_t elsize,
                     const char *file, int line)
{
  if (n < 0 || n > INT32_MAX) {
    fprintf(stderr, "%s:%d: error: a graph view cannot have %lld elements\n", file,
            line, (long long)n);
    exit(1);
  }
  if (n > *cap) {
    int64_t c = *cap * 2 > n ? *cap * 2 : n;
    char *b = fal_alloc((size_t)c * elsize + 1);
    if (*a)
      memcpy(b, *a, (size_t)oldn * elsize);
    fal_free(*a);
    *a = b;
    *cap = c;
  }
  if (n > oldn)
    memset((char *)*a + (size_t)oldn * elsize, 0, (size_t)(n - oldn) * elsize);
}
