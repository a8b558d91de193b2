/*
 * falcon/host.h: the runtime's calls and helpers that falcon/falcon.h
 * declares for generated code (properties, loading, partitions, chunks,
 * rtclock), kept apart so that falcon.h can give them C linkage in C++
 * (nvcc compiling a program with nothing on a GPU) in one balanced
 * `extern "C" { ... }`.  Include falcon/falcon.h, not this.
 */
#ifndef FALCON_HOST_H
#define FALCON_HOST_H

/* ---- properties (§3.1) --------------------------------------------------- */

typedef enum fal_prop_kind {
  FAL_PROP_POINT, /* one element per point */
  FAL_PROP_EDGE,  /* one element per edge */
  FAL_PROP_GRAPH  /* one element for the graph: g.changed[0] */
} fal_prop_kind;

/* A property registered by addPointProperty & co: where its array pointer
 * lives in the generated struct, the element size and the kind. */
typedef struct fal_prop {
  void **slot;
  size_t size;
  fal_prop_kind kind;
} fal_prop;

typedef struct fal_gbase {
  fal_graph csr;
  int loaded;         /* csr holds a graph */
  int need_in_edges;  /* the program iterates innbrs/nbrs */
  int need_sources;   /* the program reads e.src over g.edges */
  fal_prop *props;
  int nprops, cap;
  unsigned char *single_lock; /* per-point locks of `single (p)` (§4.3) */
  unsigned char *single_elock; /* per-edge locks of `single (e)` */
  fal_owner own[2];   /* single on a Collection of points / edges (§4.3) */
  /* CUDA target (falcon/cuda.cuh): a graph placed on a GPU keeps its CSR
   * and properties in device memory. */
  int on_gpu;               /* placed on a GPU: <GPU> or getType() <GPU> */
  int want_device;          /* <GPU, n>: n; -1 for round robin */
  int device;               /* CUDA device, or -1 before placement */
  const void *structure_of; /* host CSR last copied here (copied once) */
  int is_mutable;           /* fal_gbase_mutable: csr is kept mutable (§6) */
  int *csr_refs;            /* CPU target: how many graphs use csr, once one
                             * borrowed it (fal_G_copy); the last frees it */
  /* Mutation inside kernels (§6, falcon/cuda.cuh): the counters and the
   * overflow buffer the device fills (device memory), its capacity. */
  struct fal_gpu_mut *gpu_mut;
  int64_t gpu_ov_cap;
  /* The GPU graph's hub list (falcon/cuda.cuh fal_hubs_of), built when the
   * structure is copied to the device, or at the first launch that wants it
   * after a change; never freed (copies of the struct share it). */
  struct fal_hubs *hubs;
} fal_gbase;

/* Registers a property; its array (zeroed) is allocated now if the graph
 * is loaded (or the property is graph-level), otherwise when it is read. */
void fal_prop_add(fal_gbase *b, void **slot, size_t size, fal_prop_kind kind);

/* Loads the graph file and allocates the registered properties.  On a
 * malformed or missing file the error is printed and the program exits
 * with status 1 (§9). */
void fal_gbase_read(fal_gbase *b, const char *path);
/* Rows only (MPI ranks, fal_mpi_gbase_read): whether the graph may hold
 * only some points' out-edges (not when it mutates or needs every edge's
 * source), and installing such a graph (fal_graph_read_bin_rows) with its
 * properties; in_edges builds the held points' in-edges when needed. */
int fal_gbase_rows_ok(const fal_gbase *b);
void fal_gbase_take_rows(fal_gbase *b, fal_graph *rows, void (*in_edges)(fal_graph *));

/* Releases the graph and every registered property. */
void fal_gbase_free(fal_gbase *b);

/* Zeroes the hidden per-element locks of `single` (§4.3); allocated on
 * first use. */
void fal_single_reset(fal_gbase *b, int edges);

