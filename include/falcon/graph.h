/*
 * falcon/graph.h: graphs in compressed sparse row form, their loaders and
 * generators.  Part of libfalcon, the runtime that falconc's output links
 * against; usable from plain C as well.
 *
 * Representation (language reference §9, §10): points are dense 32-bit ids
 * 0..npoints-1; out-edges of point p are the edge ids offsets[p] ..
 * offsets[p+1]-1 (64-bit offsets, so graphs over 2^31 edges load); edge e
 * goes to dst[e] with weight weight[e].  Destination and weight arrays are
 * separate for coalesced access.  Undirected inputs are stored with both
 * directions (directed == 0; a self loop once).  Every graph this library
 * builds from a text format or a generator has each adjacency list sorted
 * by (dst, weight); duplicate edges and self loops of an input are kept.
 * A mutable graph (§6, "mutation" below) has gaps between the lists.
 *
 * The headers are C11.  C++ code (the CUDA target) includes them inside
 * `extern "C" { ... }`.
 *
 * Ownership: a fal_graph owns every array it points to; fal_graph_free
 * releases them.  Functions that can fail on bad input return -1 after
 * printing `path:line: error: message` to stderr (never abort); 0 on
 * success.
 */
#ifndef FALCON_GRAPH_H
#define FALCON_GRAPH_H

#include <stddef.h>
#include <stdint.h>

typedef int32_t fal_point; /* a point id (§3.2) */
typedef int64_t fal_edge;  /* an edge id (§3.3) */
typedef int32_t fal_weight;

struct fal_mutation;

/* single on a Collection (§4.3): who claimed each element this round.
 * A claim is the key ((FAL_OWN_EMAX - epoch) << 40 | id) of the claiming
 * loop element `id`; the smallest key wins (atomic min), so the lowest id
 * wins, and a new round (a larger epoch) beats every older claim without
 * clearing the array.  `own` is in host or device memory. */
typedef struct fal_owner {
  uint64_t *own;
  int64_t n;            /* elements allocated */
  uint64_t epoch;       /* this round */
} fal_owner;
#define FAL_OWN_EMAX (((uint64_t)1 << 24) - 1)
#define FAL_OWN_IDS ((uint64_t)1 << 40) /* loop elements per round */

typedef struct fal_graph {
  int64_t npoints;
  int64_t nedges;       /* directed edges stored (both directions counted) */
  int directed;         /* 0 when the input was undirected and symmetrised */
  int64_t *offsets;     /* npoints + 1 out-edge offsets */
  fal_point *dst;       /* nedges destinations */
  fal_weight *weight;   /* nedges weights (1 for unweighted inputs) */
  /* Built on request (NULL until then): */
  fal_point *src;       /* nedges sources: fal_graph_build_sources */
  int64_t *in_offsets;  /* npoints + 1: fal_graph_build_in_edges */
  fal_point *in_src;    /* in-edge tails */
  fal_edge *in_edge;    /* the out-edge id of each in-edge */
  /* The mutable layout (§6, fal_graph_make_mutable); all NULL/0 for a
   * read-only graph.  In it, edge ids are slots: p's out-edges are the
   * slots [offsets[p], end[p]) whose edel is 0 (never offsets[p + 1]);
   * npoints counts the point ids handed out (deleted ones included),
   * nedges the live edges; offsets/end/limit/pdel have point_cap (+1)
   * entries, dst/weight/src/edel slot_cap; src is always built. */
  int64_t *end;         /* p's slots in use (live or deleted) end here */
  int64_t *limit;       /* p's region is [offsets[p], limit[p]) */
  unsigned char *edel;  /* per slot: 1 = deleted or unused */
  unsigned char *pdel;  /* per point: 1 = deleted */
  int64_t nslots;       /* edge loops: slots 0..nslots-1 not edel */
  int64_t slot_cap, point_cap;
  int64_t grows;        /* times fal_graph_settle grew the layout */
  uint64_t version;     /* bumped by each settle after a change */
  int dirty;            /* changed since the last settle */
  struct fal_mutation *mut; /* pending additions (runtime/mutate.c) */
  int unsorted;         /* sortEdges (§3.1): out-edges are not in destination
                         * order, so edge look-ups search linearly */
  /* Rows only (fal_graph_read_bin_rows; MPI ranks, docs/lowering.md
   * "What each rank keeps"): the out-edges of points [row_lo, row_hi)
   * alone.  offsets[] keeps every point's degree but is shifted by row_e0
   * (the file's id of the first edge held), so a held point's edges are
   * dst[offsets[p] .. offsets[p + 1]) as usual; nedges counts the edges
   * held, all_edges the file's.  In-edges (if built) are those of held
   * points too, with in_edge -1 for an edge held by another rank. */
  int rows;
  int64_t row_lo, row_hi, row_e0, all_edges;
} fal_graph;

