#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#line 1 "gettype_cpu.fal"
/* §2 with --target=cpu: placements are host placements and a getType
 * graph is the host graph itself, so copies copy nothing. */
/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  int *dist; /* point property */
};
static void fal_G_read(fal_G *g, const char *path)
{
  fal_gbase_read(&g->fal_base, path);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)g->fal_base.csr.nedges;
  g->directed = g->fal_base.csr.directed;
}
#line 3 "gettype_cpu.fal"
int changed = 0, other = 0, host;

int main(int argc, char **argv)
{
  static fal_G fal_gs_hg; fal_G *hg = &fal_gs_hg;
  fal_prop_add(&hg->fal_base, (void **)&hg->dist, sizeof(int), FAL_PROP_POINT);
  fal_G_read(hg, argv[1]);
  fal_G *g = hg;
  g = hg;
  
#pragma omp parallel for schedule(dynamic, 256)
#line 12 "gettype_cpu.fal"
for (fal_point t = 0; t < g->npoints; t++) {
#line 12 "gettype_cpu.fal"
                          g->dist[t] = 0; }
#line 12 "gettype_cpu.fal"

  hg->dist = g->dist;
  hg = g;
  changed = other + host;
}
