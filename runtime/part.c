/*
 * part.c: the borders of a partitioned graph (§7): for each pair of parts,
 * the points of one that the other holds as ghosts.  The single-process
 * GPU border exchange (include/falcon/cuda.cuh, fal_bx) moves only these
 * points after a foreach; docs/lowering.md "Partitioned graphs (§7)".
 *
 * One pass over the edges per holder part marks the points outside its
 * range that share an edge with one of its own (either direction); a scan
 * of the marks, range by range, then gives each list sorted.  Time
 * O(k (n + m)) with k parts, memory n bytes of marks and the lists.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fal_borders_build(fal_borders *b, const fal_graph *g, const int64_t *lo, int k)
{
  memset(b, 0, sizeof *b);
  int64_t n = g->npoints;
  if (k < 1 || lo[0] != 0 || lo[k] != n)
    return -1;
  unsigned char *mark = (unsigned char *)malloc(n > 0 ? (size_t)n : 1);
  b->off = (int64_t *)calloc((size_t)k * k + 1, sizeof *b->off);
  if (!mark || !b->off) {
    free(mark);
    free(b->off);
    b->off = NULL;
    fprintf(stderr, "falcon: error: out of memory building the borders of %d parts\n", k);
    return -1;
  }
  b->k = k;
  size_t cap = 0, len = 0;
  for (int i = 0; i < k; i++) {
    int64_t mylo = lo[i], myhi = lo[i + 1];
    memset(mark, 0, n > 0 ? (size_t)n : 1);
#pragma omp parallel for schedule(dynamic, 4096)
    for (int64_t u = 0; u < n; u++) {
      int mine = u >= mylo && u < myhi;
      int64_t end = g->end ? g->end[u] : g->offsets[u + 1];
      for (int64_t e = g->offsets[u]; e < end; e++) {
        if (g->edel && g->edel[e])
          continue;
        int64_t v = g->dst[e];
        int vmine = v >= mylo && v < myhi;
        if (mine && !vmine)
          __atomic_store_n(&mark[v], 1, __ATOMIC_RELAXED);
        else if (!mine && vmine)
          __atomic_store_n(&mark[u], 1, __ATOMIC_RELAXED);
      }
    }
    size_t count = 0;
#pragma omp parallel for reduction(+ : count)
    for (int64_t p = 0; p < n; p++)
      count += mark[p];
    if (len + count > cap) {
      size_t ncap = (len + count) * 2 + 1;
      fal_point *np = (fal_point *)realloc(b->pts, ncap * sizeof *np);
      if (!np) {
        free(mark);
        fal_borders_free(b);
        fprintf(stderr, "falcon: error: out of memory building the borders of %d parts\n", k);
        return -1;
      }
      b->pts = np;
      cap = ncap;
    }
    for (int j = 0; j < k; j++) { /* list (i, j): j's range, ascending */
      b->off[i * k + j] = (int64_t)len;
      for (int64_t p = lo[j]; p < lo[j + 1]; p++)
        if (mark[p])
          b->pts[len++] = (fal_point)p;
    }
  }
  b->off[k * k] = (int64_t)len;
  free(mark);
  return 0;
}

void fal_borders_free(fal_borders *b)
{
  free(b->off);
  free(b->pts);
  memset(b, 0, sizeof *b);
}