/* Input formats of §9.  FAL_FORMAT_AUTO picks by content (magic bytes, then
 * the first lines of a text file), never by the file name. */
typedef enum fal_format {
  FAL_FORMAT_AUTO,
  FAL_FORMAT_FALCON_TEXT, /* "n m" then "src dst w" lines, 0-based, directed */
  FAL_FORMAT_SNAP,        /* '#' comments, "src dst [w]", 0-based, directed */
  FAL_FORMAT_DIMACS,      /* "p sp n m", "a u v w", 1-based, directed */
  FAL_FORMAT_PACE,        /* "p tw n m", "u v", 1-based, undirected */
  FAL_FORMAT_MTX,         /* Matrix Market coordinate, general/symmetric */
  FAL_FORMAT_GALOIS_GR,   /* Galois/LonestarGPU binary .gr version 1 */
  FAL_FORMAT_FALCON_BIN   /* falconc's own binary CSR (fal_graph_write_bin) */
} fal_format;

/* Reads `path` (optionally .gz or .xz compressed, detected by magic bytes)
 * into *g, which must be zeroed or freed.  Returns 0, or -1 after printing
 * `path:line: error: ...`. */
int fal_graph_read(fal_graph *g, const char *path, fal_format format);

/* Writes the binary CSR format (fast to reload).  Returns 0 or -1. */
int fal_graph_write_bin(const fal_graph *g, const char *path);

/* Writes the Falcon edge-list text format ("n m" then "src dst w"). */
int fal_graph_write_text(const fal_graph *g, const char *path);

/* Writes DIMACS text ("p sp n m" then "a u v w", 1-based).  Both text
 * writers write every stored edge (an undirected graph's in both
 * directions).  Returns 0 or -1. */
int fal_graph_write_dimacs(const fal_graph *g, const char *path);

/* Builds g->src (one entry per edge).  Idempotent. */
void fal_graph_build_sources(fal_graph *g);

/* Builds the in-edge CSR (in_offsets, in_src, in_edge).  Idempotent.  On
 * an undirected graph the in-edges equal the out-edges. */
void fal_graph_build_in_edges(fal_graph *g);

/* ORDERED (§7): k contiguous ranges lo[0..k] of n points balanced by m
 * out-edges, from offsets off[0..n] (each plus `base`).  Partitions of one
 * process and MPI ranks are cut by it.  FALCON_PART_SHARES=a,b,... (k
 * positive numbers) gives part i a/(a+b+...) of the edges instead of 1/k. */
void fal_graph_cut_ordered(const int64_t *off, int64_t base, int64_t n, int64_t m, int k,
                           int64_t *lo);

/* What a foreach over a partitioned graph leaves for the exchange after
 * it (falconc lower_loop.c render_partitioned_foreach).  The generated
 * fal_G_bx_begin and fal_G_bx_end (parts of one process), their device
 * twins fal_G_px_end and fal_G_px_mid (a loop in the parts' kernels:
 * FAL_EX_MERGE or FAL_EX_OWN) and fal_G_mpi_begin (MPI ranks) take it as
 * `ex`; fal_mpi_plan keeps it (its field ex).
 *   FAL_EX_MERGE   a part may have written points that others own: the
 *                  owners merge the changed copies, then every ghost takes
 *                  its owner's value;
 *   FAL_EX_OWN     each part wrote only its own points: the ghosts take
 *                  their owners' values, nothing is merged;
 *   FAL_EX_OWNERS  the foreach's MINs went to their owners at once (the
 *                  parts' or ranks' GPUs reach each other's memory):
 *                  nothing now; the loop refreshes the ghosts when it ends;
 *   FAL_EX_ALIKE   every part wrote every copy of its points alike
 *                  (lower_loop.c bx_alike): nothing at all. */