/* single on a Collection (§4.3), lowered in two phases: a round of a
 * parallel loop first runs every element up to its single, where it
 * claims the elements of its collection (fal_own_claim) and is marked
 * pending; then the pending elements run again and take the first branch
 * only if they still own every element (fal_own_holds).
 * fal_owner_begin starts a round over n elements (host memory);
 * fal_pend_get gives a zeroed byte per loop element, released by
 * fal_pend_free after the round. */
void fal_owner_begin(fal_owner *o, int64_t n);
void fal_owner_free(fal_owner *o);
unsigned char *fal_pend_get(int64_t n);
void fal_pend_free(unsigned char *p);

/* CPU target: `d.p = s.q;` (§2), one property array into another. */
static inline void fal_host_prop_copy(void **dst, const void *src, size_t bytes)
{
  if (!src || *dst == src)
    return;
  if (!*dst)
    *dst = fal_calloc(bytes ? bytes : 1, 1);
  memcpy(*dst, src, bytes);
}

/* Graph views (§3.6): sets the element count of a view to n; new elements
 * are zero, capacity at least doubles when it grows (host memory). */
void fal_view_resize(void **a, int64_t *cap, int64_t oldn, int64_t n, size_t elsize,
                     const char *file, int line);

/* Mutation (§6, falcon/graph.h).  fal_gbase_mutable makes the graph
 * mutable (now if it is loaded, and again after every fal_gbase_read):
 * point properties then have point_cap + 1 elements, edge properties
 * slot_cap + 1, and their values move with their edges.  Before any read
 * it makes the empty graph mutable, so points can be added to it. */
void fal_gbase_mutable(fal_gbase *b);
/* fal_graph_settle on the graph: when it grows, edge properties follow
 * their edges (zero for the new ones), point properties and the locks of
 * `single` are extended with zeros.  Returns 1 if it grew, else 0; out of
 * memory prints a message and exits 1. */
int fal_gbase_settle(fal_gbase *b);
/* How many times the graph grew (fal_graph.grows). */
int64_t fal_gbase_grows(const fal_gbase *b);
/* fal_graph_add_point, but the new point always has property storage:
 * when point_cap is exhausted it grows at once (fal_gbase_settle), or,
 * inside a parallel region where that cannot be done safely, stops with
 * a clear error. */
fal_point fal_gbase_add_point(fal_gbase *b);

/* Weight / id of the edge p->t by searching p's out-edges; -1 / INT_MAX
 * style sentinels when there is none: weight 0 and edge -1. */
fal_weight fal_graph_getweight(const fal_graph *g, fal_point p, fal_point t);
fal_edge fal_graph_getedge_any(const fal_graph *g, fal_point p, fal_point t);

/* The first edge p -> t of a list sorted by destination, or -1: a
 * lower-bound binary search without branches on the data (the halving
 * step is a conditional move), so that it does not pay a mispredicted
 * branch per step: the search is most of tc.fal's time.  The first
 * element not below t lies in [b, b + n] throughout. */
static inline fal_edge fal_graph_getedge_sorted(const fal_graph *g, fal_point p, fal_point t)
{
  const int64_t lo = g->offsets[p], hi = g->offsets[p + 1];
  if (lo >= hi)
    return -1;
  const fal_point *b = g->dst + lo;
  int64_t n = hi - lo;
  while (n > 1) {
    const int64_t half = n / 2;
    b += (b[half - 1] < t) * half; /* arithmetic: GCC made the ?: a branch */
    n -= half;
  }
  b += *b < t;
  const int64_t at = b - g->dst;
  return at < hi && *b == t ? at : -1;
}

/* g.getedge(p, t) outside a neighbour loop (§3.1): the sorted search
 * inline, so that the C compiler keeps p's bounds in registers (it was
 * most of tc.fal's time as a library call); graphs that mutate or were
 * reordered by sortEdges take the runtime's search. */
static inline fal_edge fal_graph_getedge(const fal_graph *g, fal_point p, fal_point t)
{
  if (g->end || g->unsorted)
    return fal_graph_getedge_any(g, p, t);
  return fal_graph_getedge_sorted(g, p, t);
}

