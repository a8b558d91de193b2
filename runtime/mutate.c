/*
 * mutate.c: the mutable graph layout of §6 (falcon/graph.h "mutation").
 *
 * Layout: point p owns the slot region [offsets[p], limit[p]); its slots
 * in use are [offsets[p], end[p]); every other slot has edel = 1, so an
 * edge loop over slots 0..nslots-1 that skips edel sees exactly the live
 * edges.  Regions are contiguous and in point order (limit[p] equals
 * offsets[p + 1]); ids in [npoints, point_cap) are given empty regions at
 * nslots ahead of time, so handing out a point id is one fetch-and-add.
 *
 * Concurrency: add_edge claims a slot by compare-and-swap on end[u] below
 * limit[u] (end never passes limit), writes dst, weight and src, then
 * clears edel with a release store.  When the region is full, or u or v
 * has no per-point storage yet (id >= point_cap), the edge goes to the
 * overflow list: chunks of doubling size found from the entry's index, a
 * chunk allocated by whoever first needs it (compare-and-swap on its
 * pointer), so appending takes no lock.  Only settle, run by the host
 * between parallel loops, reads the overflow and reallocates.
 */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RLX __ATOMIC_RELAXED
#define ACQ __ATOMIC_ACQUIRE
#define REL __ATOMIC_RELEASE
#define SEQ __ATOMIC_SEQ_CST

/* ---- the overflow list -------------------------------------------------- */

/* An edge u -> v waiting for settle; v == -1 marks "delete point u" for a
 * point that has no pdel entry yet. */
typedef struct ov_entry {
  fal_point u, v;
  fal_weight w;
} ov_entry;

enum { OV_FIRST = 256, OV_CHUNKS = 40 };

/* Chunk k holds OV_FIRST << k entries, the first of index
 * OV_FIRST * (2^k - 1). */
struct fal_mutation {
  int64_t n; /* entries claimed */
  ov_entry *chunk[OV_CHUNKS];
};

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fputs("falcon: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(1);
}

static ov_entry *ov_at(struct fal_mutation *m, int64_t i, int create)
{
  uint64_t q = (uint64_t)i / OV_FIRST + 1;
  int k = 63 - __builtin_clzll(q);
  if (k >= OV_CHUNKS)
    die("addEdge: too many edges waiting for the graph to grow");
  int64_t first = (int64_t)OV_FIRST * (((int64_t)1 << k) - 1);
  ov_entry *c = __atomic_load_n(&m->chunk[k], ACQ);
  if (!c && create) {
    ov_entry *fresh = fal_alloc_array((size_t)OV_FIRST << k, sizeof *fresh);
    if (__atomic_compare_exchange_n(&m->chunk[k], &c, fresh, 0, SEQ, ACQ))
      c = fresh;
    else
      free(fresh); /* another thread's chunk won; c holds it */
  }
  return c + (i - first);
}

static void ov_push(fal_graph *g, fal_point u, fal_point v, fal_weight w)
{
  int64_t i = __atomic_fetch_add(&g->mut->n, 1, SEQ);
  *ov_at(g->mut, i, 1) = (ov_entry){u, v, w};
}

static void ov_clear(struct fal_mutation *m)
{
  for (int k = 0; k < OV_CHUNKS; k++) {
    free(m->chunk[k]);
    m->chunk[k] = NULL;
  }
  m->n = 0;
}

static void mark_dirty(fal_graph *g)
{
  if (!__atomic_load_n(&g->dirty, RLX))
    __atomic_store_n(&g->dirty, 1, RLX);
}

/* ---- building a layout ---------------------------------------------------- */

/* A layout being built; installed into the graph only when complete. */
typedef struct layout {
  int64_t *offsets, *end, *limit;
  unsigned char *pdel, *edel;
  fal_point *dst, *src;
  fal_weight *weight;
  int64_t *from; /* old slot of each new slot, -1 for none */
} layout;

/* calloc of n elements, or NULL (no exit: settle reports -1 instead). */
static void *try_calloc(int64_t n, size_t size)
{
  if (n < 0 || (uint64_t)n > SIZE_MAX / size - 1)
    return NULL;
  return calloc((size_t)n + 1, size);
}

static void layout_free(layout *l)
{
  free(l->offsets);
  free(l->end);
  free(l->limit);
  free(l->pdel);
  free(l->edel);
  free(l->dst);
  free(l->src);
  free(l->weight);
  free(l->from);
  memset(l, 0, sizeof *l);
}

/* Allocates a layout of pcap points and scap slots: every slot unused
 * (edel 1, from -1), pdel zero.  0, or -1 with nothing allocated. */