enum { FAL_EX_MERGE = 0, FAL_EX_OWN = 1, FAL_EX_OWNERS = 2, FAL_EX_ALIKE = 3 };

/* Reads only the rows of range `me` of a k-way ORDERED cut of an
 * uncompressed Falcon binary CSR file (the offsets whole, then one slice of
 * destinations and of weights: see fal_graph's rows fields).  0: read;
 * 1: not such a file (read it whole instead); -1: an error was printed. */
int fal_graph_read_bin_rows(fal_graph *g, const char *path, int k, int me);

/* A deep copy of src's structure into dst (whose arrays are not freed);
 * pending additions of a mutable graph are not copied (settle first). */
void fal_graph_clone(fal_graph *dst, const fal_graph *src);

/* Releases every array and zeroes *g. */
void fal_graph_free(fal_graph *g);

/* Replaces all weights by deterministic pseudo-random values in
 * [lo, hi], a function of (seed, min(src,dst), max(src,dst)) so that both
 * directions of an undirected edge get the same weight. */
void fal_graph_random_weights(fal_graph *g, uint64_t seed, fal_weight lo,
                              fal_weight hi);

/* ---- mutation (§6): runtime/mutate.c ------------------------------------- *
 *
 * A mutable graph gives every point a region of edge slots with spare room
 * and keeps a slot's source in src.  Additions are safe from many threads
 * at once: an edge claims the next free slot of its source's region by
 * compare-and-swap, or, when the region is full (or an endpoint has no
 * storage yet), goes to an overflow list.  Deletion marks (edel, pdel).
 * Between parallel loops the host calls fal_graph_settle, which makes the
 * overflow visible by growing the layout.  Edge ids (slots) stay fixed
 * except when settle grows; point ids never change. */

/* Converts a loaded CSR in place: each point gets max(factor * degree, 4)
 * slots (factor below 3 counts as 3), point_cap = factor * npoints + 16.
 * Edge e of point p moves to slot offsets'[p] + (e - offsets[p]); in-edges
 * built before are rebuilt.  No-op on a mutable graph.  0, or -1 after
 * printing a message when memory runs out (g is then unchanged). */
int fal_graph_make_mutable(fal_graph *g, int factor);
int fal_graph_is_mutable(const fal_graph *g);

/* A new point id (npoints - 1 afterwards), with no edge slots of its own:
 * its out-edges go to the overflow list until the next growth.  An id >=
 * point_cap has no per-point storage (pdel, properties) until settle
 * grows; edges may still be added from and to it. */
fal_point fal_graph_add_point(fal_graph *g);

/* Adds u -> v with weight w (one direction, also on an undirected graph).
 * Returns its slot, or -1 when it went to the overflow list (its slot is
 * known after settle).  nedges counts it at once either way.  A point id
 * not handed out prints `falcon: error: addEdge(u, v): no such point` and
 * exits 1.  Concurrent readers of u's slots see the edge complete or not
 * at all (edel is cleared last). */
fal_edge fal_graph_add_edge(fal_graph *g, fal_point u, fal_point v,
                            fal_weight w);

/* Mark an edge slot / a point deleted (idempotent; nedges counts live
 * edges).  A deleted point keeps its edges: iterators skip edges into it
 * (and rebuilt in-edges leave them out).  Unknown ids exit 1 with a
 * message; -1 (an edge still in the overflow list) is unknown. */
void fal_graph_del_edge(fal_graph *g, fal_edge e);
void fal_graph_del_point(fal_graph *g, fal_point p);

/* For a graph whose mutable layout arrays (offsets .. pdel, nslots, the
 * capacities) were filled in by the caller, e.g. copied back from a GPU:
 * allocates the list of pending additions.  0, or -1 after printing a
 * message when memory runs out. */
int fal_graph_attach_mutation(fal_graph *g);

/* What settle tells the owner of per-slot and per-point arrays when it
 * grows: the new layout's slot s holds the edge of old slot from[s], or a
 * new (overflowed) edge or an unused slot where from[s] is -1.  Per-point
 * arrays keep their indices and need point_cap (+1) entries. */
typedef struct fal_graph_moves {
  const int64_t *from;            /* [slot_cap] */
  int64_t old_slot_cap, slot_cap; /* entries of per-slot arrays */
  int64_t old_point_cap, point_cap;
} fal_graph_moves;
typedef void (*fal_graph_move_fn)(void *arg, const fal_graph_moves *m);