/* On a mutable graph: p's slots in use, deleted edges included. */
static inline int64_t fal_outdeg(const fal_graph *g, fal_point p)
{
  return (g->end ? g->end[p] : g->offsets[p + 1]) - g->offsets[p];
}

static inline int64_t fal_indeg(const fal_graph *g, fal_point p)
{
  return g->in_offsets[p + 1] - g->in_offsets[p];
}

/* parallel sections (§4.5) run each section on a thread of its own; a
 * foreach inside a section is itself parallel, so nested OpenMP regions
 * are allowed (two levels). */
static inline void fal_omp_nested(void)
{
#ifdef _OPENMP
  if (omp_get_max_active_levels() < 2)
    omp_set_max_active_levels(2);
#endif
}

/* The chunk of a dynamic schedule over n iterations shared by the
 * threads of the team: about eight chunks a thread, 1 to 256 iterations
 * (a drain's batch may be a few hundred elements: a fixed chunk of 256
 * would leave most threads idle). */
static inline int fal_omp_chunk(int64_t n)
{
  int t = 1;
#ifdef _OPENMP
  t = omp_get_num_threads();
#endif
  int64_t k = n / ((int64_t)t * 8);
  return k < 1 ? 1 : k > 256 ? 256 : (int)k;
}

/* Edge-balanced static schedule (docs/optimiser.md, "Edge-balanced
 * loops"): the first point of part k of nparts when points [0, np) are cut
 * so that each part holds about the same count of points plus edges, off
 * being the CSR offsets the loop's neighbour loops walk (off[p] edges come
 * before point p).  Each thread finds its own bounds by binary search. */
