#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#line 1 "properties.fal"
/* §3.1, §3.2: scalar, struct and graph-level properties; Point fields of a
 * property struct used as points; g.points[i]. */
struct node {
  int lock;
  fal_point set;
  int w;
};

/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  int *dist; /* point property */
  struct node *minppty; /* point property */
  int *changed; /* graph property */
};
static void fal_G_read(fal_G *g, const char *path)
{
  fal_gbase_read(&g->fal_base, path);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)g->fal_base.csr.nedges;
  g->directed = g->fal_base.csr.directed;
}
#line 9 "properties.fal"
int main(int argc, char **argv)
{
  static fal_G fal_gs_g; fal_G *g = &fal_gs_g;
  fal_prop_add(&g->fal_base, (void **)&g->dist, sizeof(int), FAL_PROP_POINT);
  fal_prop_add(&g->fal_base, (void **)&g->minppty, sizeof(struct node), FAL_PROP_POINT);
  fal_prop_add(&g->fal_base, (void **)&g->changed, sizeof(int), FAL_PROP_GRAPH);
  fal_G_read(g, argv[1]);
  g->changed[0] = 0;
  g->dist[(0)] = 0;
  fal_point t1 = (1);
  g->minppty[t1].set = (0);
  g->dist[g->minppty[t1].set] = g->minppty[t1].w + fal_outdeg(&g->fal_base.csr, t1);
  return 0;
}