/* Called by the host between parallel loops (never during one).  When
 * edges overflowed, a pending point was deleted, or fewer than npoints
 * point ids are spare (2 * npoints > point_cap), it grows: every point
 * gets max(3 * live slots incl. overflow, 4) slots in a fresh layout
 * (deleted slots are dropped, so every edge id may change: move(arg,
 * &moves) is then called; move may be NULL); slot_cap at least doubles
 * when exceeded, point_cap becomes max(2 * point_cap, 3 * npoints + 16)
 * when short; grows++.  After
 * any change since the last settle it bumps version and rebuilds in-edges
 * if they were built (only live edges between live points).  Returns 1
 * if it grew, 0 if not, -1 after printing a message when memory ran out
 * (g unchanged, the overflow kept).  With FALCON_VERBOSE set, growth
 * prints `falcon: graph grown: N points, M edge slots (growth K)` (the new
 * point_cap and slot_cap) to stderr. */
int fal_graph_settle(fal_graph *g, fal_graph_move_fn move, void *arg);

/* ---- generators (deterministic for a given seed) ---------------------- */

/* Uniform random directed graph: n points, m edges. */
int fal_graph_gen_uniform(fal_graph *g, int64_t n, int64_t m, uint64_t seed);
/* R-MAT / Kronecker (Graph500 parameters a=.57 b=.19 c=.19): 2^scale
 * points, about degree * 2^scale undirected edges, symmetrised. */
int fal_graph_gen_kron(fal_graph *g, int scale, int degree, uint64_t seed);
/* rows x cols 4-neighbour grid, undirected (a road-like graph). */
int fal_graph_gen_grid(fal_graph *g, int64_t rows, int64_t cols);

/* ---- helpers used by generated code ------------------------------------ */

/* Seconds since an arbitrary point, as a double (§8 rtclock). */
double fal_rtclock(void);
/* FALCON_VERBOSE set to anything but "" or "0" (the notes and counters
 * that the runtime prints on request). */
int fal_verbose(void);

/* Allocation that prints a clear message and exits(1) when memory runs
 * out (never returns NULL). */
void *fal_alloc(size_t n);
void *fal_calloc(size_t n, size_t size);
void *fal_realloc(void *p, size_t n);
void fal_free(void *p);
/* "512M", "8G", "1.5T", "4096": bytes (K, M, G, T are powers of 1024), or
 * -1 when s is not such a size.  FALCON_MEM_LIMIT (a graph's host memory,
 * checked before loading) and FALCON_GPU_MEM_LIMIT (its device memory)
 * are read with it. */
int64_t fal_parse_size(const char *s);

/* FALCON_PROFILE=1 (runtime/profile.c): planned loops report, at exit,
 * their line, plan, times entered, rounds and time. */
int fal_prof_enabled(void);
double fal_prof_t0(void);
void fal_prof_end(const char *file, int line, const char *plan, double t0, long long rounds);
/* FALCON_PROFILE: the points a CPU region's phases visited (profile.c). */
void fal_prof_visits(const char *file, int line, const char *plan, long long visited);

/* ---- borders of a partitioned graph (§7; runtime/part.c) ---------------- */

/* k parts own the contiguous ranges [lo[i], lo[i+1]) of the points.  An
 * edge u -> v between two parts makes v a ghost of u's part and u a ghost
 * of v's part (a foreach may read or write either end through outnbrs,
 * innbrs or nbrs).  List (i, j), i != j, is the sorted set of points that
 * part j owns and part i holds as ghosts: pts[off[i * k + j] ..
 * off[i * k + j + 1]).  Lists of a holder are contiguous (j ascending),
 * so pts[off[i * k] .. off[i * k + k]) are all the ghosts of part i. */
typedef struct fal_borders {
  int k;
  int64_t *off;   /* k * k + 1 */
  fal_point *pts;
} fal_borders;
/* Builds the lists from the out-edges (deleted edges and the §6 gaps
 * skipped).  0, or -1 with a message when memory runs out. */
int fal_borders_build(fal_borders *b, const fal_graph *g, const int64_t *lo, int k);
void fal_borders_free(fal_borders *b);
#define FAL_BORDER_N(b, i, j) ((b)->off[(i) * (b)->k + (j) + 1] - (b)->off[(i) * (b)->k + (j)])

#endif /* FALCON_GRAPH_H */
