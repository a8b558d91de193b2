#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#line 1 "foreach_nbrs.fal"
/* §4.1: neighbour loops are sequential loops over the CSR; getweight of
 * the loop's own edge is free (§3.1). */
/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  int *dist; /* point property */
  int *seen; /* point property */
};
static void fal_G_read(fal_G *g, const char *path)
{
  g->fal_base.need_in_edges = 1;
  fal_gbase_read(&g->fal_base, path);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)g->fal_base.csr.nedges;
  g->directed = g->fal_base.csr.directed;
}
#line 3 "foreach_nbrs.fal"
int changed = 0;

void relax(fal_point p, fal_G *g)
{
  { const fal_point fal_p1 = p; for (int64_t fal_e2 = g->fal_base.csr.offsets[fal_p1], fal_n2 = g->fal_base.csr.offsets[fal_p1 + 1]; fal_e2 < fal_n2; fal_e2++) { fal_point t = g->fal_base.csr.dst[fal_e2]; {
#line 8 "foreach_nbrs.fal"
    (FAL_ATOMIC_ANY(min, &(g->dist[t]), (g->dist[p] + g->fal_base.csr.weight[fal_e2])) ? (FAL_SET_FLAG(changed), 1) : 0); } } }
#line 8 "foreach_nbrs.fal"

  { const fal_point fal_p3 = p; for (int64_t fal_e4 = g->fal_base.csr.in_offsets[fal_p3], fal_n4 = g->fal_base.csr.in_offsets[fal_p3 + 1]; fal_e4 < fal_n4; fal_e4++) { fal_point t = g->fal_base.csr.in_src[fal_e4]; {
#line 10 "foreach_nbrs.fal"
    (FAL_ATOMIC_ANY(min, &(g->dist[p]), (g->dist[t] + g->fal_base.csr.weight[g->fal_base.csr.in_edge[fal_e4]])) ? (FAL_SET_FLAG(changed), 1) : 0); } } }
#line 10 "foreach_nbrs.fal"

  { const fal_point fal_p5 = p; for (int64_t fal_e6 = g->fal_base.csr.offsets[fal_p5] + (1), fal_n6 = g->fal_base.csr.offsets[fal_p5 + 1]; fal_e6 < fal_n6; fal_e6++) { fal_point t = g->fal_base.csr.dst[fal_e6]; {
#line 12 "foreach_nbrs.fal"
    g->seen[t] = 1; } } if (g->directed) for (int64_t fal_e7 = g->fal_base.csr.in_offsets[fal_p5] + (1), fal_n7 = g->fal_base.csr.in_offsets[fal_p5 + 1]; fal_e7 < fal_n7; fal_e7++) { fal_point t = g->fal_base.csr.in_src[fal_e7]; {
#line 12 "foreach_nbrs.fal"
    g->seen[t] = 1; } } }
#line 12 "foreach_nbrs.fal"

}

int main()
{
  static fal_G fal_gs_g; fal_G *g = &fal_gs_g;
  fal_prop_add(&g->fal_base, (void **)&g->dist, sizeof(int), FAL_PROP_POINT);
  fal_prop_add(&g->fal_base, (void **)&g->seen, sizeof(int), FAL_PROP_POINT);
  { fal_sched_points(&g->fal_base.csr); 
#pragma omp parallel for schedule(runtime)
#line 20 "foreach_nbrs.fal"
for (fal_point t = 0; t < g->npoints; t++) {
#line 20 "foreach_nbrs.fal"
                          relax(t, g); } }
#line 20 "foreach_nbrs.fal"

}