static int layout_alloc(layout *l, int64_t pcap, int64_t scap)
{
  memset(l, 0, sizeof *l);
  l->offsets = try_calloc(pcap + 1, sizeof *l->offsets);
  l->end = try_calloc(pcap, sizeof *l->end);
  l->limit = try_calloc(pcap, sizeof *l->limit);
  l->pdel = try_calloc(pcap, 1);
  l->edel = try_calloc(scap, 1);
  l->dst = try_calloc(scap, sizeof *l->dst);
  l->src = try_calloc(scap, sizeof *l->src);
  l->weight = try_calloc(scap, sizeof *l->weight);
  l->from = try_calloc(scap, sizeof *l->from);
  if (!l->offsets || !l->end || !l->limit || !l->pdel || !l->edel || !l->dst ||
      !l->src || !l->weight || !l->from) {
    layout_free(l);
    return -1;
  }
  memset(l->edel, 1, (size_t)scap + 1);
  memset(l->from, 0xff, ((size_t)scap + 1) * sizeof *l->from);
  return 0;
}

static int out_of_memory(const char *what, int64_t points, int64_t slots)
{
  fprintf(stderr,
          "falcon: error: out of memory %s (%lld points, %lld edge slots)\n",
          what, (long long)points, (long long)slots);
  return -1;
}

/* Regions of ids [from, pcap) are empty, at the end of the used slots. */
static void empty_regions(layout *l, int64_t from, int64_t pcap, int64_t nslots)
{
  for (int64_t p = from; p < pcap; p++)
    l->offsets[p] = l->end[p] = l->limit[p] = nslots;
  l->offsets[pcap] = nslots;
}

static void free_in_edges(fal_graph *g)
{
  free(g->in_offsets);
  free(g->in_src);
  free(g->in_edge);
  g->in_offsets = NULL;
  g->in_src = NULL;
  g->in_edge = NULL;
}

/* Replaces g's arrays by l's (from stays with l). */
static void layout_install(fal_graph *g, layout *l, int64_t nslots,
                           int64_t scap, int64_t pcap)
{
  free(g->offsets);
  free(g->end);
  free(g->limit);
  free(g->pdel);
  free(g->edel);
  free(g->dst);
  free(g->src);
  free(g->weight);
  g->offsets = l->offsets;
  g->end = l->end;
  g->limit = l->limit;
  g->pdel = l->pdel;
  g->edel = l->edel;
  g->dst = l->dst;
  g->src = l->src;
  g->weight = l->weight;
  g->nslots = nslots;
  g->slot_cap = scap;
  g->point_cap = pcap;
}

static void tell_moves(fal_graph_move_fn move, void *arg, const int64_t *from,
                       int64_t old_scap, int64_t scap, int64_t old_pcap,
                       int64_t pcap)
{
  if (!move)
    return;
  fal_graph_moves m = {from, old_scap, scap, old_pcap, pcap};
  move(arg, &m);
}

/* Layout copies run on OpenMP threads from this many points on. */
enum { PAR_MIN = 1 << 16 };

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* ---- making a graph mutable ---------------------------------------------- */

int fal_graph_make_mutable_with(fal_graph *g, int factor,
                                fal_graph_move_fn move, void *arg)
{
  if (g->end)
    return 0;
  if (factor < 3)
    factor = 3; /* §6: at least 3x spare */
  int64_t n = g->npoints, m = g->nedges, total = 0;
  for (int64_t p = 0; p < n; p++)
    total += max64(factor * (g->offsets[p + 1] - g->offsets[p]), 4);
  int64_t pcap = factor * n + 16;
  layout l;
  struct fal_mutation *mu = calloc(1, sizeof *mu);
  if (!mu || layout_alloc(&l, pcap, total) != 0) {
    free(mu);
    return out_of_memory("making the graph mutable", pcap, total);
  }
  int64_t pos = 0;
  for (int64_t p = 0; p < n; p++) {
    int64_t deg = g->offsets[p + 1] - g->offsets[p];
    l.offsets[p] = pos;
    l.end[p] = pos + deg;
    pos += max64(factor * deg, 4);
    l.limit[p] = pos;
  }
  empty_regions(&l, n, pcap, total);
#pragma omp parallel for schedule(dynamic, 4096) if (n > PAR_MIN)
  for (int64_t p = 0; p < n; p++) {
    int64_t o = g->offsets[p], deg = g->offsets[p + 1] - o, s = l.offsets[p];
    if (deg) {
      memcpy(l.dst + s, g->dst + o, (size_t)deg * sizeof *l.dst);
      memcpy(l.weight + s, g->weight + o, (size_t)deg * sizeof *l.weight);
      memset(l.edel + s, 0, (size_t)deg);
    }
    for (int64_t i = 0; i < deg; i++) {
      l.src[s + i] = (fal_point)p;
      l.from[s + i] = o + i;
    }
  }
  int had_in_edges = g->in_offsets != NULL;
  free_in_edges(g);
  layout_install(g, &l, total, total, pcap);
  g->mut = mu;
  g->grows = 0;
  g->dirty = 0;
  g->version++;
  if (had_in_edges)
    fal_graph_build_in_edges_mutable(g);
  tell_moves(move, arg, l.from, m, total, n, pcap);
  free(l.from);
  return 0;
}

