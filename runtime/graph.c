/*
 * graph.c: the compressed sparse row form of §9 and what is built on it.
 *
 * An edge list becomes a CSR by a counting sort on the source (one pass
 * to count out-degrees, a prefix sum into the 64-bit offsets, one pass to
 * scatter), after which each adjacency list is sorted by (dst, weight):
 * the same graph then has the same CSR whatever format it came in, and
 * look-ups may binary-search.  The reverse CSR (in-edges) is the same
 * counting sort on the destination.
 */
#include "internal.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- edge lists ------------------------------------------------------------ */

void fal_edge_list_grow(fal_edge_list *l)
{
  int64_t cap = l->cap ? l->cap * 2 : 1024;
  l->src = fal_realloc(l->src, (size_t)cap * sizeof *l->src);
  l->dst = fal_realloc(l->dst, (size_t)cap * sizeof *l->dst);
  l->w = fal_realloc(l->w, (size_t)cap * sizeof *l->w);
  l->cap = cap;
}

void fal_edge_list_free(fal_edge_list *l)
{
  free(l->src);
  free(l->dst);
  free(l->w);
  memset(l, 0, sizeof *l);
}

/* ---- building the CSR -------------------------------------------------------- */

/* Counts the out-degree of each point into offsets[p + 1]. */
static void count_degrees(int64_t *offsets, const fal_edge_list *l,
                          int directed)
{
  for (int64_t i = 0; i < l->n; i++) {
    offsets[l->src[i] + 1]++;
    if (!directed && l->src[i] != l->dst[i])
      offsets[l->dst[i] + 1]++;
  }
}

/* Scatters the edges; offsets[p] is p's next free slot and ends as the
 * start of p + 1. */
static void scatter(fal_graph *g, int64_t *next, const fal_edge_list *l,
                    int directed)
{
  for (int64_t i = 0; i < l->n; i++) {
    fal_point s = l->src[i], d = l->dst[i];
    int64_t e = next[s]++;
    g->dst[e] = d;
    g->weight[e] = l->w[i];
    if (!directed && s != d) {
      e = next[d]++;
      g->dst[e] = s;
      g->weight[e] = l->w[i];
    }
  }
}

void fal_graph_from_edges(fal_graph *g, int64_t npoints, fal_edge_list *l,
                          int directed)
{
  memset(g, 0, sizeof *g);
  g->npoints = npoints;
  g->directed = directed;
  g->offsets = fal_calloc((size_t)npoints + 1, sizeof *g->offsets);
  count_degrees(g->offsets, l, directed);
  for (int64_t p = 0; p < npoints; p++)
    g->offsets[p + 1] += g->offsets[p];
  g->nedges = g->offsets[npoints];
  g->dst = fal_alloc_array((size_t)g->nedges, sizeof *g->dst);
  g->weight = fal_alloc_array((size_t)g->nedges, sizeof *g->weight);
  scatter(g, g->offsets, l, directed);
  /* Each offsets[p] now holds the start of p + 1: shift them back. */
  memmove(g->offsets + 1, g->offsets, (size_t)npoints * sizeof *g->offsets);
  g->offsets[0] = 0;
  fal_edge_list_free(l);
  fal_graph_sort_adjacency(g);
}

/* ---- sorting adjacency lists -------------------------------------------------- */

/* (dst, weight) as one unsigned key: dst is non-negative and the weight's
 * sign bit is flipped so that signed order becomes unsigned order. */
static uint64_t edge_key(fal_point d, fal_weight w)
{
  return (uint64_t)(uint32_t)d << 32 | ((uint32_t)w ^ 0x80000000u);
}

