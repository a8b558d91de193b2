#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#line 1 "reduction.fal"
/* §4.4: reductions over edges and points. */
#include <stdio.h>

/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  int *mark; /* edge property */
  int *inmis; /* point property */
  double *prob; /* point property */
};
static void fal_G_read(fal_G *g, const char *path)
{
  g->fal_base.need_sources = 1;
  fal_gbase_read(&g->fal_base, path);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)g->fal_base.csr.nedges;
  g->directed = g->fal_base.csr.directed;
}
#line 4 "reduction.fal"
int main(int argc, char **argv)
{
  static fal_G fal_gs_g; fal_G *g = &fal_gs_g;
  fal_prop_add(&g->fal_base, (void **)&g->mark, sizeof(int), FAL_PROP_EDGE);
  fal_prop_add(&g->fal_base, (void **)&g->inmis, sizeof(int), FAL_PROP_POINT);
  fal_prop_add(&g->fal_base, (void **)&g->prob, sizeof(double), FAL_PROP_POINT);
  fal_G_read(g, argv[1]);
  long total = 0;
  int count = 0;
  double p = 1;
  { __typeof__(total) fal_r1 = 0;
#pragma omp parallel for reduction(+:fal_r1)
#line 14 "reduction.fal"
for (int64_t fal_i1 = 0; fal_i1 < g->nedges; fal_i1++) if (g->mark[fal_i1] == 1) fal_r1 += (g->fal_base.csr.weight[fal_i1]); total += fal_r1; }
#line 14 "reduction.fal"

  { __typeof__(count) fal_r2 = 0;
#pragma omp parallel for reduction(+:fal_r2)
#line 15 "reduction.fal"
for (int64_t fal_i2 = 0; fal_i2 < g->npoints; fal_i2++)  fal_r2 += (g->inmis[fal_i2]); count += fal_r2; }
#line 15 "reduction.fal"

  { __typeof__(p) fal_r3 = 1;
#pragma omp parallel for reduction(*:fal_r3)
#line 16 "reduction.fal"
for (int64_t fal_i3 = 0; fal_i3 < g->npoints; fal_i3++)  fal_r3 *= (g->prob[fal_i3]); p *= fal_r3; }
#line 16 "reduction.fal"

  printf("%ld %d %f\n", total, count, p);
}
