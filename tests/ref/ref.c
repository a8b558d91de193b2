/*
 * ref.c: falref, the serial reference implementations that verify the
 * results of falconc's sample programs (in the spirit of GAPBS's verifiers:
 * one simple, obviously correct serial code per algorithm).
 *
 *   falref sssp GRAPH SRC OUT    Dijkstra, indexed binary heap (decrease-key)
 *   falref bfs GRAPH SRC OUT     breadth-first search levels, FIFO queue
 *   falref cc GRAPH OUT          weakly connected components, union-find
 *                                (link to the smaller root, path halving)
 *   falref tc GRAPH OUT          triangle counting: deduplicated undirected
 *                                edges oriented by (degree, id), each
 *                                triangle found once by intersecting the
 *                                out-lists of an edge's ends
 *   falref pagerank GRAPH OUT    PageRank by power iteration (pull over
 *                                in-edges), d = 0.85, dangling mass leaks
 *   falref mst GRAPH OUT         minimum spanning forest, Kruskal: every
 *                                stored edge u->v (u != v) taken as an
 *                                undirected edge, sorted by (weight, min
 *                                end, max end), union-find as for cc
 *   falref matching GRAPH OUT    greedy maximal matching in edge-id (CSR)
 *                                order, self loops skipped
 *   falref compare KIND A B      compares two result files (KIND: exact,
 *                                cc, tc, pagerank, lines)
 *   falref selftest              checks every algorithm and comparison on
 *                                tiny hand-computed cases
 *
 * Result files: one line `p value` per point p = 0..n-1 in order (sssp and
 * bfs: distance or level, 2147483647 when unreachable; cc: the smallest
 * point id of the component; pagerank: %.12e; matching: the mate, -1 when
 * unmatched), or `triangles N` for tc, or the two lines `weight W` (the
 * forest's total weight, 64-bit) and `edges K` (npoints - components) for
 * mst.
 *
 * compare KIND: exact wants the same `p value` lines; cc the same
 * partition under any labels; tc the same count; pagerank values within
 * 1e-6 + 1e-4 * |B|; lines byte-identical files, line by line (for mst, or
 * any other text), reporting the first line that differs.
 *
 * Exit status: 0 success (compare: equal), 1 compare found a difference or
 * selftest failed, 2 usage, I/O or malformed input.
 *
 * Graphs come only through include/falcon/graph.h (fal_graph_read with
 * FAL_FORMAT_AUTO).  Everything is iterative and linear in memory: on
 * graphs of 1M points and 30M edges each command takes a few seconds (TC
 * about 15 s, MST about 10 s) and under 700 MB in all, except MST, which
 * sorts a 12-byte copy of every edge (the graph is freed first) and may
 * take about twice the copy's size while qsort runs: about 750 MB.
 *
 * Build (from the repository root, after libfalcon is built):
 *
 *   cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -I include tests/ref/ref.c \
 *      build/libfalcon.a -lz -llzma -lm -o build/falref
 */
#include "falcon/graph.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_EQUAL = 0, EXIT_DIFFER = 1, EXIT_ERROR = 2 };

/* The distance or level written for points that cannot be reached. */
#define UNREACHED INT64_C(2147483647)

/* How many differences compare lists before summarising. */
#define MAX_REPORTED 10

/* PageRank parameters (fixed by the samples being verified). */
#define PR_DAMPING 0.85
#define PR_EPSILON 1e-4 /* the samples' rule: GAPBS's and Gardenia's */
#define PR_MAX_ITERATIONS 100

/* compare pagerank accepts |a - b| <= PR_ABS_TOL + PR_REL_TOL * |b|. */
#define PR_ABS_TOL 1e-6
#define PR_REL_TOL 1e-4

static const char usage_text[] =
    "usage: falref sssp GRAPH SRC OUT\n"
    "       falref bfs GRAPH SRC OUT\n"
    "       falref cc GRAPH OUT\n"
    "       falref tc GRAPH OUT\n"
    "       falref pagerank GRAPH OUT\n"
    "       falref mst GRAPH OUT\n"
    "       falref matching GRAPH OUT\n"
    "       falref compare exact|cc|tc|pagerank|lines A B\n"
    "       falref selftest\n"
    "\n"
    "Serial reference results for falconc's samples.  GRAPH is any format\n"
    "fal_graph_read detects.  compare exits 0 when A and B agree, 1 when\n"
    "they differ, 2 on errors; pagerank's relative tolerance scales with B\n"
    "(conventionally the reference); lines compares the files byte for\n"
    "byte (use it for mst's 'weight W' / 'edges K').\n";

/* ---- errors and allocation ---------------------------------------------- */

