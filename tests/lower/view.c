#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#line 1 "view.fal"
/* Graph views (§3.6) and single on a Collection (§4.3), CPU target. */
struct tri {
  int lock;
  fal_point a, b, c;          /* corners: points of the graph */
  int nbr[3];  /* neighbouring triangles: element indices */
};

int conflicts = 0;

/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  int *owner; /* point property */
  struct tri *tris; /* graph view (§3.6): ntris elements */
  int ntris;
  int64_t fal_cap_tris;
  fal_owner fal_own_tris; /* single (§4.3) */
};
static void fal_G_read(fal_G *g, const char *path)
{
  fal_gbase_read(&g->fal_base, path);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)g->fal_base.csr.nedges;
  g->directed = g->fal_base.csr.directed;
}
static int fal_G_resize_tris(fal_G *g, int64_t n, const char *file, int line)
{
  fal_view_resize((void **)&g->tris, &g->fal_cap_tris, g->ntris, n, sizeof *g->tris, file, line);
  return g->ntris = (int)n;
}
#line 10 "view.fal"
int main()
{
  static fal_G fal_gs_g; fal_G *g = &fal_gs_g;
  fal_prop_add(&g->fal_base, (void **)&g->owner, sizeof(int), FAL_PROP_POINT);
  ((void)0);
  fal_G_read(g, "mesh.txt");
  fal_G_resize_tris(g, 4, __FILE__, __LINE__);
  g->tris[0].nbr[0] = 1;
  
#pragma omp parallel for schedule(static)
#line 18 "view.fal"
for (int t = 0; t < g->ntris; t++) {
#line 18 "view.fal"
                        {
    g->tris[t].a = t;
    g->tris[t].nbr[1] = -1;
  } }
#line 21 "view.fal"

  { fal_owner_begin(&g->fal_base.own[0], (int64_t)g->npoints); unsigned char *fal_pend = fal_pend_get((int64_t)g->ntris); for (int fal_phase = 0; fal_phase < 2; fal_phase++) { 
#pragma omp parallel for schedule(static)
#line 22 "view.fal"
for (int t = 0; t < g->ntris; t++) { if (fal_phase && !fal_pend[t]) continue; { if (!(g->tris[t].lock == 0)) continue;
#line 22 "view.fal"
                                     {
    fal_coll fal_cs_cav __attribute__((cleanup(fal_coll_local_free))); fal_coll *cav = &fal_cs_cav; fal_coll_local_init(cav, sizeof(fal_point));
    fal_lcoll_addp(cav, (fal_point)(g->tris[t].a));
    fal_lcoll_addp(cav, (fal_point)(g->tris[t].b));
    { const fal_coll *fal_sc2 = cav; if (!fal_phase) { fal_pend[t] = 1; fal_own_claim(&g->fal_base.own[0], fal_sc2, t); goto fal_skip1; } if (fal_own_holds(&g->fal_base.own[0], fal_sc2, t)) {
      g->owner[g->tris[t].a] = t;
      g->tris[t].lock = 1;
    } else
      FAL_ATOMIC_ANY(add, &(conflicts), 1); }
  } } fal_skip1: ; } } fal_pend_free(fal_pend); }
#line 31 "view.fal"

  static fal_coll fal_cs_work; fal_coll *work = &fal_cs_work; fal_hc_init(work, sizeof(fal_point));
  { fal_sched_points(&g->fal_base.csr); 
#pragma omp parallel for schedule(runtime)
#line 33 "view.fal"
for (fal_point p = 0; p < g->npoints; p++) {
#line 33 "view.fal"
                          fal_coll_addp(work, (fal_point)(p)); } }
#line 33 "view.fal"

  { fal_coll *fal_c3 = work; fal_hc_drain_begin(fal_c3); for (int fal_r3 = 0; fal_hc_drain_next(fal_c3, fal_r3); fal_r3++) { int64_t fal_n3; fal_coll *fal_b3 = fal_hc_batch(fal_c3, &fal_n3); fal_owner_begin(&g->fal_base.own[0], (int64_t)g->npoints); unsigned char *fal_pend = fal_pend_get((int64_t)fal_n3); for (int fal_phase = 0; fal_phase < 2; fal_phase++) { 
#pragma omp parallel for schedule(dynamic, 256)
#line 34 "view.fal"
for (int64_t fal_i3 = 0; fal_i3 < fal_n3; fal_i3++) { fal_point p = *(fal_point *)fal_coll_at(fal_b3, fal_i3); { if (fal_phase && !fal_pend[fal_i3]) continue; {
#line 34 "view.fal"
                      {
    fal_coll fal_cs_nb __attribute__((cleanup(fal_coll_local_free))); fal_coll *nb = &fal_cs_nb; fal_coll_local_init(nb, sizeof(fal_point));
    { const fal_point fal_p4 = p; for (int64_t fal_e5 = g->fal_base.csr.offsets[fal_p4], fal_n5 = g->fal_base.csr.offsets[fal_p4 + 1]; fal_e5 < fal_n5; fal_e5++) { fal_point q = g->fal_base.csr.dst[fal_e5]; {
#line 36 "view.fal"
                             fal_lcoll_addp(nb, (fal_point)(q)); } } }
#line 36 "view.fal"

    { const fal_coll *fal_sc7 = nb; if (!fal_phase) { fal_pend[fal_i3] = 1; fal_own_claim(&g->fal_base.own[0], fal_sc7, fal_i3); goto fal_skip6; } if (fal_own_holds(&g->fal_base.own[0], fal_sc7, fal_i3)) g->owner[p] = g->ntris; }
  } } fal_skip6: ; } } } fal_pend_free(fal_pend); } fal_hc_drain_end(fal_c3); }
#line 38 "view.fal"

}