int fal_graph_make_mutable(fal_graph *g, int factor)
{
  return fal_graph_make_mutable_with(g, factor, NULL, NULL);
}

int fal_graph_is_mutable(const fal_graph *g) { return g->end != NULL; }

int fal_graph_attach_mutation(fal_graph *g)
{
  if (g->mut)
    return 0;
  g->mut = calloc(1, sizeof *g->mut);
  if (!g->mut)
    return out_of_memory("making the graph mutable", g->point_cap, g->slot_cap);
  return 0;
}

/* ---- adding and deleting ---------------------------------------------------- */

static void need_mutable(const fal_graph *g, const char *op)
{
  if (!g->end)
    die("%s on a graph that was not made mutable", op);
}

fal_point fal_graph_add_point(fal_graph *g)
{
  need_mutable(g, "addPoint");
  int64_t id = __atomic_fetch_add(&g->npoints, 1, SEQ);
  if (id > INT32_MAX)
    die("addPoint: more than %lld points", (long long)INT32_MAX + 1);
  mark_dirty(g);
  return (fal_point)id;
}

fal_edge fal_graph_add_edge(fal_graph *g, fal_point u, fal_point v,
                            fal_weight w)
{
  need_mutable(g, "addEdge");
  int64_t n = __atomic_load_n(&g->npoints, RLX);
  if (u < 0 || u >= n || v < 0 || v >= n)
    die("addEdge(%d, %d): no such point", u, v);
  mark_dirty(g);
  __atomic_fetch_add(&g->nedges, 1, SEQ);
  if (u < g->point_cap && v < g->point_cap) {
    int64_t lim = g->limit[u], e = __atomic_load_n(&g->end[u], RLX);
    while (e < lim)
      if (__atomic_compare_exchange_n(&g->end[u], &e, e + 1, 1, SEQ, RLX)) {
        g->dst[e] = v;
        g->weight[e] = w;
        g->src[e] = u;
        __atomic_store_n(&g->edel[e], 0, REL);
        return e;
      }
  }
  ov_push(g, u, v, w);
  return -1;
}

void fal_graph_del_edge(fal_graph *g, fal_edge e)
{
  need_mutable(g, "deledge");
  if (e < 0 || e >= g->nslots)
    die("deledge(%lld): no such edge", (long long)e);
  if (__atomic_exchange_n(&g->edel[e], 1, SEQ) == 0) {
    __atomic_fetch_sub(&g->nedges, 1, SEQ);
    mark_dirty(g);
  }
}

void fal_graph_del_point(fal_graph *g, fal_point p)
{
  need_mutable(g, "delpoint");
  if (p < 0 || p >= __atomic_load_n(&g->npoints, RLX))
    die("delpoint(%d): no such point", p);
  if (p >= g->point_cap)
    ov_push(g, p, -1, 0); /* no pdel entry yet: settle marks it */
  else if (__atomic_exchange_n(&g->pdel[p], 1, SEQ) == 0)
    mark_dirty(g);
}

/* ---- settle: growing ------------------------------------------------------------ */

/* Fewer spare point ids than points: the next parallel loop could not
 * double the points (§6 wants 3x room), so settle grows ahead of time. */
static int points_short(int64_t npoints, int64_t point_cap)
{
  return 2 * npoints > point_cap;
}

