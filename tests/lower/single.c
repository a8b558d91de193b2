#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#line 1 "single.fal"
/* §4.3: single on an int lock field and on a point. */
struct lk {
  int lock;
  fal_point set;
};

/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  struct lk *m; /* point property */
  int *owner; /* point property */
};
static void fal_G_read(fal_G *g, const char *path)
{
  fal_gbase_read(&g->fal_base, path);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)g->fal_base.csr.nedges;
  g->directed = g->fal_base.csr.directed;
}
#line 7 "single.fal"
void pick(fal_G *g)
{
  { fal_single_reset(&g->fal_base, 0); fal_sched_points(&g->fal_base.csr); 
#pragma omp parallel for schedule(runtime)
#line 9 "single.fal"
for (fal_point t = 0; t < g->npoints; t++) {
#line 9 "single.fal"
                          {
    if (fal_single_int(&(g->m[t].lock))) g->m[t].set = t; else g->m[t].set = g->m[t].set;
    { const fal_point fal_p1 = t; for (int64_t fal_e2 = g->fal_base.csr.offsets[fal_p1], fal_n2 = g->fal_base.csr.offsets[fal_p1 + 1]; fal_e2 < fal_n2; fal_e2++) { fal_point n = g->fal_base.csr.dst[fal_e2]; {
#line 12 "single.fal"
      if (fal_single_byte(&g->fal_base.single_lock[n])) g->owner[n] = t; } } }
#line 12 "single.fal"

  } } }
#line 13 "single.fal"

}

int main()
{
  static fal_G fal_gs_g; fal_G *g = &fal_gs_g;
  fal_prop_add(&g->fal_base, (void **)&g->m, sizeof(struct lk), FAL_PROP_POINT);
  fal_prop_add(&g->fal_base, (void **)&g->owner, sizeof(int), FAL_PROP_POINT);
  pick(g);
}