static int compare_keys(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static void insertion_sort(fal_point *d, fal_weight *w, int64_t n)
{
  for (int64_t i = 1; i < n; i++) {
    fal_point dv = d[i];
    fal_weight wv = w[i];
    uint64_t k = edge_key(dv, wv);
    int64_t j = i;
    for (; j > 0 && edge_key(d[j - 1], w[j - 1]) > k; j--) {
      d[j] = d[j - 1];
      w[j] = w[j - 1];
    }
    d[j] = dv;
    w[j] = wv;
  }
}

static void sort_list(fal_point *d, fal_weight *w, int64_t n,
                      uint64_t **tmp, int64_t *tmp_cap)
{
  if (n <= 32) {
    insertion_sort(d, w, n);
    return;
  }
  if (n > *tmp_cap) {
    *tmp = fal_realloc(*tmp, (size_t)n * sizeof **tmp);
    *tmp_cap = n;
  }
  uint64_t *k = *tmp;
  for (int64_t i = 0; i < n; i++)
    k[i] = edge_key(d[i], w[i]);
  qsort(k, (size_t)n, sizeof *k, compare_keys);
  for (int64_t i = 0; i < n; i++) {
    d[i] = (fal_point)(k[i] >> 32);
    w[i] = (fal_weight)((uint32_t)k[i] ^ 0x80000000u);
  }
}

static int is_sorted(const fal_point *d, const fal_weight *w, int64_t n)
{
  for (int64_t i = 1; i < n; i++)
    if (edge_key(d[i - 1], w[i - 1]) > edge_key(d[i], w[i]))
      return 0;
  return 1;
}

void fal_graph_sort_adjacency(fal_graph *g)
{
  uint64_t *tmp = NULL;
  int64_t tmp_cap = 0;
  for (int64_t p = 0; p < g->npoints; p++) {
    int64_t b = g->offsets[p], n = g->offsets[p + 1] - b;
    if (!is_sorted(g->dst + b, g->weight + b, n))
      sort_list(g->dst + b, g->weight + b, n, &tmp, &tmp_cap);
  }
  free(tmp);
}

void fal_graph_simplify(fal_graph *g)
{
  int64_t out = 0, begin = 0;
  for (int64_t p = 0; p < g->npoints; p++) {
    int64_t end = g->offsets[p + 1];
    for (int64_t e = begin; e < end; e++) {
      fal_point d = g->dst[e];
      if (d == p || (e > begin && d == g->dst[e - 1]))
        continue;
      g->dst[out] = d;
      g->weight[out] = g->weight[e];
      out++;
    }
    begin = end;
    g->offsets[p + 1] = out;
  }
  g->nedges = out;
  g->dst = fal_realloc(g->dst, (size_t)out * sizeof *g->dst);
  g->weight = fal_realloc(g->weight, (size_t)out * sizeof *g->weight);
  free(g->src);
  g->src = NULL;
}

/* ---- derived arrays ------------------------------------------------------------ */

void fal_graph_build_sources(fal_graph *g)
{
  if (g->src)
    return;
  g->src = fal_alloc_array((size_t)g->nedges, sizeof *g->src);
  for (int64_t p = 0; p < g->npoints; p++)
    for (int64_t e = g->offsets[p]; e < g->offsets[p + 1]; e++)
      g->src[e] = (fal_point)p;
}

/* The reverse CSR by a counting sort on the destination; in-lists come
 * out sorted by source since points are visited in order. */
void fal_graph_build_in_edges(fal_graph *g)
{
  if (g->in_offsets)
    return;
  if (g->end) {
    fal_graph_build_in_edges_mutable(g);
    return;
  }
  int64_t n = g->npoints;
  int64_t *in_off = fal_calloc((size_t)n + 1, sizeof *in_off);
  for (int64_t e = 0; e < g->nedges; e++)
    in_off[g->dst[e] + 1]++;
  for (int64_t p = 0; p < n; p++)
    in_off[p + 1] += in_off[p];
  g->in_src = fal_alloc_array((size_t)g->nedges, sizeof *g->in_src);
  g->in_edge = fal_alloc_array((size_t)g->nedges, sizeof *g->in_edge);
  for (int64_t p = 0; p < n; p++)
    for (int64_t e = g->offsets[p]; e < g->offsets[p + 1]; e++) {
      int64_t slot = in_off[g->dst[e]]++;
      g->in_src[slot] = (fal_point)p;
      g->in_edge[slot] = e;
    }
  memmove(in_off + 1, in_off, (size_t)n * sizeof *in_off);
  in_off[0] = 0;
  g->in_offsets = in_off;
}

/* FALCON_PART_SHARES=a,b,...: part i's share of the edges is its number
 * over their sum (an experiment's knob: docs/scaling.md "A partition that
 * cuts fewer edges").  Fills cum[0..k] with the running sums and returns
 * true when the variable names k positive numbers; else false (with a
 * warning once, if it is set). */
static bool part_shares(int k, double *cum)
{
  static int warned;
  const char *e = getenv("FALCON_PART_SHARES");
  if (!e || !*e)
    return false;
  const char *p = e;
  int i = 0;
  cum[0] = 0;
  while (i < k) {
    char *end;
    double v = strtod(p, &end);
    if (end == p || !(v > 0) || v > 1e12)
      break;
    cum[i + 1] = cum[i] + v;
    i++;
    p = end;
    if (i == k || *p != ',') /* k numbers, or a trailing comma left to refuse */
      break;
    p++;
  }
  if (i == k && *p == '\0')
    return true;
  if (!warned) {
    warned = 1;
    fprintf(stderr, "falcon: warning: FALCON_PART_SHARES=%s is not %d positive numbers "
                    "separated by commas; the parts take equal shares of the edges\n", e, k);
  }
  return false;
}

void fal_graph_cut_ordered(const int64_t *off, int64_t base, int64_t n, int64_t m, int k,
                           int64_t *lo)
{
  double cum[65];
  bool sh = k >= 1 && k <= 64 && part_shares(k, cum);
  lo[0] = 0;
  for (int i = 1; i < k; i++) { /* the first point at or after i/k of the edges */
    int64_t want = m / k * i + m % k * i / k, a = lo[i - 1], b = n;
    if (sh) /* ... or at its share */
      want = (int64_t)((double)m * (cum[i] / cum[k]) + 0.5);
    while (a < b) {
      int64_t mid = a + (b - a) / 2;
      if (off[mid] + base < want)
        a = mid + 1;
      else
        b = mid;
    }
    lo[i] = a;
  }
  lo[k] = n;
}

void fal_graph_free(fal_graph *g)
{
  free(g->offsets);
  free(g->dst);
  free(g->weight);
  free(g->src);
  free(g->in_offsets);
  free(g->in_src);
  free(g->in_edge);
  fal_graph_free_mutable(g);
  memset(g, 0, sizeof *g);
}

static void *dup_array(const void *a, int64_t n, size_t size)
{
  if (!a)
    return NULL;
  void *d = fal_alloc((size_t)(n > 0 ? n : 1) * size);
  if (n > 0)
    memcpy(d, a, (size_t)n * size);
  return d;
}

/* A deep copy of src's structure, in either layout (§2: a getType graph
 * of a program that mutates gets a structure of its own).  Additions
 * still pending in src are not copied: settle it first. */
void fal_graph_clone(fal_graph *dst, const fal_graph *src)
{
  *dst = *src;
  int mut = src->end != NULL;
  int64_t np = mut ? src->point_cap : src->npoints;
  int64_t ne = mut ? src->slot_cap : src->nedges;
  dst->offsets = dup_array(src->offsets, np + 1, sizeof *src->offsets);
  dst->dst = dup_array(src->dst, ne, sizeof *src->dst);
  dst->weight = dup_array(src->weight, ne, sizeof *src->weight);
  dst->src = dup_array(src->src, ne, sizeof *src->src);
  int64_t nin = src->in_offsets ? src->in_offsets[src->npoints] : 0;
  dst->in_offsets = dup_array(src->in_offsets, src->npoints + 1, sizeof *src->in_offsets);
  dst->in_src = dup_array(src->in_src, nin, sizeof *src->in_src);
  dst->in_edge = dup_array(src->in_edge, nin, sizeof *src->in_edge);
  dst->end = dup_array(src->end, np, sizeof *src->end);
  dst->limit = dup_array(src->limit, np, sizeof *src->limit);
  dst->edel = dup_array(src->edel, ne, sizeof *src->edel);
  dst->pdel = dup_array(src->pdel, np, sizeof *src->pdel);
  dst->mut = NULL;
  if (mut && fal_graph_attach_mutation(dst) != 0)
    exit(1);
}

/* ---- weights ---------------------------------------------------------------------- */

/* SplitMix64's finaliser (Steele, Lea and Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014) as a hash. */
static uint64_t mix64(uint64_t x)
{
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

void fal_graph_random_weights(fal_graph *g, uint64_t seed, fal_weight lo,
                              fal_weight hi)
{
  if (lo > hi) {
    fal_weight t = lo;
    lo = hi;
    hi = t;
  }
  uint64_t range = (uint64_t)((int64_t)hi - lo) + 1;
  for (int64_t p = 0; p < g->npoints; p++)
    for (int64_t e = g->offsets[p]; e < g->offsets[p + 1]; e++) {
      uint64_t a = (uint64_t)p, b = (uint64_t)g->dst[e];
      if (a > b) {
        uint64_t t = a;
        a = b;
        b = t;
      }
      uint64_t h = mix64(mix64(seed) ^ (a << 32 | b));
      g->weight[e] = (fal_weight)((int64_t)lo + (int64_t)(h % range));
    }
}

/* ---- byte order ------------------------------------------------------------------- */

int fal_little_endian(void)
{
  const uint16_t one = 1;
  return *(const unsigned char *)&one == 1;
}

void fal_swap_bytes(void *p, size_t size, size_t n)
{
  unsigned char *b = p;
  for (size_t i = 0; i < n; i++, b += size)
    for (size_t j = 0; j < size / 2; j++) {
      unsigned char t = b[j];
      b[j] = b[size - 1 - j];
      b[size - 1 - j] = t;
    }
}