static int grow(fal_graph *g, fal_graph_move_fn move, void *arg)
{
  struct fal_mutation *mu = g->mut;
  int64_t n = g->npoints, old_pcap = g->point_cap, old_scap = g->slot_cap;
  int64_t nov = mu->n, kept = n < old_pcap ? n : old_pcap;
  /* Live slots of each point, then its overflowed edges. */
  int64_t *cnt = try_calloc(n, sizeof *cnt);
  if (!cnt)
    return out_of_memory("growing the graph", n, old_scap);
#pragma omp parallel for schedule(dynamic, 4096) if (kept > PAR_MIN)
  for (int64_t p = 0; p < kept; p++) {
    int64_t c = 0;
    for (int64_t s = g->offsets[p]; s < g->end[p]; s++)
      c += !g->edel[s];
    cnt[p] = c;
  }
  for (int64_t i = 0; i < nov; i++) {
    const ov_entry *o = ov_at(mu, i, 0);
    if (o->v >= 0)
      cnt[o->u]++;
  }
  int64_t total = 0;
  for (int64_t p = 0; p < n; p++)
    total += max64(3 * cnt[p], 4);
  int64_t scap = total > old_scap ? max64(2 * old_scap, total) : old_scap;
  int64_t pcap = points_short(n, old_pcap) ? max64(2 * old_pcap, 3 * n + 16)
                                            : old_pcap;
  layout l;
  if (layout_alloc(&l, pcap, scap) != 0) {
    free(cnt);
    return out_of_memory("growing the graph", pcap, scap);
  }
  int64_t pos = 0;
  for (int64_t p = 0; p < n; p++) {
    l.offsets[p] = pos;
    pos += max64(3 * cnt[p], 4);
    l.limit[p] = pos;
  }
  free(cnt);
  empty_regions(&l, n, pcap, total);
  /* Live slots keep their order; deleted ones are dropped. */
#pragma omp parallel for schedule(dynamic, 4096) if (n > PAR_MIN)
  for (int64_t p = 0; p < n; p++) {
    int64_t q = l.offsets[p];
    if (p < kept)
      for (int64_t s = g->offsets[p]; s < g->end[p]; s++)
        if (!g->edel[s]) {
          l.dst[q] = g->dst[s];
          l.weight[q] = g->weight[s];
          l.src[q] = (fal_point)p;
          l.edel[q] = 0;
          l.from[q] = s;
          q++;
        }
    l.end[p] = q;
  }
  /* Then the overflow, in the order it was added. */
  if (old_pcap)
    memcpy(l.pdel, g->pdel, (size_t)old_pcap);
  for (int64_t i = 0; i < nov; i++) {
    const ov_entry *o = ov_at(mu, i, 0);
    if (o->v < 0) {
      l.pdel[o->u] = 1;
      continue;
    }
    int64_t q = l.end[o->u]++;
    l.dst[q] = o->v;
    l.weight[q] = o->w;
    l.src[q] = o->u;
    l.edel[q] = 0;
  }
  ov_clear(mu);
  layout_install(g, &l, total, scap, pcap);
  g->grows++;
  tell_moves(move, arg, l.from, old_scap, scap, old_pcap, pcap);
  free(l.from);
  return 0;
}

int fal_graph_settle(fal_graph *g, fal_graph_move_fn move, void *arg)
{
  if (!g->end)
    return 0;
  int grew = 0;
  if (g->mut->n > 0 || points_short(g->npoints, g->point_cap)) {
    if (grow(g, move, arg) != 0)
      return -1;
    grew = 1;
  }
  if (grew || g->dirty) {
    g->version++;
    g->dirty = 0;
    if (g->in_offsets) {
      free_in_edges(g);
      fal_graph_build_in_edges_mutable(g);
    }
  }
  if (grew && fal_verbose())
    fprintf(stderr, "falcon: graph grown: %lld points, %lld edge slots (growth %lld)\n",
            (long long)g->point_cap, (long long)g->slot_cap, (long long)g->grows);
  return grew;
}

/* ---- in-edges and freeing ------------------------------------------------------ */

/* A counting sort on the destination over live edges between live
 * points; in_edge holds slots. */
void fal_graph_build_in_edges_mutable(fal_graph *g)
{
  int64_t n = g->npoints < g->point_cap ? g->npoints : g->point_cap;
  int64_t pcap = g->point_cap;
  int64_t *in_off = fal_calloc((size_t)pcap + 1, sizeof *in_off);
  for (int64_t p = 0; p < n; p++)
    if (!g->pdel[p])
      for (int64_t s = g->offsets[p]; s < g->end[p]; s++)
        if (!g->edel[s] && !g->pdel[g->dst[s]])
          in_off[g->dst[s] + 1]++;
  for (int64_t p = 0; p < pcap; p++)
    in_off[p + 1] += in_off[p];
  int64_t m = in_off[pcap];
  g->in_src = fal_alloc_array((size_t)m, sizeof *g->in_src);
  g->in_edge = fal_alloc_array((size_t)m, sizeof *g->in_edge);
  for (int64_t p = 0; p < n; p++)
    if (!g->pdel[p])
      for (int64_t s = g->offsets[p]; s < g->end[p]; s++)
        if (!g->edel[s] && !g->pdel[g->dst[s]]) {
          int64_t i = in_off[g->dst[s]]++;
          g->in_src[i] = (fal_point)p;
          g->in_edge[i] = s;
        }
  memmove(in_off + 1, in_off, (size_t)pcap * sizeof *in_off);
  in_off[0] = 0;
  g->in_offsets = in_off;
}

void fal_graph_free_mutable(fal_graph *g)
{
  free(g->end);
  free(g->limit);
  free(g->edel);
  free(g->pdel);
  if (g->mut) {
    ov_clear(g->mut);
    free(g->mut);
  }
  g->end = g->limit = NULL;
  g->edel = g->pdel = NULL;
  g->mut = NULL;
}
