#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#line 1 "loop_redux.fal"
/* A reduction in a planned CPU loop (plan.c plan_redux): every thread
 * adds its share of the elements, then one atomic update; barriers from
 * the conflicts with the phases around it. */
/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  double *x; /* point property */
  double *y; /* point property */
  int *w; /* edge property */
};
static void fal_G_read(fal_G *g, const char *path)
{
  g->fal_base.need_sources = 1;
  fal_gbase_read(&g->fal_base, path);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)g->fal_base.csr.nedges;
  g->directed = g->fal_base.csr.directed;
}
#line 4 "loop_redux.fal"
int main()
{
  static fal_G fal_gs_g; fal_G *g = &fal_gs_g;
  fal_prop_add(&g->fal_base, (void **)&g->x, sizeof(double), FAL_PROP_POINT);
  fal_prop_add(&g->fal_base, (void **)&g->y, sizeof(double), FAL_PROP_POINT);
  fal_prop_add(&g->fal_base, (void **)&g->w, sizeof(int), FAL_PROP_EDGE);
  fal_G_read(g, "graph.bin");
  double change = 1;
  long heavy = 0;
  int rounds = 0;
  { double fal_pt0 = fal_prof_t0(); long long fal_lr = 0, fal_vis = 0; int fal_go = 0; (void)fal_go;
#pragma omp parallel
{
while (change > 1e-6 && rounds < 50) {
if (omp_get_thread_num() == 0) fal_vis += g->npoints;
#pragma omp for schedule(static) nowait
#line 15 "loop_redux.fal"
for (int64_t fal_i = 0; fal_i < g->npoints; fal_i++) { do { fal_point t = (fal_point)fal_i; {
#line 15 "loop_redux.fal"
                            g->y[t] = g->x[t] / 2; } } while (0); do { fal_point t = (fal_point)fal_i; {
#line 19 "loop_redux.fal"
                            g->x[t] = g->y[t]; } } while (0); }
#pragma omp barrier
#line 16 "loop_redux.fal"
if (omp_get_thread_num() == 0) change = 0;
#pragma omp barrier
#line 17 "loop_redux.fal"
{ __typeof__(change) fal_r1 = 0;
#pragma omp for schedule(static) nowait
#line 17 "loop_redux.fal"
for (int64_t fal_i1 = 0; fal_i1 < g->npoints; fal_i1++)  fal_r1 += (g->y[fal_i1]);
#pragma omp atomic
change += fal_r1; }
#line 17 "loop_redux.fal"

#line 18 "loop_redux.fal"
{ __typeof__(heavy) fal_r2 = 0;
#pragma omp for schedule(static) nowait
#line 18 "loop_redux.fal"
for (int64_t fal_i2 = 0; fal_i2 < g->nedges; fal_i2++) if (g->w[fal_i2] > 10) fal_r2 += (g->w[fal_i2]);
#pragma omp atomic
heavy += fal_r2; }
#line 18 "loop_redux.fal"

#line 20 "loop_redux.fal"
if (omp_get_thread_num() == 0) rounds++;
#pragma omp barrier
if (omp_get_thread_num() == 0) fal_lr++;
}
}
fal_prof_end("loop_redux.fal", 14, "region", fal_pt0, fal_lr); fal_prof_visits("loop_redux.fal", 14, "region", fal_vis); }
#line 21 "loop_redux.fal"

}
