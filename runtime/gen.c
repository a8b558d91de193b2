/*
 * gen.c: synthetic graphs, deterministic for a given seed.
 *
 * - uniform: m directed edges whose ends are drawn uniformly (Erdős–Rényi
 *   G(n, m) with repetition; self loops and duplicates are kept).
 * - kron: the R-MAT recursive matrix generator (Chakrabarti, Zhan and
 *   Faloutsos, SDM 2004) with the Graph500 parameters a=.57 b=.19 c=.19
 *   (d=.05): each edge picks a quadrant of the adjacency matrix once per
 *   bit of the point ids.  As in the Graph500 reference, point ids are
 *   then permuted at random so that degree does not follow the id.  The
 *   result is symmetrised, without self loops or duplicate edges.
 * - grid: a rows x cols 4-neighbour mesh, a stand-in for road networks.
 *
 * Random numbers come from SplitMix64 (Steele, Lea and Flood, OOPSLA
 * 2014): tiny, fast and good enough for graph generation.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

static uint64_t rng_next(uint64_t *state)
{
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static int gen_error(const char *generator, const char *message)
{
  fprintf(stderr, "falcon: error: %s generator: %s\n", generator, message);
  return -1;
}

/* Room for m edges in an edge list, without doubling past it. */
static void reserve_exact(fal_edge_list *l, int64_t m)
{
  l->cap = m;
  l->src = fal_alloc_array((size_t)m, sizeof *l->src);
  l->dst = fal_alloc_array((size_t)m, sizeof *l->dst);
  l->w = fal_alloc_array((size_t)m, sizeof *l->w);
}

int fal_graph_gen_uniform(fal_graph *g, int64_t n, int64_t m, uint64_t seed)
{
  if (n < 1 || n > INT32_MAX)
    return gen_error("uniform", "the number of points must be 1..2147483647");
  if (m < 0 || m > ((int64_t)1 << 40))
    return gen_error("uniform", "the number of edges must be 0..2^40");
  fal_edge_list l = {0};
  uint64_t state = seed;
  reserve_exact(&l, m);
  for (int64_t i = 0; i < m; i++) {
    fal_point s = (fal_point)(rng_next(&state) % (uint64_t)n);
    fal_point d = (fal_point)(rng_next(&state) % (uint64_t)n);
    fal_edge_list_push(&l, s, d, 1);
  }
  fal_graph_from_edges(g, n, &l, 1);
  return 0;
}

/* One R-MAT edge: a quadrant per bit, most significant bit first, drawn
 * with 32 random bits (two bits of the ids per 64-bit draw).  The state
 * is the edge's own, so edges can be drawn in any order or in parallel
 * and the graph still depends on the seed alone. */
static void rmat_edge(uint64_t state, int scale, fal_point *u, fal_point *v)
{
  /* a, a + b and a + b + c as fractions of 2^32 */
  const uint32_t a = 2448131359u, ab = 3264175145u, abc = 4080218931u;
  uint32_t x = 0, y = 0;
  uint64_t r = 0;
  for (int bit = scale - 1; bit >= 0; bit--) {
    if ((scale - 1 - bit) % 2 == 0)
      r = rng_next(&state);
    uint32_t q = (uint32_t)r;
    r >>= 32;
    x |= (uint32_t)(q >= ab) << bit;
    y |= (uint32_t)((q >= a && q < ab) || q >= abc) << bit;
  }
  *u = (fal_point)x;
  *v = (fal_point)y;
}

/* A random permutation of 0..n-1 (Fisher-Yates). */
static fal_point *random_permutation(int64_t n, uint64_t *state)
{
  fal_point *perm = fal_alloc_array((size_t)n, sizeof *perm);
  for (int64_t i = 0; i < n; i++)
    perm[i] = (fal_point)i;
  for (int64_t i = n - 1; i > 0; i--) {
    int64_t j = (int64_t)(rng_next(state) % (uint64_t)(i + 1));
    fal_point t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  return perm;
}

int fal_graph_gen_kron(fal_graph *g, int scale, int degree, uint64_t seed)
{
  if (scale < 1 || scale > 30)
    return gen_error("kron", "the scale must be 1..30");
  if (degree < 1 || degree > 1024)
    return gen_error("kron", "the degree must be 1..1024");
  int64_t n = (int64_t)1 << scale, m = n * degree;
  uint64_t state = seed;
  fal_edge_list l = {0};
  fal_point *perm = random_permutation(n, &state);
  uint64_t base = rng_next(&state);
  reserve_exact(&l, m);
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
  for (int64_t i = 0; i < m; i++) {
    fal_point u, v;
    rmat_edge(base ^ ((uint64_t)i * 0xd1342543de82ef95ull), scale, &u, &v);
    l.src[i] = perm[u];
    l.dst[i] = perm[v];
    l.w[i] = 1;
  }
  l.n = m;
  free(perm);
  fal_graph_from_edges(g, n, &l, 0);
  fal_graph_simplify(g);
  return 0;
}

int fal_graph_gen_grid(fal_graph *g, int64_t rows, int64_t cols)
{
  if (rows < 1 || cols < 1 || rows > INT32_MAX / cols)
    return gen_error("grid", "rows and cols must be at least 1, with "
                     "rows * cols at most 2147483647");
  fal_edge_list l = {0};
  reserve_exact(&l, rows * (cols - 1) + (rows - 1) * cols);
  for (int64_t r = 0; r < rows; r++)
    for (int64_t c = 0; c < cols; c++) {
      fal_point p = (fal_point)(r * cols + c);
      if (c + 1 < cols)
        fal_edge_list_push(&l, p, p + 1, 1);
      if (r + 1 < rows)
        fal_edge_list_push(&l, p, (fal_point)(p + cols), 1);
    }
  fal_graph_from_edges(g, rows * cols, &l, 0);
  return 0;
}