/* Prints `falref: error: ...` and exits with EXIT_ERROR. */
static _Noreturn void fail_with(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static _Noreturn void fail_with(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fputs("falref: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(EXIT_ERROR);
}

static _Noreturn void usage_error(const char *why)
{
  fprintf(stderr, "falref: error: %s\n"
          "Try 'falref --help' for more information.\n", why);
  exit(EXIT_ERROR);
}

/* malloc for falref's own arrays; out of memory is an error (status 2,
 * which fal_alloc's status 1 would confuse with "compare found a
 * difference"). */
static void *xmalloc(size_t n)
{
  void *p = malloc(n ? n : 1);
  if (!p)
    fail_with("out of memory (%zu bytes)", n);
  return p;
}

static void *xrealloc(void *p, size_t n)
{
  p = realloc(p, n ? n : 1);
  if (!p)
    fail_with("out of memory (%zu bytes)", n);
  return p;
}

/* An array of n elements of `size` bytes, checking n * size for overflow. */
static void *xarray(int64_t n, size_t size)
{
  if (n < 0 || (uint64_t)n > SIZE_MAX / size)
    fail_with("array of %" PRId64 " elements is too large", n);
  return xmalloc((size_t)n * size);
}

/* ---- loading graphs ----------------------------------------------------- */

/* Rejects a graph whose CSR arrays are inconsistent, so that a loader bug
 * shows up as an error instead of as a silently wrong reference result. */
static int check_csr(const char *what, int64_t n, int64_t m,
                     const int64_t *off, const fal_point *adj)
{
  if (!off && n == 0 && m == 0)
    return 0; /* an empty graph may come without offsets */
  if (!off || (m > 0 && !adj) || off[0] != 0 || off[n] != m) {
    fprintf(stderr, "falref: error: %s: inconsistent offsets\n", what);
    return -1;
  }
  for (int64_t p = 0; p < n; p++)
    if (off[p] > off[p + 1]) {
      fprintf(stderr, "falref: error: %s: offsets decrease at %" PRId64 "\n",
              what, p);
      return -1;
    }
  for (int64_t e = 0; e < m; e++)
    if (adj[e] < 0 || adj[e] >= n) {
      fprintf(stderr, "falref: error: %s: edge %" PRId64 " ends at %" PRId32
              ", not a point\n", what, e, adj[e]);
      return -1;
    }
  return 0;
}

/* Reads GRAPH into *g (any format); exits with status 2 on failure. */
static void load_graph(fal_graph *g, const char *path)
{
  memset(g, 0, sizeof *g);
  if (fal_graph_read(g, path, FAL_FORMAT_AUTO) != 0)
    exit(EXIT_ERROR); /* fal_graph_read has printed the reason */
  if (g->npoints < 0 || g->npoints > INT32_MAX || g->nedges < 0)
    fail_with("%s: bad sizes (%" PRId64 " points, %" PRId64 " edges)", path,
              g->npoints, g->nedges);
  if (check_csr(path, g->npoints, g->nedges, g->offsets, g->dst) != 0)
    exit(EXIT_ERROR);
  if (g->nedges > 0 && !g->weight)
    fail_with("%s: the loader gave no weights", path);
}

/* Parses SRC, which must name a point of g. */
static fal_point parse_source_point(const fal_graph *g, const char *s)
{
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (g->npoints == 0)
    fail_with("the graph has no points, so no source '%s'", s);
  if (end == s || *end != '\0' || errno != 0 || v < 0 || v >= g->npoints)
    fail_with("source '%s' is not a point of the graph (0..%" PRId64 ")", s,
              g->npoints - 1);
  return (fal_point)v;
}

/* ---- BFS ---------------------------------------------------------------- */

/* Levels by breadth-first search over out-edges from src (level 0);
 * UNREACHED elsewhere.  Each point enters the FIFO queue once. */
static int64_t *ref_bfs(const fal_graph *g, fal_point src)
{
  int64_t n = g->npoints, head = 0, tail = 0;
  int64_t *level = xarray(n, sizeof *level);
  fal_point *queue = xarray(n, sizeof *queue);
  for (int64_t p = 0; p < n; p++)
    level[p] = UNREACHED;
  level[src] = 0;
  queue[tail++] = src;
  while (head < tail) {
    fal_point u = queue[head++];
    for (int64_t e = g->offsets[u]; e < g->offsets[u + 1]; e++) {
      fal_point v = g->dst[e];
      if (level[v] == UNREACHED) {
        level[v] = level[u] + 1;
        queue[tail++] = v;
      }
    }
  }
  free(queue);
  return level;
}

/* ---- SSSP: Dijkstra with an indexed binary min-heap --------------------- */

/* A binary min-heap of points keyed by key[p]; pos[p] is p's index in
 * item[], or -1 when p is not in the heap (so decrease-key is O(log n) and
 * the heap never holds more than n entries). */
typedef struct ref_heap {
  fal_point *item;
  int64_t *pos;
  const int64_t *key;
  int64_t size;
} ref_heap;

static void heap_place(ref_heap *h, int64_t i, fal_point p)
{
  h->item[i] = p;
  h->pos[p] = i;
}

/* Moves item i towards the root while its key is smaller than its parent's. */
static void heap_sift_up(ref_heap *h, int64_t i)
{
  fal_point p = h->item[i];
  while (i > 0) {
    int64_t parent = (i - 1) / 2;
    if (h->key[h->item[parent]] <= h->key[p])
      break;
    heap_place(h, i, h->item[parent]);
    i = parent;
  }
  heap_place(h, i, p);
}

/* Moves item i towards the leaves while a child has a smaller key. */
static void heap_sift_down(ref_heap *h, int64_t i)
{
  fal_point p = h->item[i];
  for (;;) {
    int64_t c = 2 * i + 1;
    if (c >= h->size)
      break;
    if (c + 1 < h->size && h->key[h->item[c + 1]] < h->key[h->item[c]])
      c++;
    if (h->key[p] <= h->key[h->item[c]])
      break;
    heap_place(h, i, h->item[c]);
    i = c;
  }
  heap_place(h, i, p);
}

/* Inserts p, or restores the order after key[p] decreased. */
static void heap_push_or_decrease(ref_heap *h, fal_point p)
{
  if (h->pos[p] < 0)
    heap_place(h, h->size++, p);
  heap_sift_up(h, h->pos[p]);
}

static fal_point heap_pop_min(ref_heap *h)
{
  fal_point top = h->item[0];
  h->pos[top] = -1;
  if (--h->size > 0) {
    heap_place(h, 0, h->item[h->size]);
    heap_sift_down(h, 0);
  }
  return top;
}

/* Relaxes the out-edges of u (whose distance is final). */
static void dijkstra_relax(const fal_graph *g, int64_t *dist, ref_heap *h,
                           fal_point u)
{
  for (int64_t e = g->offsets[u]; e < g->offsets[u + 1]; e++) {
    fal_point v = g->dst[e];
    int64_t d = dist[u] + g->weight[e];
    if (dist[v] == UNREACHED || d < dist[v]) {
      dist[v] = d;
      heap_push_or_decrease(h, v);
    }
  }
}

/* Shortest distances from src along out-edges (64-bit sums of the int32
 * weights, which must be >= 0); UNREACHED where there is no path. */
static int64_t *ref_sssp(const fal_graph *g, fal_point src)
{
  int64_t n = g->npoints;
  int64_t *dist = xarray(n, sizeof *dist);
  ref_heap h = {xarray(n, sizeof(fal_point)), xarray(n, sizeof(int64_t)),
                dist, 0};
  for (int64_t p = 0; p < n; p++) {
    dist[p] = UNREACHED;
    h.pos[p] = -1;
  }
  dist[src] = 0;
  heap_push_or_decrease(&h, src);
  while (h.size > 0)
    dijkstra_relax(g, dist, &h, heap_pop_min(&h));
  free(h.item);
  free(h.pos);
  return dist;
}

/* Dijkstra is only correct without negative weights: refuse them. */
static void check_weights_nonnegative(const fal_graph *g, const char *path)
{
  for (int64_t e = 0; e < g->nedges; e++)
    if (g->weight[e] < 0)
      fail_with("%s: edge %" PRId64 " has negative weight %" PRId32
                " (Dijkstra needs weights >= 0)", path, e, g->weight[e]);
}

/* ---- CC: union-find ----------------------------------------------------- */

/* The root of x, halving the path on the way (each visited point is
 * re-linked to its grandparent; roots never change here). */
static fal_point uf_find(fal_point *parent, fal_point x)
{
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

/* Joins the sets of a and b, linking the larger root below the smaller, so
 * every root is the smallest point of its set.  Returns 1 when a and b were
 * in different sets (an MST edge), 0 when already joined. */
static int uf_union(fal_point *parent, fal_point a, fal_point b)
{
  a = uf_find(parent, a);
  b = uf_find(parent, b);
  if (a < b)
    parent[b] = a;
  else if (b < a)
    parent[a] = b;
  return a != b;
}

/* Weakly connected components: label[p] = smallest point id of p's
 * component, every edge taken as undirected. */
static int64_t *ref_cc(const fal_graph *g)
{
  int64_t n = g->npoints;
  fal_point *parent = xarray(n, sizeof *parent);
  int64_t *label = xarray(n, sizeof *label);
  for (int64_t p = 0; p < n; p++)
    parent[p] = (fal_point)p;
  for (int64_t u = 0; u < n; u++)
    for (int64_t e = g->offsets[u]; e < g->offsets[u + 1]; e++)
      uf_union(parent, (fal_point)u, g->dst[e]);
  for (int64_t p = 0; p < n; p++)
    label[p] = uf_find(parent, (fal_point)p);
  free(parent);
  return label;
}

/* ---- TC: triangle counting ---------------------------------------------- */

/* A graph as bare CSR (offsets and neighbours), for TC's private graphs. */
typedef struct ref_csr {
  int64_t n;
  int64_t *off;
  fal_point *adj;
} ref_csr;

static void csr_free(ref_csr *c)
{
  free(c->off);
  free(c->adj);
  memset(c, 0, sizeof *c);
}

/* Turns counts in off[1..n] into offsets (off[0] = 0) and returns a copy of
 * off[0..n-1]: the next free slot of each list while filling it. */
static int64_t *csr_prefix_sum(int64_t n, int64_t *off)
{
  int64_t *next = xarray(n + 1, sizeof *next);
  off[0] = 0;
  for (int64_t p = 0; p < n; p++)
    off[p + 1] += off[p];
  memcpy(next, off, (size_t)(n + 1) * sizeof *next);
  return next;
}

/* Removes repeated neighbours from every list of c, compacting adj in
 * place (order kept); seen[w] == p when w is already in p's list. */
static void csr_dedup(ref_csr *c)
{
  fal_point *seen = xarray(c->n, sizeof *seen);
  int64_t out = 0, begin = 0;
  for (int64_t p = 0; p < c->n; p++)
    seen[p] = -1;
  for (fal_point p = 0; p < c->n; p++) {
    int64_t end = c->off[p + 1];
    c->off[p] = out;
    for (int64_t i = begin; i < end; i++)
      if (seen[c->adj[i]] != p) {
        seen[c->adj[i]] = p;
        c->adj[out++] = c->adj[i];
      }
    begin = end;
  }
  c->off[c->n] = out;
  free(seen);
}

/* The simple undirected graph under g, each edge {u, v} (u != v) stored
 * once, in the list of min(u, v) (duplicates removed). */
static ref_csr tc_unique_edges(const fal_graph *g)
{
  int64_t n = g->npoints;
  ref_csr c = {n, xarray(n + 1, sizeof(int64_t)), NULL};
  memset(c.off, 0, (size_t)(n + 1) * sizeof *c.off);
  for (int64_t u = 0; u < n; u++)
    for (int64_t e = g->offsets[u]; e < g->offsets[u + 1]; e++)
      if (g->dst[e] != u)
        c.off[(u < g->dst[e] ? u : g->dst[e]) + 1]++;
  int64_t *next = csr_prefix_sum(n, c.off);
  c.adj = xarray(c.off[n], sizeof *c.adj);
  for (int64_t u = 0; u < n; u++)
    for (int64_t e = g->offsets[u]; e < g->offsets[u + 1]; e++) {
      fal_point v = g->dst[e];
      if (v != u)
        c.adj[next[u < v ? u : v]++] = (fal_point)(u < v ? v : u);
    }
  free(next);
  csr_dedup(&c);
  return c;
}

/* The degree of every point of the simple undirected graph un. */
static int64_t *tc_degrees(const ref_csr *un)
{
  int64_t *deg = xarray(un->n, sizeof *deg);
  memset(deg, 0, (size_t)un->n * sizeof *deg);
  for (int64_t a = 0; a < un->n; a++)
    for (int64_t i = un->off[a]; i < un->off[a + 1]; i++) {
      deg[a]++;
      deg[un->adj[i]]++;
    }
  return deg;
}

/* The earlier of a and b in the (degree, id) order. */
static fal_point tc_first(const int64_t *deg, fal_point a, fal_point b)
{
  return deg[a] < deg[b] || (deg[a] == deg[b] && a < b) ? a : b;
}

/* Orients each edge of un (unique undirected edges) from the earlier to
 * the later end in the (degree, id) order: any total order counts each
 * triangle once, and this one bounds every out-list by sqrt(2m), so hubs
 * of skewed graphs do not make the intersections quadratic (ordering by id
 * alone would).  No list needs sorting: tc_count_at marks instead. */
static ref_csr tc_orient(const ref_csr *un)
{
  int64_t n = un->n;
  int64_t *deg = tc_degrees(un);
  ref_csr c = {n, xarray(n + 1, sizeof(int64_t)),
               xarray(un->off[n], sizeof(fal_point))};
  memset(c.off, 0, (size_t)(n + 1) * sizeof *c.off);
  for (fal_point a = 0; a < n; a++)
    for (int64_t i = un->off[a]; i < un->off[a + 1]; i++)
      c.off[tc_first(deg, a, un->adj[i]) + 1]++;
  int64_t *next = csr_prefix_sum(n, c.off);
  for (fal_point a = 0; a < n; a++)
    for (int64_t i = un->off[a]; i < un->off[a + 1]; i++) {
      fal_point b = un->adj[i], first = tc_first(deg, a, b);
      c.adj[next[first]++] = first == a ? b : a;
    }
  free(next);
  free(deg);
  return c;
}

/* Triangles x < y < z (in the orientation's order) with x = u: for each
 * out-neighbour v of u, the out-neighbours of v that are also out-
 * neighbours of u.  mark[w] == u flags the out-neighbours of u; it is a
 * set intersection like a merge of sorted lists, without the merge's cost
 * of walking u's whole list again for every v (3x faster on R-MAT). */
static int64_t tc_count_at(const ref_csr *c, fal_point u, fal_point *mark)
{
  int64_t triangles = 0;
  for (int64_t i = c->off[u]; i < c->off[u + 1]; i++)
    mark[c->adj[i]] = u;
  for (int64_t i = c->off[u]; i < c->off[u + 1]; i++) {
    fal_point v = c->adj[i];
    for (int64_t j = c->off[v]; j < c->off[v + 1]; j++)
      triangles += mark[c->adj[j]] == u;
  }
  return triangles;
}

/* Triangles of the simple undirected graph under g.  With edges oriented
 * by a total order, triangle x < y < z is counted exactly once: at u = x,
 * v = y, as the common out-neighbour z of x and y. */
static int64_t ref_tc(const fal_graph *g)
{
  ref_csr unique = tc_unique_edges(g);
  ref_csr c = tc_orient(&unique);
  fal_point *mark = xarray(c.n, sizeof *mark);
  int64_t triangles = 0;
  csr_free(&unique);
  for (int64_t p = 0; p < c.n; p++)
    mark[p] = -1;
  for (int64_t u = 0; u < c.n; u++)
    triangles += tc_count_at(&c, (fal_point)u, mark);
  free(mark);
  csr_free(&c);
  return triangles;
}

/* ---- PageRank ----------------------------------------------------------- */

/* One pull iteration: next[v] = (1-d)/n + d * sum over in-edges u->v of
 * rank[u] / outdeg(u).  Returns sum over v of |next[v] - rank[v]|. */
static double pagerank_step(const fal_graph *g, const double *rank,
                            double *contrib, double *next)
{
  int64_t n = g->npoints;
  double error = 0;
  for (int64_t u = 0; u < n; u++) {
    int64_t outdeg = g->offsets[u + 1] - g->offsets[u];
    contrib[u] = outdeg > 0 ? rank[u] / (double)outdeg : 0.0;
  }
  for (int64_t v = 0; v < n; v++) {
    double sum = 0;
    for (int64_t i = g->in_offsets[v]; i < g->in_offsets[v + 1]; i++)
      sum += contrib[g->in_src[i]];
    next[v] = (1.0 - PR_DAMPING) / (double)n + PR_DAMPING * sum;
    error += fabs(next[v] - rank[v]);
  }
  return error;
}

/* PageRank from rank 1/n, stopping after the iteration whose change is
 * below epsilon (PR_EPSILON for the samples; the self-test runs to 1e-9)
 * or after PR_MAX_ITERATIONS.  Points without out-edges leak their rank
 * (it is not redistributed).  Builds g's in-edges. */
static double *ref_pagerank(fal_graph *g, double epsilon)
{
  int64_t n = g->npoints;
  double *rank = xarray(n, sizeof *rank), *next = xarray(n, sizeof *next);
  double *contrib = xarray(n, sizeof *contrib);
  fal_graph_build_in_edges(g);
  if (check_csr("in-edges", n, g->nedges, g->in_offsets, g->in_src) != 0)
    exit(EXIT_ERROR);
  for (int64_t p = 0; p < n; p++)
    rank[p] = 1.0 / (double)n;
  for (int iter = 0; iter < PR_MAX_ITERATIONS; iter++) {
    double error = pagerank_step(g, rank, contrib, next);
    double *t = rank;
    rank = next;
    next = t;
    if (error < epsilon)
      break;
  }
  free(next);
  free(contrib);
  return rank;
}

/* ---- MST: Kruskal -------------------------------------------------------- */

/* An undirected edge {u, v} with u < v. */
typedef struct mst_edge {
  fal_weight w;
  fal_point u, v;
} mst_edge;

/* The total weight and size of a minimum spanning forest. */
typedef struct mst_result {
  int64_t weight;
  int64_t edges;
} mst_result;

/* Orders edges by (weight, u, v): a total order on the keys, so the sort
 * is deterministic (records with equal keys are identical). */
static int cmp_mst_edge(const void *a, const void *b)
{
  const mst_edge *x = a, *y = b;
  if (x->w != y->w)
    return (x->w > y->w) - (x->w < y->w);
  if (x->u != y->u)
    return (x->u > y->u) - (x->u < y->u);
  return (x->v > y->v) - (x->v < y->v);
}

/* Every stored edge of g except self loops, as an undirected edge with
 * its smaller end first (both directions of a symmetric graph become two
 * parallel edges, which Kruskal handles like any others); *m gets the
 * count. */
static mst_edge *mst_collect_edges(const fal_graph *g, int64_t *m)
{
  mst_edge *edge = xarray(g->nedges, sizeof *edge);
  int64_t k = 0;
  for (int64_t u = 0; u < g->npoints; u++)
    for (int64_t e = g->offsets[u]; e < g->offsets[u + 1]; e++) {
      fal_point v = g->dst[e];
      if (v == u)
        continue;
      edge[k++] = (mst_edge){g->weight[e], (fal_point)(u < v ? u : v),
                             (fal_point)(u < v ? v : u)};
    }
  *m = k;
  return edge;
}

/* Kruskal's minimum spanning forest of n points and the m edges of
 * mst_collect_edges (which it sorts and frees): edges in (weight, u, v)
 * order, each kept when its ends are in different trees.  Any weights,
 * negative included, are allowed; the total is 64-bit. */
static mst_result mst_kruskal(int64_t n, mst_edge *edge, int64_t m)
{
  mst_result r = {0, 0};
  fal_point *parent = xarray(n, sizeof *parent);
  qsort(edge, (size_t)m, sizeof *edge, cmp_mst_edge);
  for (int64_t p = 0; p < n; p++)
    parent[p] = (fal_point)p;
  for (int64_t i = 0; i < m && r.edges < n - 1; i++)
    if (uf_union(parent, edge[i].u, edge[i].v)) {
      r.weight += edge[i].w;
      r.edges++;
    }
  free(parent);
  free(edge);
  return r;
}

/* The minimum spanning forest of g taken as undirected.  With
 * release_graph, g is freed once its edges are copied, so that the graph
 * and the sort's memory are never needed at the same time. */
static mst_result ref_mst(fal_graph *g, int release_graph)
{
  int64_t n = g->npoints, m;
  mst_edge *edge = mst_collect_edges(g, &m);
  if (release_graph)
    fal_graph_free(g);
  return mst_kruskal(n, edge, m);
}

/* ---- matching: greedy in edge-id order ---------------------------------- */

/* A maximal matching: edges e = 0..nedges-1 in CSR order, edge e (from
 * the point p with offsets[p] <= e < offsets[p+1] to dst[e]) joining its
 * ends when both are still unmatched; self loops never match.
 * mate[p] = the partner of p, or -1. */
static int64_t *ref_matching(const fal_graph *g)
{
  int64_t n = g->npoints;
  int64_t *mate = xarray(n, sizeof *mate);
  for (int64_t p = 0; p < n; p++)
    mate[p] = -1;
  for (int64_t u = 0; u < n; u++)
    for (int64_t e = g->offsets[u]; e < g->offsets[u + 1]; e++) {
      fal_point v = g->dst[e];
      if (v != u && mate[u] < 0 && mate[v] < 0) {
        mate[u] = v;
        mate[v] = u;
      }
    }
  return mate;
}

/* ---- writing results ---------------------------------------------------- */

static FILE *open_output(const char *path)
{
  FILE *f = fopen(path, "w");
  if (!f)
    fail_with("cannot write %s: %s", path, strerror(errno));
  setvbuf(f, NULL, _IOFBF, 1 << 20);
  return f;
}

static void close_output(FILE *f, const char *path)
{
  int bad = ferror(f);
  if (fclose(f) != 0 || bad)
    fail_with("cannot write %s: %s", path, strerror(errno));
}

/* Lines `p value` for p = 0..n-1. */
static void write_int_results(const char *path, const int64_t *v, int64_t n)
{
  FILE *f = open_output(path);
  for (int64_t p = 0; p < n; p++)
    fprintf(f, "%" PRId64 " %" PRId64 "\n", p, v[p]);
  close_output(f, path);
}

static void write_double_results(const char *path, const double *v,
                                 int64_t n)
{
  FILE *f = open_output(path);
  for (int64_t p = 0; p < n; p++)
    fprintf(f, "%" PRId64 " %.12e\n", p, v[p]);
  close_output(f, path);
}

static void write_triangles(const char *path, int64_t triangles)
{
  FILE *f = open_output(path);
  fprintf(f, "triangles %" PRId64 "\n", triangles);
  close_output(f, path);
}

/* The two lines `weight W` and `edges K`. */
static void write_mst(const char *path, mst_result r)
{
  FILE *f = open_output(path);
  fprintf(f, "weight %" PRId64 "\nedges %" PRId64 "\n", r.weight, r.edges);
  close_output(f, path);
}

/* ---- reading result files ----------------------------------------------- */

/* One `p value` line; the value is kept as an integer (exact, cc) or as a
 * double (pagerank), whichever the comparison reads. */
typedef struct result_line {
  int64_t p;
  int64_t ival;
  double dval;
  long lineno;
} result_line;

typedef struct result_file {
  const char *path;
  result_line *line;
  int64_t n;
} result_file;

/* Reads an integer token at *s (after optional blanks); 0 or -1. */
static int scan_int(const char **s, int64_t *out)
{
  char *end;
  errno = 0;
  long long v = strtoll(*s, &end, 10);
  if (end == *s || errno != 0)
    return -1;
  *s = end;
  *out = v;
  return 0;
}

static int scan_double(const char **s, double *out)
{
  char *end;
  double v = strtod(*s, &end);
  if (end == *s)
    return -1;
  *s = end;
  *out = v;
  return 0;
}

static int is_blank(char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int only_blanks(const char *s)
{
  while (is_blank(*s))
    s++;
  return *s == '\0';
}

/* The start of a malformed line for an error message: up to 60
 * characters, stopping at the newline, anything unprintable shown as '?'. */
static const char *line_excerpt(const char *s)
{
  static char text[61];
  size_t i = 0;
  for (; i < sizeof text - 1 && s[i] != '\0' && s[i] != '\n'; i++)
    text[i] = s[i] >= ' ' && s[i] <= '~' ? s[i] : '?';
  text[i] = '\0';
  return text;
}

/* Parses `p value` into *r (value as a double when as_double); 0 or -1. */
static int parse_result_line(const char *s, int as_double, result_line *r)
{
  if (scan_int(&s, &r->p) != 0 || !is_blank(*s))
    return -1;
  if (as_double ? scan_double(&s, &r->dval) : scan_int(&s, &r->ival))
    return -1;
  return only_blanks(s) ? 0 : -1;
}

/* Reads a whole result file, skipping blank lines; a malformed line is an
 * error (status 2) naming the file and line. */
static result_file read_results(const char *path, int as_double)
{
  result_file rf = {path, NULL, 0};
  int64_t cap = 0;
  char *buf = NULL;
  size_t bufsize = 0;
  long lineno = 0;
  FILE *f = fopen(path, "r");
  if (!f)
    fail_with("cannot read %s: %s", path, strerror(errno));
  while (getline(&buf, &bufsize, f) >= 0) {
    lineno++;
    if (only_blanks(buf))
      continue;
    if (rf.n == cap) {
      cap = cap ? 2 * cap : 1024;
      rf.line = xrealloc(rf.line, (size_t)cap * sizeof *rf.line);
    }
    rf.line[rf.n].lineno = lineno;
    if (parse_result_line(buf, as_double, &rf.line[rf.n]) != 0)
      fail_with("%s:%ld: expected 'point value', got '%s'", path, lineno,
                line_excerpt(buf));
    rf.n++;
  }
  if (ferror(f))
    fail_with("cannot read %s: %s", path, strerror(errno));
  fclose(f);
  free(buf);
  return rf;
}

/* Parses `triangles N` (blanks around allowed); 0 or -1. */
static int parse_triangles_line(const char *s, int64_t *triangles)
{
  while (is_blank(*s))
    s++;
  if (strncmp(s, "triangles", 9) != 0 || !is_blank(s[9]))
    return -1;
  s += 9;
  if (scan_int(&s, triangles) != 0)
    return -1;
  return only_blanks(s) ? 0 : -1;
}

/* Reads a tc result: exactly one non-blank line, `triangles N`. */
static int64_t read_triangles(const char *path)
{
  char *buf = NULL;
  size_t bufsize = 0;
  long lineno = 0, found = 0;
  int64_t triangles = 0;
  FILE *f = fopen(path, "r");
  if (!f)
    fail_with("cannot read %s: %s", path, strerror(errno));
  while (getline(&buf, &bufsize, f) >= 0) {
    lineno++;
    if (only_blanks(buf))
      continue;
    if (found++ || parse_triangles_line(buf, &triangles) != 0)
      fail_with("%s:%ld: expected one line 'triangles N', got '%s'", path,
                lineno, line_excerpt(buf));
  }
  if (ferror(f))
    fail_with("cannot read %s: %s", path, strerror(errno));
  fclose(f);
  free(buf);
  if (!found)
    fail_with("%s: no 'triangles N' line", path);
  return triangles;
}

/* ---- comparing results -------------------------------------------------- */

/* Prints to out unless it is NULL (the self-test compares silently). */
static void note(FILE *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void note(FILE *out, const char *fmt, ...)
{
  va_list ap;
  if (!out)
    return;
  va_start(ap, fmt);
  vfprintf(out, fmt, ap);
  va_end(ap);
}

/* Reports line counts that differ; returns how many lines are unmatched. */
static int64_t compare_lengths(const result_file *a, const result_file *b,
                               FILE *out)
{
  if (a->n == b->n)
    return 0;
  note(out, "  %s has %" PRId64 " points, %s has %" PRId64 "\n", a->path,
       a->n, b->path, b->n);
  return a->n > b->n ? a->n - b->n : b->n - a->n;
}

/* Prints the summary line of a comparison that found differences. */
static void note_differences(FILE *out, const char *kind, int64_t bad,
                             const result_file *a, const result_file *b)
{
  int64_t n = a->n > b->n ? a->n : b->n;
  note(out, "falref: compare %s: %s and %s differ at %" PRId64 " of %" PRId64
       " points%s\n", kind, a->path, b->path, bad, n,
       bad > MAX_REPORTED ? " (first ones listed above)" : "");
}

/* exact: each line has the same point and the same integer value.  Returns
 * the number of differing lines. */
static int64_t compare_exact(const result_file *a, const result_file *b,
                             FILE *out)
{
  int64_t n = a->n < b->n ? a->n : b->n, bad = 0;
  for (int64_t i = 0; i < n; i++) {
    const result_line *x = &a->line[i], *y = &b->line[i];
    if (x->p == y->p && x->ival == y->ival)
      continue;
    if (++bad <= MAX_REPORTED)
      note(out, "  %s:%ld: '%" PRId64 " %" PRId64 "'  vs  %s:%ld: '%" PRId64
           " %" PRId64 "'\n", a->path, x->lineno, x->p, x->ival, b->path,
           y->lineno, y->p, y->ival);
  }
  bad += compare_lengths(a, b, out);
  if (bad)
    note_differences(out, "exact", bad, a, b);
  return bad;
}

/* The two files list the same points in the same order.  Returns the
 * number of lines whose points differ (plus unmatched lines). */
static int64_t compare_points(const result_file *a, const result_file *b,
                              FILE *out)
{
  int64_t n = a->n < b->n ? a->n : b->n, bad = 0;
  for (int64_t i = 0; i < n; i++)
    if (a->line[i].p != b->line[i].p && ++bad <= MAX_REPORTED)
      note(out, "  %s:%ld has point %" PRId64 ", %s:%ld has point %" PRId64
           "\n", a->path, a->line[i].lineno, a->line[i].p, b->path,
           b->line[i].lineno, b->line[i].p);
  bad += compare_lengths(a, b, out);
  if (bad)
    note(out, "falref: compare: %s and %s do not list the same points\n",
         a->path, b->path);
  return bad;
}

/* pagerank: |a - b| <= PR_ABS_TOL + PR_REL_TOL * |b| at every point (a NaN
 * never passes).  Returns the number of points out of tolerance. */
static int64_t compare_pagerank(const result_file *a, const result_file *b,
                                FILE *out)
{
  int64_t bad = compare_points(a, b, out);
  if (bad)
    return bad;
  for (int64_t i = 0; i < a->n; i++) {
    double x = a->line[i].dval, y = b->line[i].dval;
    if (fabs(x - y) <= PR_ABS_TOL + PR_REL_TOL * fabs(y))
      continue;
    if (++bad <= MAX_REPORTED)
      note(out, "  point %" PRId64 ": %.12e (%s:%ld) vs %.12e (%s:%ld)\n",
           a->line[i].p, x, a->path, a->line[i].lineno, y, b->path,
           b->line[i].lineno);
  }
  if (bad)
    note_differences(out, "pagerank", bad, a, b);
  return bad;
}

/* ---- comparing partitions (cc) ------------------------------------------ */

/* Point i's label in the file sorted on (`mine`) and in the other file. */
typedef struct label_pair {
  int64_t mine, other;
  int64_t i;
} label_pair;

static int cmp_label_pair(const void *a, const void *b)
{
  const label_pair *x = a, *y = b;
  if (x->mine != y->mine)
    return (x->mine > y->mine) - (x->mine < y->mine);
  if (x->other != y->other)
    return (x->other > y->other) - (x->other < y->other);
  return (x->i > y->i) - (x->i < y->i);
}

/* Sorts pairs by (mine, other) and counts, within each label of `mine`,
 * the places where the other file's label changes: 0 when every component
 * of `mine` lies inside one component of `other`.  *groups gets the number
 * of labels (components) of `mine`. */
static int64_t count_split_labels(label_pair *pair, int64_t n,
                                  const result_file *mine,
                                  const result_file *other, int64_t *groups,
                                  FILE *out)
{
  int64_t bad = 0;
  *groups = 0;
  qsort(pair, (size_t)n, sizeof *pair, cmp_label_pair);
  for (int64_t k = 0; k < n; k++) {
    if (k == 0 || pair[k].mine != pair[k - 1].mine) {
      ++*groups;
      continue;
    }
    if (pair[k].other == pair[k - 1].other)
      continue;
    if (++bad <= MAX_REPORTED)
      note(out, "  points %" PRId64 " and %" PRId64 " share label %" PRId64
           " in %s but have labels %" PRId64 " and %" PRId64 " in %s\n",
           mine->line[pair[k - 1].i].p, mine->line[pair[k].i].p,
           pair[k].mine, mine->path, pair[k - 1].other, pair[k].other,
           other->path);
  }
  return bad;
}

/* cc: the labelings induce the same partition.  Labels map A's labels to
 * B's and back as functions exactly when neither file splits a component
 * of the other, i.e. when the label mapping is a bijection.  Returns the
 * number of differences found. */
static int64_t compare_cc(const result_file *a, const result_file *b,
                          FILE *out)
{
  int64_t bad = compare_points(a, b, out), na = 0, nb = 0;
  if (bad)
    return bad;
  label_pair *pair = xarray(a->n, sizeof *pair);
  for (int64_t i = 0; i < a->n; i++)
    pair[i] = (label_pair){a->line[i].ival, b->line[i].ival, i};
  bad += count_split_labels(pair, a->n, a, b, &na, out);
  for (int64_t i = 0; i < a->n; i++)
    pair[i] = (label_pair){b->line[i].ival, a->line[i].ival, i};
  bad += count_split_labels(pair, b->n, b, a, &nb, out);
  free(pair);
  if (bad)
    note(out, "falref: compare cc: %s (%" PRId64 " components) and %s (%"
         PRId64 " components) are different partitions\n", a->path, na,
         b->path, nb);
  return bad;
}

/* ---- comparing text line by line (lines) ------------------------------- */

/* Reads the next line of f into *buf, its newline kept; returns its length
 * (at least 1), or -1 at the end of the file.  A read error exits. */
static ssize_t next_line(FILE *f, const char *path, char **buf, size_t *size)
{
  ssize_t len = getline(buf, size, f);
  if (len < 0 && ferror(f))
    fail_with("cannot read %s: %s", path, strerror(errno));
  return len;
}

/* Prints one side of a differing line: its start, or the end of file. */
static void note_line(FILE *out, const char *path, long lineno,
                      const char *text, ssize_t len)
{
  if (len < 0)
    note(out, "  %s:%ld: end of file\n", path, lineno);
  else
    note(out, "  %s:%ld: '%s'%s\n", path, lineno, line_excerpt(text),
         text[len - 1] == '\n' ? "" : " (no newline at the end)");
}

/* The byte at which lines x and y (lengths lx, ly >= 0) first differ. */
static size_t first_difference(const char *x, ssize_t lx, const char *y,
                               ssize_t ly)
{
  size_t i = 0;
  while ((ssize_t)i < lx && (ssize_t)i < ly && x[i] == y[i])
    i++;
  return i;
}

/* lines: the streams hold the same bytes, compared line by line (blank
 * lines and line ends included).  Reports the first differing line and
 * returns 1, or returns 0 when equal. */
static int64_t compare_line_streams(FILE *fa, const char *pa, FILE *fb,
                                    const char *pb, FILE *out)
{
  char *x = NULL, *y = NULL;
  size_t nx = 0, ny = 0;
  long lineno = 0;
  int64_t bad = 0;
  for (;;) {
    ssize_t lx = next_line(fa, pa, &x, &nx), ly = next_line(fb, pb, &y, &ny);
    if (lx < 0 && ly < 0)
      break;
    lineno++;
    if (lx == ly && memcmp(x, y, (size_t)lx) == 0)
      continue;
    bad = 1;
    note_line(out, pa, lineno, x, lx);
    note_line(out, pb, lineno, y, ly);
    if (lx < 0 || ly < 0)
      note(out, "falref: compare lines: %s and %s differ at line %ld (%s "
           "ends first)\n", pa, pb, lineno, lx < 0 ? pa : pb);
    else
      note(out, "falref: compare lines: %s and %s differ at line %ld, byte "
           "%zu\n", pa, pb, lineno, first_difference(x, lx, y, ly) + 1);
    break;
  }
  free(x);
  free(y);
  return bad;
}

/* compare lines A B, on the files themselves. */
static int compare_text_files(const char *pa, const char *pb)
{
  FILE *fa = fopen(pa, "r"), *fb;
  if (!fa)
    fail_with("cannot read %s: %s", pa, strerror(errno));
  fb = fopen(pb, "r");
  if (!fb)
    fail_with("cannot read %s: %s", pb, strerror(errno));
  int64_t bad = compare_line_streams(fa, pa, fb, pb, stderr);
  fclose(fa);
  fclose(fb);
  return bad ? EXIT_DIFFER : EXIT_EQUAL;
}

static void free_results(result_file *rf)
{
  free(rf->line);
  rf->line = NULL;
  rf->n = 0;
}

/* Reads A and B as `kind` results and compares them; returns the exit
 * status (malformed files have already exited with EXIT_ERROR). */
static int compare_files(const char *kind, const char *pa, const char *pb)
{
  if (strcmp(kind, "tc") == 0) {
    int64_t ta = read_triangles(pa), tb = read_triangles(pb);
    if (ta == tb)
      return EXIT_EQUAL;
    fprintf(stderr, "falref: compare tc: %s has %" PRId64
            " triangles, %s has %" PRId64 "\n", pa, ta, pb, tb);
    return EXIT_DIFFER;
  }
  if (strcmp(kind, "lines") == 0)
    return compare_text_files(pa, pb);
  int is_pagerank = strcmp(kind, "pagerank") == 0;
  if (!is_pagerank && strcmp(kind, "exact") != 0 && strcmp(kind, "cc") != 0)
    usage_error("compare: KIND must be exact, cc, tc, pagerank or lines");
  result_file a = read_results(pa, is_pagerank);
  result_file b = read_results(pb, is_pagerank);
  int64_t bad = is_pagerank ? compare_pagerank(&a, &b, stderr)
                : strcmp(kind, "cc") == 0 ? compare_cc(&a, &b, stderr)
                                          : compare_exact(&a, &b, stderr);
  free_results(&a);
  free_results(&b);
  return bad ? EXIT_DIFFER : EXIT_EQUAL;
}

/* ---- self-test ---------------------------------------------------------- */

typedef struct test_edge {
  fal_point u, v;
  fal_weight w;
} test_edge;

/* Fills g (directed) with n points and the m listed edges, in CSR order;
 * arrays come from fal_alloc so that fal_graph_free releases them. */
static void test_graph(fal_graph *g, int64_t n, const test_edge *edge,
                       int64_t m)
{
  memset(g, 0, sizeof *g);
  g->npoints = n;
  g->nedges = m;
  g->directed = 1;
  g->offsets = fal_calloc((size_t)n + 1, sizeof *g->offsets);
  g->dst = fal_alloc((size_t)m * sizeof *g->dst + 1);
  g->weight = fal_alloc((size_t)m * sizeof *g->weight + 1);
  for (int64_t e = 0; e < m; e++)
    g->offsets[edge[e].u + 1]++;
  for (int64_t p = 0; p < n; p++)
    g->offsets[p + 1] += g->offsets[p];
  for (int64_t p = 0, e = 0; p < n; p++)
    for (int64_t k = 0; k < m; k++)
      if (edge[k].u == p) {
        g->dst[e] = edge[k].v;
        g->weight[e++] = edge[k].w;
      }
}

static int tests_failed;

static void test_report(const char *name, int ok)
{
  printf("[%s] ref: %s\n", ok ? "PASS" : "FAIL", name);
  if (!ok)
    tests_failed++;
}

/* Reports whether got[0..n-1] equals want, then frees got. */
static void test_ints(const char *name, int64_t *got, const int64_t *want,
                      int64_t n)
{
  int ok = 1;
  for (int64_t p = 0; p < n; p++)
    if (got[p] != want[p]) {
      fprintf(stderr, "  %s: point %" PRId64 ": got %" PRId64 ", want %"
              PRId64 "\n", name, p, got[p], want[p]);
      ok = 0;
    }
  test_report(name, ok);
  free(got);
}

static void test_doubles(const char *name, double *got, const double *want,
                         int64_t n)
{
  int ok = 1;
  for (int64_t p = 0; p < n; p++)
    if (!(fabs(got[p] - want[p]) <= 1e-12)) {
      fprintf(stderr, "  %s: point %" PRId64 ": got %.15g, want %.15g\n",
              name, p, got[p], want[p]);
      ok = 0;
    }
  test_report(name, ok);
  free(got);
}

/* A directed weighted graph where 4 is unreachable from 0 and Dijkstra
 * must lower 1's distance (4 via 0->1, then 3 via 0->2->1). */
static void test_paths(void)
{
  static const test_edge edge[] = {{0, 1, 4}, {0, 2, 1}, {2, 1, 2},
                                   {1, 3, 1}, {2, 3, 5}, {4, 0, 1},
                                   {3, 3, 0}, {1, 1, 7}};
  static const int64_t level[] = {0, 1, 1, 2, UNREACHED};
  static const int64_t dist[] = {0, 3, 1, 4, UNREACHED};
  static const int64_t from4[] = {1, 4, 2, 5, 0};
  fal_graph g;
  test_graph(&g, 5, edge, 8);
  test_ints("bfs directed, unreachable point", ref_bfs(&g, 0), level, 5);
  test_ints("sssp directed, decrease-key, unreachable point",
            ref_sssp(&g, 0), dist, 5);
  test_ints("sssp from another source", ref_sssp(&g, 4), from4, 5);
  fal_graph_free(&g);
}

/* Two weakly (not strongly) connected components and an isolated point
 * with a self loop: labels are the smallest ids. */
static void test_components(void)
{
  static const test_edge edge[] = {{2, 0, 1}, {1, 2, 1}, {5, 3, 1},
                                   {4, 5, 1}, {6, 6, 1}, {7, 4, 1}};
  static const int64_t label[] = {0, 0, 0, 3, 3, 3, 6, 3};
  fal_graph g;
  test_graph(&g, 8, edge, 6);
  test_ints("cc weakly connected, two components and a loner", ref_cc(&g),
            label, 8);
  fal_graph_free(&g);
}

/* Counts the triangles of n points and m edges; reports against want. */
static void test_triangles(const char *name, int64_t n, const test_edge *edge,
                           int64_t m, int64_t want)
{
  fal_graph g;
  test_graph(&g, n, edge, m);
  int64_t got = ref_tc(&g);
  if (got != want)
    fprintf(stderr, "  %s: got %" PRId64 ", want %" PRId64 "\n", name, got,
            want);
  test_report(name, got == want);
  fal_graph_free(&g);
}

static void test_tc(void)
{
  /* K4 with both directions of some edges, a duplicate and self loops. */
  static const test_edge k4[] = {{0, 1, 1}, {1, 0, 1}, {0, 2, 1}, {3, 0, 1},
                                 {1, 2, 1}, {1, 3, 1}, {2, 3, 1}, {3, 2, 1},
                                 {2, 3, 1}, {2, 2, 1}, {0, 0, 1}};
  static const test_edge k5[] = {{0, 1, 1}, {0, 2, 1}, {0, 3, 1}, {0, 4, 1},
                                 {1, 2, 1}, {1, 3, 1}, {1, 4, 1}, {2, 3, 1},
                                 {2, 4, 1}, {3, 4, 1}};
  /* A square 0-1-2-3 with diagonal 0-2, plus a path 4-5-6 (no triangle). */
  static const test_edge sq[] = {{0, 1, 1}, {1, 2, 1}, {2, 3, 1},
                                 {3, 0, 1}, {2, 0, 1}, {4, 5, 1}, {6, 5, 1}};
  /* A hub 0 joined to 1..5, and 1-2, 2-3, 4-5: 3 triangles at the hub. */
  static const test_edge hub[] = {{0, 1, 1}, {0, 2, 1}, {0, 3, 1}, {0, 4, 1},
                                  {0, 5, 1}, {2, 1, 1}, {2, 3, 1}, {5, 4, 1}};
  test_triangles("tc K4 with duplicates and self loops = 4", 4, k4, 11, 4);
  test_triangles("tc K5 = 10", 5, k5, 10, 10);
  test_triangles("tc square with a diagonal and a path = 2", 7, sq, 7, 2);
  test_triangles("tc hub = 3", 6, hub, 8, 3);
  test_triangles("tc no edges = 0", 3, NULL, 0, 0);
}

/* A directed cycle keeps every rank at 1/n; a graph with a dangling point
 * (3) and a self loop (1), checked against an independent Python
 * computation. */
static void test_pagerank(void)
{
  static const test_edge cycle[] = {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}};
  static const double third[] = {1.0 / 3, 1.0 / 3, 1.0 / 3};
  static const test_edge leak[] = {{0, 1, 1}, {0, 2, 1}, {1, 2, 1},
                                   {1, 1, 1}, {2, 0, 1}, {2, 3, 1}};
  /* 52 iterations of the same recurrence in Python; the fixed point is
   * r1 = r2 = 0.0534375 / 0.394375, r0 = r3 = 0.0375 + 0.425 * r1. */
  static const double leak_rank[] = {0.09508716356167629, 0.13549920813884145,
                                     0.13549920813884145, 0.09508716356167629};
  fal_graph g;
  test_graph(&g, 3, cycle, 3);
  test_doubles("pagerank cycle stays uniform", ref_pagerank(&g, 1e-9), third, 3);
  fal_graph_free(&g);
  test_graph(&g, 4, leak, 6);
  test_doubles("pagerank dangling point leaks, self loop",
               ref_pagerank(&g, 1e-9), leak_rank, 4);
  fal_graph_free(&g);
}

/* The minimum spanning forest of n points and m edges; reports its weight
 * and size against want_weight and want_edges. */
static void test_mst_case(const char *name, int64_t n, const test_edge *edge,
                          int64_t m, int64_t want_weight, int64_t want_edges)
{
  fal_graph g;
  test_graph(&g, n, edge, m);
  mst_result r = ref_mst(&g, 0);
  int ok = r.weight == want_weight && r.edges == want_edges;
  if (!ok)
    fprintf(stderr, "  %s: got weight %" PRId64 " edges %" PRId64 ", want "
            "weight %" PRId64 " edges %" PRId64 "\n", name, r.weight,
            r.edges, want_weight, want_edges);
  test_report(name, ok);
  fal_graph_free(&g);
}

static void test_mst(void)
{
  /* Directed edges taken as undirected.  {0,1,2}: a triangle of equal
   * weights (two of them kept, 4); 3 hangs on 2 by parallel edges of
   * weights 5 and 1 (1 kept), and a self loop of weight -10 (ignored);
   * {4,5} by both directions of one edge (7); 6 alone with a self loop.
   * 7 points, 3 components: 4 edges, weight 12. */
  static const test_edge forest[] = {{0, 1, 2}, {1, 2, 2}, {2, 0, 2},
                                     {2, 3, 5}, {3, 2, 1}, {3, 3, -10},
                                     {4, 5, 7}, {5, 4, 7}, {6, 6, -3}};
  /* Negative weights: 0-1 (-5) and 0-2 (-1) beat 1-2 (3). */
  static const test_edge negative[] = {{0, 1, -5}, {1, 2, 3}, {2, 0, -1},
                                       {1, 1, -100}};
  /* Weights at the int32 limits: the total needs 64 bits. */
  static const test_edge extreme[] = {{0, 1, INT32_MAX}, {1, 2, INT32_MAX},
                                      {2, 0, INT32_MAX}, {3, 4, INT32_MIN},
                                      {4, 3, INT32_MAX}, {2, 3, INT32_MAX}};
  test_mst_case("mst ties, parallel edges, self loops, a forest", 7, forest,
                9, 12, 4);
  test_mst_case("mst negative weights", 3, negative, 4, -6, 2);
  test_mst_case("mst 64-bit total of int32 extremes", 5, extreme, 6,
                3 * (int64_t)INT32_MAX + INT32_MIN, 4);
  test_mst_case("mst no edges", 3, NULL, 0, 0, 0);
  test_mst_case("mst no points", 0, NULL, 0, 0, 0);
}

/* Greedy matchings: edge ids follow the CSR order (by source point, then
 * the listed order), not the order edges are listed in. */
static void test_matching(void)
{
  static const test_edge path[] = {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}};
  static const test_edge path2[] = {{0, 1, 1}, {1, 0, 1}, {1, 2, 1},
                                    {2, 1, 1}, {2, 3, 1}, {3, 2, 1}};
  static const int64_t path_mate[] = {1, 0, 3, 2};
  static const test_edge star[] = {{0, 1, 1}, {0, 2, 1}, {0, 3, 1},
                                   {0, 4, 1}};
  static const int64_t star_mate[] = {1, 0, -1, -1, -1};
  /* A symmetric star around 2: edge 0->2 comes first in CSR order. */
  static const test_edge star2[] = {{2, 0, 1}, {2, 1, 1}, {2, 3, 1},
                                    {2, 4, 1}, {0, 2, 1}, {1, 2, 1},
                                    {3, 2, 1}, {4, 2, 1}};
  static const int64_t star2_mate[] = {2, -1, 0, -1, -1};
  /* Edge ids: 0->0 (skipped), 0->1 (matched), 1->2, 3->3 (skipped). */
  static const test_edge loops[] = {{1, 2, 1}, {0, 0, 1}, {0, 1, 1},
                                    {3, 3, 1}};
  static const int64_t loops_mate[] = {1, 0, -1, -1};
  fal_graph g;
  test_graph(&g, 4, path, 3);
  test_ints("matching path 0-1-2-3 gives 0-1, 2-3", ref_matching(&g),
            path_mate, 4);
  fal_graph_free(&g);
  test_graph(&g, 4, path2, 6);
  test_ints("matching symmetric path gives 0-1, 2-3", ref_matching(&g),
            path_mate, 4);
  fal_graph_free(&g);
  test_graph(&g, 5, star, 4);
  test_ints("matching star takes only the first edge", ref_matching(&g),
            star_mate, 5);
  fal_graph_free(&g);
  test_graph(&g, 5, star2, 8);
  test_ints("matching symmetric star in CSR order", ref_matching(&g),
            star2_mate, 5);
  fal_graph_free(&g);
  test_graph(&g, 4, loops, 4);
  test_ints("matching skips self loops, follows edge ids", ref_matching(&g),
            loops_mate, 4);
  fal_graph_free(&g);
}

/* An in-memory result file: point p = i with value v[i]. */
static result_file test_results(const char *path, const int64_t *v,
                                int64_t n)
{
  result_file rf = {path, xarray(n, sizeof(result_line)), n};
  for (int64_t i = 0; i < n; i++)
    rf.line[i] = (result_line){i, v[i], (double)v[i], (long)i + 1};
  return rf;
}

/* Compares two in-memory results with fn; reports whether the number of
 * differences is zero exactly when `equal`. */
static void test_compare(const char *name,
                         int64_t (*fn)(const result_file *,
                                       const result_file *, FILE *),
                         const int64_t *a, int64_t na, const int64_t *b,
                         int64_t nb, int equal)
{
  result_file ra = test_results("A", a, na), rb = test_results("B", b, nb);
  test_report(name, (fn(&ra, &rb, NULL) == 0) == equal);
  free_results(&ra);
  free_results(&rb);
}

static void test_comparisons(void)
{
  static const int64_t cc[] = {0, 0, 2, 3, 2}, relabeled[] = {9, 9, 4, 1, 4};
  static const int64_t merged[] = {0, 0, 0, 3, 0}, split[] = {0, 1, 2, 3, 2};
  /* Tolerances at 1e6 and 2e6: 1e-6 + 100 and 1e-6 + 200. */
  static const int64_t want[] = {1000000, 2000000};
  static const int64_t near[] = {1000100, 1999800};
  static const int64_t far[] = {1000000, 2000201};
  test_compare("compare cc accepts relabeled components", compare_cc, cc, 5,
               relabeled, 5, 1);
  test_compare("compare cc rejects merged components", compare_cc, cc, 5,
               merged, 5, 0);
  test_compare("compare cc rejects split components", compare_cc, cc, 5,
               split, 5, 0);
  test_compare("compare cc rejects a missing point", compare_cc, cc, 5, cc,
               4, 0);
  test_compare("compare exact accepts equal", compare_exact, cc, 5, cc, 5, 1);
  test_compare("compare exact rejects a change", compare_exact, cc, 5,
               merged, 5, 0);
  test_compare("compare exact rejects an extra line", compare_exact, cc, 4,
               cc, 5, 0);
  test_compare("compare pagerank within tolerance", compare_pagerank, near, 2,
               want, 2, 1);
  test_compare("compare pagerank beyond tolerance", compare_pagerank, far, 2,
               want, 2, 0);
}

/* A temporary file holding text, rewound for reading. */
static FILE *test_stream(const char *text)
{
  FILE *f = tmpfile();
  if (!f || fputs(text, f) == EOF || fseek(f, 0, SEEK_SET) != 0)
    fail_with("cannot make a temporary file: %s", strerror(errno));
  return f;
}

/* Compares texts a and b line by line; reports whether they were found
 * equal exactly when `equal`. */
static void test_compare_lines(const char *name, const char *a,
                               const char *b, int equal)
{
  FILE *fa = test_stream(a), *fb = test_stream(b);
  test_report(name, (compare_line_streams(fa, "A", fb, "B", NULL) == 0) ==
                        equal);
  fclose(fa);
  fclose(fb);
}

static void test_line_comparisons(void)
{
  static const char mst[] = "weight 12\nedges 4\n";
  test_compare_lines("compare lines accepts equal", mst, mst, 1);
  test_compare_lines("compare lines accepts two empty files", "", "", 1);
  test_compare_lines("compare lines rejects a changed line", mst,
                     "weight 12\nedges 5\n", 0);
  test_compare_lines("compare lines rejects an extra line", mst,
                     "weight 12\nedges 4\n\n", 0);
  test_compare_lines("compare lines rejects a missing newline", mst,
                     "weight 12\nedges 4", 0);
  test_compare_lines("compare lines rejects an empty file", mst, "", 0);
}

static int run_selftest(void)
{
  test_paths();
  test_components();
  test_tc();
  test_pagerank();
  test_mst();
  test_matching();
  test_comparisons();
  test_line_comparisons();
  return tests_failed ? EXIT_DIFFER : EXIT_EQUAL;
}

/* ---- commands ----------------------------------------------------------- */

/* falref sssp|bfs GRAPH SRC OUT */
static int run_from_source(const char *cmd, char **arg)
{
  fal_graph g;
  load_graph(&g, arg[0]);
  fal_point src = parse_source_point(&g, arg[1]);
  int64_t *result;
  if (strcmp(cmd, "sssp") == 0) {
    check_weights_nonnegative(&g, arg[0]);
    result = ref_sssp(&g, src);
  } else {
    result = ref_bfs(&g, src);
  }
  write_int_results(arg[2], result, g.npoints);
  free(result);
  fal_graph_free(&g);
  return EXIT_EQUAL;
}

/* falref cc|tc|pagerank|mst|matching GRAPH OUT */
static int run_whole_graph(const char *cmd, char **arg)
{
  fal_graph g;
  load_graph(&g, arg[0]);
  if (strcmp(cmd, "cc") == 0 || strcmp(cmd, "matching") == 0) {
    int64_t *v = strcmp(cmd, "cc") == 0 ? ref_cc(&g) : ref_matching(&g);
    write_int_results(arg[1], v, g.npoints);
    free(v);
  } else if (strcmp(cmd, "tc") == 0) {
    write_triangles(arg[1], ref_tc(&g));
  } else if (strcmp(cmd, "mst") == 0) {
    write_mst(arg[1], ref_mst(&g, 1));
  } else {
    double *rank = ref_pagerank(&g, PR_EPSILON);
    write_double_results(arg[1], rank, g.npoints);
    free(rank);
  }
  fal_graph_free(&g);
  return EXIT_EQUAL;
}

/* Exits with a usage error unless the command got `want` arguments. */
static void expect_args(int argc, int want, const char *cmd)
{
  static char why[80];
  if (argc - 2 != want) {
    snprintf(why, sizeof why, "'%s' takes %d arguments", cmd, want);
    usage_error(why);
  }
}

int main(int argc, char **argv)
{
  const char *cmd = argc > 1 ? argv[1] : "";
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
    fputs(usage_text, stdout);
    return EXIT_EQUAL;
  }
  if (strcmp(cmd, "sssp") == 0 || strcmp(cmd, "bfs") == 0) {
    expect_args(argc, 3, cmd);
    return run_from_source(cmd, argv + 2);
  }
  if (strcmp(cmd, "cc") == 0 || strcmp(cmd, "tc") == 0 ||
      strcmp(cmd, "pagerank") == 0 || strcmp(cmd, "mst") == 0 ||
      strcmp(cmd, "matching") == 0) {
    expect_args(argc, 2, cmd);
    return run_whole_graph(cmd, argv + 2);
  }
  if (strcmp(cmd, "compare") == 0) {
    expect_args(argc, 3, cmd);
    return compare_files(argv[2], argv[3], argv[4]);
  }
  if (strcmp(cmd, "selftest") == 0) {
    expect_args(argc, 0, cmd);
    return run_selftest();
  }
  usage_error(argc > 1 ? "unknown command" : "no command");
}
