#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#line 1 "foreach_edges.fal"
/* §3.3, §4.1: edges and their fields. */
/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  int *mark; /* edge property */
};
static void fal_G_read(fal_G *g, const char *path)
{
  g->fal_base.need_sources = 1;
  fal_gbase_read(&g->fal_base, path);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)g->fal_base.csr.nedges;
  g->directed = g->fal_base.csr.directed;
}
#line 2 "foreach_edges.fal"
void mark_light(fal_G *g, int limit)
{
  
#pragma omp parallel for schedule(static)
#line 4 "foreach_edges.fal"
for (fal_edge e = 0; e < g->nedges; e++) { if (!(g->fal_base.csr.weight[e] < limit)) continue;
#line 4 "foreach_edges.fal"
                                           {
    g->mark[e] = 1;
    if (g->fal_base.csr.src[e] == g->fal_base.csr.dst[e])
      g->mark[e] = 2;
  } }
#line 8 "foreach_edges.fal"

}

int main()
{
  static fal_G fal_gs_g; fal_G *g = &fal_gs_g;
  fal_prop_add(&g->fal_base, (void **)&g->mark, sizeof(int), FAL_PROP_EDGE);
  mark_light(g, 10);
}
