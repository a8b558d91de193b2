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

/* Releases every array and zeroes *g. */
void fal_graph_free(fal_graph *g);

/* Replaces all weights by deterministic pseudo-random values in
 * [lo, hi], a function of (seed, min(src,dst), max(src,dst)) so that both
 * directions of an undirected edge get the same weight. */
void fal_graph_random_weights(fal_graph *g, uint64_t seed, fal_weight lo,
                              fal_weight hi);

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

/* Allocation that prints a clear message and exits(1) when memory runs
 * out (never returns NULL). */
void *fal_alloc(size_t n);
void *fal_calloc(size_t n, size_t size);
void fal_free(void *p);

#endif /* FALCON_GRAPH_H */
