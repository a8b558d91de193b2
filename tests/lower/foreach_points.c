#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#line 1 "foreach_points.fal"
/* §4.1: the outermost foreach is an OpenMP loop; a condition filters; a
 * break in its body ends this element only. */
/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  int *level; /* point property */
  int *done; /* point property */
};
static void fal_G_read(fal_G *g, const char *path)
{
  fal_gbase_read(&g->fal_base, path);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)g->fal_base.csr.nedges;
  g->directed = g->fal_base.csr.directed;
}
#line 3 "foreach_points.fal"
void level_up(fal_G *g, int lev)
{
  { fal_sched_points(&g->fal_base.csr); 
#pragma omp parallel for schedule(runtime)
#line 5 "foreach_points.fal"
for (fal_point t = 0; t < g->npoints; t++) { if (!(g->level[t] == lev)) continue;
#line 5 "foreach_points.fal"
                                          {
    if (g->done[t])
      continue;
    for (int i = 0; i < 3; i++)
      if (i == g->level[t])
        break;
    g->level[t] = lev + 1;
  } } }
#line 12 "foreach_points.fal"

}

int main()
{
  static fal_G fal_gs_g; fal_G *g = &fal_gs_g;
  fal_prop_add(&g->fal_base, (void **)&g->level, sizeof(int), FAL_PROP_POINT);
  fal_prop_add(&g->fal_base, (void **)&g->done, sizeof(int), FAL_PROP_POINT);
  level_up(g, 0);
}
