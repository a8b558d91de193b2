#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#line 1 "atomics.fal"
/* §4.2: every atomic call, on int, long, float and double targets. */
struct acc {
  int i;
  long l;
  float f;
  double d;
  unsigned u;
};

/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  struct acc *a; /* point property */
  int *flag; /* point property */
};
static void fal_G_read(fal_G *g, const char *path)
{
  fal_gbase_read(&g->fal_base, path);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)g->fal_base.csr.nedges;
  g->directed = g->fal_base.csr.directed;
}
#line 10 "atomics.fal"
void all(fal_G *g)
{
  { fal_sched_points(&g->fal_base.csr); 
#pragma omp parallel for schedule(runtime)
#line 12 "atomics.fal"
for (fal_point t = 0; t < g->npoints; t++) {
#line 12 "atomics.fal"
                          {
    (FAL_ATOMIC_ANY(min, &(g->a[t].i), (3)) ? (FAL_SET_FLAG_EL(g->flag[t]), 1) : 0);
    (FAL_ATOMIC_ANY(max, &(g->a[t].d), (2.5)) ? (FAL_SET_FLAG_EL(g->flag[t]), 1) : 0);
    FAL_ATOMIC_ANY(add, &(g->a[t].l), (7));
    FAL_ATOMIC_ANY(sub, &(g->a[t].f), (1.5f));
    FAL_ATOMIC_ANY(add, &(g->a[t].i), 1);
    FAL_ATOMIC_ANY(sub, &(g->a[t].l), 1);
    FAL_ATOMIC_INT(and, &(g->a[t].u), (6u));
    FAL_ATOMIC_INT(or, &(g->a[t].u), (1u));
    FAL_ATOMIC_INT(xor, &(g->a[t].i), (5));
    int old = FAL_ATOMIC_ANY(cas, &(g->a[t].i), (0), (1));
    g->flag[t] = old;
  } } }
#line 24 "atomics.fal"

}

int main()
{
  static fal_G fal_gs_g; fal_G *g = &fal_gs_g;
  fal_prop_add(&g->fal_base, (void **)&g->a, sizeof(struct acc), FAL_PROP_POINT);
  fal_prop_add(&g->fal_base, (void **)&g->flag, sizeof(int), FAL_PROP_POINT);
  all(g);
}