static inline int64_t fal_edge_split(const int64_t *off, int64_t np, int64_t k, int64_t nparts)
{
  if (k <= 0 || np <= 0)
    return 0;
  if (k >= nparts)
    return np;
  /* the first p with off[p] + p >= total * k / nparts */
  double want = (double)(off[np] + np) * (double)k / (double)nparts;
  int64_t lo = 0, hi = np;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if ((double)(off[mid] + mid) < want)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Whether g's average out-degree (edges per point) is at least d: the
 * test that tells skewed graphs from road-like ones, for the CPU's
 * edge-balanced shares and the GPU's warp per point. */
static inline int fal_degree_at_least(const fal_graph *g, double d)
{
  return (double)g->nedges >= d * (double)(g->npoints > 0 ? g->npoints : 1);
}

/* Whether a CPU region's phase whose every point walks its neighbour
 * lists takes edge-balanced shares (fal_edge_share): on graphs of average
 * degree below 8 (road networks, meshes), where it measured faster than
 * dynamic chunks; not on skewed graphs, where it measured slower (PageRank
 * on slashdot, docs/optimiser.md).  FALCON_EDGE_BALANCE=on|off forces it.
 * Called by every thread of a region: the mode is read once, racing
 * threads storing the same value. */
static inline int fal_edge_balanced(const fal_graph *g)
{
  static int mode = -1; /* 0 by degree, 1 on, 2 off */
  int m = __atomic_load_n(&mode, __ATOMIC_RELAXED);
  if (m < 0) {
    int f = fal_env_switch("FALCON_EDGE_BALANCE", "on", "off");
    m = f == 1 ? 1 : f == 0 ? 2 : 0;
    __atomic_store_n(&mode, m, __ATOMIC_RELAXED);
  }
  if (m)
    return m == 1;
  return !fal_degree_at_least(g, 8);
}

/* The chunk of a dynamic schedule over n points: at least 256, and at
 * most 64 chunks a thread (every chunk is taken with an atomic on one
 * shared counter, and 16 threads contending for it made 4,096 chunks of
 * 256 cost milliseconds: H100 machine's host, kron-20, cc.fal 7.4 ->
 * 6.2 ms, pagerank.fal 53.4 -> 50.6 ms with 1,024; triangle counting
 * on Slashdot, whose points' work is most uneven, was fastest with 256).
 * FALCON_CHUNK=N sets it. */
static inline int fal_chunk(int64_t n)
{
#ifdef _OPENMP
  static int fixed = -1; /* read once; threads may race to set the same value */
  int f = __atomic_load_n(&fixed, __ATOMIC_RELAXED);
  if (f < 0) {
    double v;
    f = fal_env_number("FALCON_CHUNK", 1, (1 << 30) - 1, true, &v) ? (int)v : 0;
    __atomic_store_n(&fixed, f, __ATOMIC_RELAXED);
  }
  if (f > 0)
    return f;
  /* (in a region, the team's size: omp_get_max_threads would give the
   * size of a nested team) */
  int t = omp_in_parallel() ? omp_get_num_threads() : omp_get_max_threads();
  int64_t c = n / (64 * (int64_t)(t > 0 ? t : 1));
  return c > 256 ? (int)(c < (1 << 30) ? c : 1 << 30) : 256;
#else
  (void)n;
  return 256;
#endif
}

/* The schedule of a parallel foreach over a graph's points
 * (`schedule(runtime)`, set here just before the loop): on graphs of
 * average degree below 8, equal contiguous shares (schedule(static)):
 * per-point work is about even, and neighbouring ids are often
 * neighbouring points (road networks), whose Set links and path
 * halvings dynamic chunks would split between threads (Afforest's
 * sampling rounds in cc.fal, road-FLA, 2 threads: 19-20 ms with chunks
 * of 256, 13.4-14.4 static); elsewhere dynamic chunks of 256 points, as
 * before.  FALCON_EDGE_BALANCE=on|off forces the first or the second. */
static inline void fal_sched_points(const fal_graph *g)
{
#ifdef _OPENMP
  if (fal_edge_balanced(g))
    omp_set_schedule(omp_sched_static, 0);
  else
    omp_set_schedule(omp_sched_dynamic, fal_chunk(g->npoints));
#else
  (void)g;
#endif
}

/* This thread's share [*lo, *hi) of an edge-balanced loop in a parallel
 * region (every thread of the team calls it). */
static inline void fal_edge_share(const int64_t *off, int64_t np, int64_t *lo, int64_t *hi)
{
  int64_t me = 0, nt = 1;
#ifdef _OPENMP
  me = omp_get_thread_num();
  nt = omp_get_num_threads();
#endif
  *lo = fal_edge_split(off, np, me, nt);
  *hi = fal_edge_split(off, np, me + 1, nt);
}

/* rtclock() (§8) for C and C++ alike (falcon/cuda.cuh redefines it to
 * wait for the GPU first).  A program that defines its own rtclock gets
 * FAL_NO_RTCLOCK defined by falconc, and keeps its own. */
#ifndef FAL_NO_RTCLOCK
#define rtclock() fal_rtclock()
#endif
/* makePartition policies (§7). */
#define ORDERED 0

#ifndef MAX_INT
#define MAX_INT INT_MAX
#endif

/* MIN(target, v, flag) on host threads (§4.2): the flag is set with an
 * atomic store so that many threads may set it at once.  A flag already
 * set is only read: every thread storing into the one cache line on every
 * success moved that line between cores each time (BFS on road-FLA ran
 * slower on 16 threads than on one).  Nothing clears the flag while a
 * parallel loop runs (it is reset between loops, behind a barrier), so
 * skipping the store of a 1 over a 1 changes nothing (a flag that holds
 * another value, 0 or 2, still gets its 1).  FAL_SET_FLAG is
 * this in C, and on the host side of falcon/cuda.cuh. */
#define FAL_SET_FLAG_HOST(f)                                                   \
  (__atomic_load_n(&(f), __ATOMIC_RELAXED) == 1                                \
       ? (void)0                                                               \
       : __atomic_store_n(&(f), 1, __ATOMIC_RELAXED))

#endif /* FALCON_HOST_H */
