#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#line 1 "collection.fal"
/* §3.4, §3.5: Collections and Sets, and foreach over a collection. */
struct item {
  int key;
  fal_point at;
};

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
#line 7 "collection.fal"
fal_cstore fal_cst_pending; fal_coll fal_cs_pending = {0, (int64_t)sizeof(struct item), &fal_cst_pending}; fal_coll *pending = &fal_cs_pending;

void push_all(fal_point p, fal_G *g, fal_coll *next, fal_set *s)
{
  fal_coll fal_cs_mine __attribute__((cleanup(fal_coll_local_free))); fal_coll *mine = &fal_cs_mine; fal_coll_local_init(mine, sizeof(fal_point));
  { const fal_point fal_p1 = p; for (int64_t fal_e2 = g->fal_base.csr.offsets[fal_p1], fal_n2 = g->fal_base.csr.offsets[fal_p1 + 1]; fal_e2 < fal_n2; fal_e2++) { fal_point t = g->fal_base.csr.dst[fal_e2]; {
#line 13 "collection.fal"
    if (fal_set_find(s, t) != fal_set_find(s, p)) {
      fal_lcoll_addp(mine, (fal_point)(t));
      fal_coll_addp(next, (fal_point)(t));
    } } } }
#line 16 "collection.fal"

  { fal_coll *fal_c3 = mine; int64_t fal_n3 = fal_coll_size(fal_c3); for (int64_t fal_i3 = 0; fal_i3 < fal_n3; fal_i3++) { fal_point u = *(fal_point *)fal_lcoll_at(fal_c3, fal_i3); {
#line 17 "collection.fal"
                      fal_set_union(s, p, u); } } }
#line 17 "collection.fal"

}

int main()
{
  static fal_G fal_gs_g; fal_G *g = &fal_gs_g;
  fal_prop_add(&g->fal_base, (void **)&g->dist, sizeof(int), FAL_PROP_POINT);
  fal_G_read(g, "g.txt");
  static fal_coll fal_cs_a; fal_coll *a = &fal_cs_a; fal_hc_init(a, sizeof(fal_point)); static fal_coll fal_cs_b; fal_coll *b = &fal_cs_b; fal_hc_init(b, sizeof(fal_point));
  static fal_set fal_ss_s; fal_set *s = &fal_ss_s; fal_set_init(s, &g->npoints, &g->fal_base);
  fal_hc_addp(a, (fal_point)((0)));
  fal_hc_order(a, &g->dist, 0, 4);
  while (fal_hc_size(a) > 0) {
    { fal_coll *fal_c4 = a; fal_hs_ready(s); fal_hc_drain_begin(fal_c4); int fal_s4 = fal_hc_drain_next(fal_c4, 0); int64_t fal_q4 = fal_s4 && !fal_c4->ordered ? fal_hc_size(fal_c4) : (int64_t)FAL_DRAIN_SERIAL; if (fal_q4 < FAL_DRAIN_SERIAL) { for (int64_t fal_i4 = 0; fal_i4 < fal_q4; fal_i4++) { fal_point t = *(fal_point *)fal_coll_at(fal_c4, fal_i4); {
#line 30 "collection.fal"
                     push_all(t, g, b, s); } } } else if (fal_s4) {
#pragma omp parallel
{ fal_abuf_begin(); for (int fal_r4 = 0; ; fal_r4++) { int64_t fal_n4; fal_coll *fal_b4 = fal_hc_batch(fal_c4, &fal_n4);
#pragma omp for schedule(dynamic, fal_omp_chunk(fal_n4)) nowait
#line 30 "collection.fal"
for (int64_t fal_i4 = 0; fal_i4 < fal_n4; fal_i4++) { fal_point t = *(fal_point *)fal_coll_at(fal_b4, fal_i4); {
#line 30 "collection.fal"
                     push_all(t, g, b, s); } }
if (!fal_c4->ordered) break;
{ int64_t fal_k4; const void *fal_x4; while ((fal_x4 = fal_coll_bin_take(fal_c4, &fal_k4)) != NULL) for (int64_t fal_i4 = 0; fal_i4 < fal_k4; fal_i4++) { fal_point t = ((const fal_point *)fal_x4)[fal_i4]; {
#line 30 "collection.fal"
                     push_all(t, g, b, s); } } }
fal_abuf_flush();
#pragma omp barrier
#pragma omp single
{ fal_s4 = fal_hc_drain_next(fal_c4, fal_r4 + 1);
while (fal_s4) { int64_t fal_m4; fal_coll *fal_bm4 = fal_hc_batch(fal_c4, &fal_m4); if (fal_m4 >= FAL_DRAIN_SERIAL) break; for (int64_t fal_i4 = 0; fal_i4 < fal_m4; fal_i4++) { fal_point t = *(fal_point *)fal_coll_at(fal_bm4, fal_i4); {
#line 30 "collection.fal"
                     push_all(t, g, b, s); } }
{ int64_t fal_k4; const void *fal_x4; while ((fal_x4 = fal_coll_bin_take(fal_c4, &fal_k4)) != NULL) for (int64_t fal_i4 = 0; fal_i4 < fal_k4; fal_i4++) { fal_point t = ((const fal_point *)fal_x4)[fal_i4]; {
#line 30 "collection.fal"
                     push_all(t, g, b, s); } } }
fal_abuf_flush(); fal_s4 = fal_hc_drain_next(fal_c4, fal_r4 + 1); } }
if (!fal_s4) break; } fal_abuf_end(); } } fal_hc_drain_end(fal_c4); }
#line 30 "collection.fal"

    fal_hc_assign(a, b);
  }
#line 32 "collection.fal"

  fal_point p;
  if (!(fal_hc_size(b) == 0) && fal_hc_size(b) > 1)
    fal_hc_pop(b, &(p));
  fal_hc_set_size(b, 0);
  fal_hc_set_size(b, 0);
  struct item x = {1, 0};
  fal_hc_add(pending, (struct item[1]){x});
  int k = (*(struct item *)fal_hc_at(pending, 0)).key + fal_hs_findc(s, (1)) + (*(fal_point *)fal_hc_at(a, 0));
}
