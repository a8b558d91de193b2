#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#line 1 "redux_local.fal"
/*
 * §4.4: host reductions inside a parallel foreach.  Where every mention of
 * a local variable in the loop is `v op= e;` / `v = v op e;` with one
 * operator, the threads reduce into their own copies (an OpenMP
 * reduction clause); anything else keeps one atomic per update.
 */
#include <stdio.h>

long g_total = 0;

/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  int *w; /* point property */
};
static void fal_G_read(fal_G *g, const char *path)
{
  fal_gbase_read(&g->fal_base, path);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)g->fal_base.csr.nedges;
  g->directed = g->fal_base.csr.directed;
}
#line 11 "redux_local.fal"
int main(int argc, char **argv)
{
  static fal_G fal_gs_hg; fal_G *hg = &fal_gs_hg;
  fal_prop_add(&hg->fal_base, (void **)&hg->w, sizeof(int), FAL_PROP_POINT);
  fal_G_read(hg, argv[1]);
  long a = 0, a2 = 1, b = 0, c2 = 0, d = 0;
  unsigned m = 0;
  double s = 0;
  { fal_sched_points(&hg->fal_base.csr); 
#pragma omp parallel for schedule(runtime) reduction(|:m) reduction(+:d)
#line 19 "redux_local.fal"
for (fal_point t = 0; t < hg->npoints; t++) {
#line 19 "redux_local.fal"
                           {
    (void)FAL_ATOMIC_ANY(add, &(a), (a));          /* the operand names a: an atomic */
    (void)FAL_ATOMIC_ANY(add, &(a2), (t * a2));       /* here too (the compound form): an atomic */
    (void)FAL_ATOMIC_ANY(add, &(b), (1));
    if (b > 3)          /* b is read: atomics */
      hg->w[t] = 1;
    (void)FAL_ATOMIC_ANY(add, &(c2), (1));
    (void)FAL_ATOMIC_ANY(mul, &(c2), (2));            /* two operators: atomics */
    (void)FAL_ATOMIC_ANY(add, &(g_total), (1));       /* file scope: an atomic */
    m |= (unsigned)(hg->w[t]);           /* its own copy */
    d -= (long)(hg->w[t]);           /* + and - are one operator: its own copy */
    d += (long)(2);
  } } }
#line 31 "redux_local.fal"

  { fal_sched_points(&hg->fal_base.csr); 
#pragma omp parallel for schedule(runtime) reduction(+:s)
#line 32 "redux_local.fal"
for (fal_point t = 0; t < hg->npoints; t++) {
#line 33 "redux_local.fal"
    { const fal_point fal_p1 = t; for (int64_t fal_e2 = hg->fal_base.csr.offsets[fal_p1], fal_n2 = hg->fal_base.csr.offsets[fal_p1 + 1]; fal_e2 < fal_n2; fal_e2++) { fal_point u = hg->fal_base.csr.dst[fal_e2]; {
#line 34 "redux_local.fal"
      s += (double)(hg->fal_base.csr.weight[fal_e2]); } } }
#line 34 "redux_local.fal"
                                  } }
#line 34 "redux_local.fal"
                                    /* in a neighbour loop: its own copy */
  long e = 0;
  { fal_omp_nested();
#pragma omp parallel sections
#line 36 "redux_local.fal"
{
#pragma omp section
#line 37 "redux_local.fal"
{ { fal_sched_points(&hg->fal_base.csr); 
#pragma omp parallel for schedule(runtime)
#line 37 "redux_local.fal"
for (fal_point t = 0; t < hg->npoints; t++) {
#line 37 "redux_local.fal"
                                       (void)FAL_ATOMIC_ANY(add, &(e), (1)); } }
#line 37 "redux_local.fal"
                                               }
#pragma omp section
#line 38 "redux_local.fal"
{ { fal_sched_points(&hg->fal_base.csr); 
#pragma omp parallel for schedule(runtime)
#line 38 "redux_local.fal"
for (fal_point t = 0; t < hg->npoints; t++) {
#line 38 "redux_local.fal"
                                       (void)FAL_ATOMIC_ANY(add, &(e), (2)); } }
#line 38 "redux_local.fal"
                                               } } }
#line 39 "redux_local.fal"

  printf("%ld %ld %ld %ld %ld %u %f %ld\n", a, a2, b, c2, d, m, s, e);
}
