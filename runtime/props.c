/*
 * props.c: the runtime half of a graph variable in generated code
 * (fal_gbase, falcon/falcon.h): property registration and allocation
 * (struct of arrays, §3.1), loading, the hidden locks of `single` (§4.3)
 * and edge look-ups outside a neighbour loop (§3.1 getweight/getedge).
 */
#include "falcon/falcon.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t prop_count(const fal_gbase *b, fal_prop_kind kind)
{
  switch (kind) {
  case FAL_PROP_POINT:
    return (size_t)b->csr.npoints;
  case FAL_PROP_EDGE:
    return (size_t)b->csr.nedges;
  case FAL_PROP_GRAPH:
    return 1;
  }
  return 1;
}

static void prop_alloc(const fal_gbase *b, const fal_prop *p)
{
  fal_free(*p->slot);
  *p->slot = fal_calloc(prop_count(b, p->kind) + 1, p->size);
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

void fal_gbase_read(fal_gbase *b, const char *path)
{
  fal_graph_free(&b->csr);
  if (fal_graph_read(&b->csr, path, FAL_FORMAT_AUTO) != 0)
    exit(1);
  b->loaded = 1;
  if (b->need_in_edges)
    fal_graph_build_in_edges(&b->csr);
  if (b->need_sources)
    fal_graph_build_sources(&b->csr);
  for (int i = 0; i < b->nprops; i++)
    if (b->props[i].kind != FAL_PROP_GRAPH)
      prop_alloc(b, &b->props[i]);
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
  fal_graph_free(&b->csr);
  memset(b, 0, sizeof *b);
}

void fal_single_reset(fal_gbase *b, int edges)
{
  unsigned char **lock = edges ? &b->single_elock : &b->single_lock;
  size_t n = (size_t)(edges ? b->csr.nedges : b->csr.npoints) + 1;
  if (!*lock)
    *lock = fal_calloc(n, 1);
  else
    memset(*lock, 0, n);
}

/* Adjacency lists are sorted by destination (graph.c), so the first edge
 * p -> t is found by a lower-bound binary search. */
fal_edge fal_graph_getedge(const fal_graph *g, fal_point p, fal_point t)
{
  int64_t lo = g->offsets[p], hi = g->offsets[p + 1];
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (g->dst[mid] < t)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < g->offsets[p + 1] && g->dst[lo] == t ? lo : -1;
}

fal_weight fal_graph_getweight(const fal_graph *g, fal_point p, fal_point t)
{
  fal_edge e = fal_graph_getedge(g, p, t);
  return e < 0 ? 0 : g->weight[e];
}
