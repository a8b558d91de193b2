#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#line 1 "prototypes_cpu.fal"
/* CPU target: prototypes without a return type return void (§1). */
#include <stdio.h>

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
#line 4 "prototypes_cpu.fal"
int changed = 0;

void relax(fal_point p, fal_G *g);
int helper_from_c(int x);
static int local_only(int x);
int count_points(fal_G *g);

int main(int argc, char **argv)
{
  static fal_G fal_gs_g; fal_G *g = &fal_gs_g;
  fal_prop_add(&g->fal_base, (void **)&g->dist, sizeof(int), FAL_PROP_POINT);
  fal_G_read(g, argv[1]);
  { fal_sched_points(&g->fal_base.csr); 
#pragma omp parallel for schedule(runtime)
#line 16 "prototypes_cpu.fal"
for (fal_point t = 0; t < g->npoints; t++) {
#line 16 "prototypes_cpu.fal"
                          g->dist[t] = 1; } }
#line 16 "prototypes_cpu.fal"

  { fal_sched_points(&g->fal_base.csr); 
#pragma omp parallel for schedule(runtime)
#line 17 "prototypes_cpu.fal"
for (fal_point t = 0; t < g->npoints; t++) {
#line 17 "prototypes_cpu.fal"
                          relax(t, g); } }
#line 17 "prototypes_cpu.fal"

  printf("%d %d %d\n", count_points(g), helper_from_c(1), local_only(2));
}

void relax(fal_point p, fal_G *g)
{
  { const fal_point fal_p1 = p; for (int64_t fal_e2 = g->fal_base.csr.offsets[fal_p1], fal_n2 = g->fal_base.csr.offsets[fal_p1 + 1]; fal_e2 < fal_n2; fal_e2++) { fal_point t = g->fal_base.csr.dst[fal_e2]; {
#line 24 "prototypes_cpu.fal"
    (FAL_ATOMIC_ANY(min, &(g->dist[t]), (g->dist[p] + g->fal_base.csr.weight[fal_e2])) ? (FAL_SET_FLAG(changed), 1) : 0); } } }
#line 24 "prototypes_cpu.fal"

}

int count_points(fal_G *g)
{
  return g->npoints;
}

static int local_only(int x)
{
  return x + 1;
}
