#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#line 1 "bound_struct.fal"
/* Structs bound to a graph (§3.6), CPU target: an element of the view of
 * struct tri (an index), a struct value of struct seg (no view), Point
 * array fields, Collections of both, single on a Collection of elements. */
struct tri {
  fal_point nodes[3];     /* corners: points of the graph */
  int nbr[3];  /* neighbouring triangles: element indices */
  int live;
};
struct seg { fal_point a, b; int w; };

/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  double *x0; /* point property */
  double *y0; /* point property */
  struct tri *triangle; /* graph view (§3.6): ntriangle elements */
  int ntriangle;
  int64_t fal_cap_triangle;
  fal_owner fal_own_triangle; /* single (§4.3) */
};
static void fal_G_read(fal_G *g, const char *path)
{
  fal_gbase_read(&g->fal_base, path);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)g->fal_base.csr.nedges;
  g->directed = g->fal_base.csr.directed;
}
static int fal_G_resize_triangle(fal_G *g, int64_t n, const char *file, int line)
{
  fal_view_resize((void **)&g->triangle, &g->fal_cap_triangle, g->ntriangle, n, sizeof *g->triangle, file, line);
  return g->ntriangle = (int)n;
}
#line 11 "bound_struct.fal"
double area(fal_G *g, int t)
{
  return g->x0[g->triangle[t].nodes[0]] * g->y0[g->triangle[t].nodes[1]] - g->x0[g->triangle[t].nodes[1]] * g->y0[g->triangle[t].nodes[0]];
}

int main()
{
  static fal_G fal_gs_g; fal_G *g = &fal_gs_g;
  fal_prop_add(&g->fal_base, (void **)&g->x0, sizeof(double), FAL_PROP_POINT);
  fal_prop_add(&g->fal_base, (void **)&g->y0, sizeof(double), FAL_PROP_POINT);
  ((void)0);
  fal_G_read(g, "mesh.txt");
  fal_G_resize_triangle(g, 4, __FILE__, __LINE__);
  g->triangle[0].nodes[0] = 2;
  int t = (int)(1), u;
  u = (int)(g->triangle[t].nbr[0]);
  struct seg s;
  s.a = g->triangle[t].nodes[0];
  s.w = g->x0[s.a] > g->x0[s.b];
  double a = area(g, t);
  { fal_owner_begin(&g->fal_own_triangle, (int64_t)g->ntriangle); unsigned char *fal_pend = fal_pend_get((int64_t)g->ntriangle); for (int fal_phase = 0; fal_phase < 2; fal_phase++) { 
#pragma omp parallel for schedule(static)
#line 31 "bound_struct.fal"
for (int k = 0; k < g->ntriangle; k++) { if (fal_phase && !fal_pend[k]) continue; { if (!(g->triangle[k].live)) continue;
#line 31 "bound_struct.fal"
                                    {
    fal_coll fal_cs_cav __attribute__((cleanup(fal_coll_local_free))); fal_coll *cav = &fal_cs_cav; fal_coll_local_init(cav, sizeof(int));
    fal_lcoll_addp(cav, (fal_point)(k));
    if (g->triangle[k].nbr[0] >= 0)
      fal_lcoll_addp(cav, (fal_point)((int)(g->triangle[k].nbr[0])));
    int first = (*(int *)fal_lcoll_at(cav, 0));
    { const fal_coll *fal_sc2 = cav; if (!fal_phase) { fal_pend[k] = 1; fal_own_claim(&g->fal_own_triangle, fal_sc2, k); goto fal_skip1; } if (fal_own_holds(&g->fal_own_triangle, fal_sc2, k)) {
      g->triangle[first].live = 0;
      g->triangle[(*(int *)fal_lcoll_at(cav, 1))].nodes[2] = g->triangle[k].nodes[0];
    } }
  } } fal_skip1: ; } } fal_pend_free(fal_pend); }
#line 41 "bound_struct.fal"

  static fal_coll fal_cs_segs; fal_coll *segs = &fal_cs_segs; fal_hc_init(segs, sizeof(struct seg));
  fal_hc_add(segs, (struct seg[1]){s});
  { fal_coll *fal_c3 = segs; fal_hc_drain_begin(fal_c3); int fal_s3 = fal_hc_drain_next(fal_c3, 0); int64_t fal_q3 = fal_s3 && !fal_c3->ordered ? fal_hc_size(fal_c3) : (int64_t)FAL_DRAIN_SERIAL; if (fal_q3 < FAL_DRAIN_SERIAL) { for (int64_t fal_i3 = 0; fal_i3 < fal_q3; fal_i3++) { struct seg v = *(struct seg *)fal_coll_at(fal_c3, fal_i3); {
#line 44 "bound_struct.fal"
                      g->x0[v.a] = g->y0[v.b]; } } } else if (fal_s3) {
#pragma omp parallel
{ fal_abuf_begin(); for (int fal_r3 = 0; ; fal_r3++) { int64_t fal_n3; fal_coll *fal_b3 = fal_hc_batch(fal_c3, &fal_n3);
#pragma omp for schedule(dynamic, fal_omp_chunk(fal_n3)) nowait
#line 44 "bound_struct.fal"
for (int64_t fal_i3 = 0; fal_i3 < fal_n3; fal_i3++) { struct seg v = *(struct seg *)fal_coll_at(fal_b3, fal_i3); {
#line 44 "bound_struct.fal"
                      g->x0[v.a] = g->y0[v.b]; } }
if (!fal_c3->ordered) break;
{ int64_t fal_k3; const void *fal_x3; while ((fal_x3 = fal_coll_bin_take(fal_c3, &fal_k3)) != NULL) for (int64_t fal_i3 = 0; fal_i3 < fal_k3; fal_i3++) { struct seg v = ((const struct seg *)fal_x3)[fal_i3]; {
#line 44 "bound_struct.fal"
                      g->x0[v.a] = g->y0[v.b]; } } }
fal_abuf_flush();
#pragma omp barrier
#pragma omp single
{ fal_s3 = fal_hc_drain_next(fal_c3, fal_r3 + 1);
while (fal_s3) { int64_t fal_m3; fal_coll *fal_bm3 = fal_hc_batch(fal_c3, &fal_m3); if (fal_m3 >= FAL_DRAIN_SERIAL) break; for (int64_t fal_i3 = 0; fal_i3 < fal_m3; fal_i3++) { struct seg v = *(struct seg *)fal_coll_at(fal_bm3, fal_i3); {
#line 44 "bound_struct.fal"
                      g->x0[v.a] = g->y0[v.b]; } }
{ int64_t fal_k3; const void *fal_x3; while ((fal_x3 = fal_coll_bin_take(fal_c3, &fal_k3)) != NULL) for (int64_t fal_i3 = 0; fal_i3 < fal_k3; fal_i3++) { struct seg v = ((const struct seg *)fal_x3)[fal_i3]; {
#line 44 "bound_struct.fal"
                      g->x0[v.a] = g->y0[v.b]; } } }
fal_abuf_flush(); fal_s3 = fal_hc_drain_next(fal_c3, fal_r3 + 1); } }
if (!fal_s3) break; } fal_abuf_end(); } } fal_hc_drain_end(fal_c3); }
#line 44 "bound_struct.fal"

}
