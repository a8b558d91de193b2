#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#line 1 "loop_topo.fal"
/* A topology-driven loop (docs/lowering.md "Topology-driven loops"):
 * the region's one phase visits the points whose dist changed. */
int changed = 0;

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
#line 5 "loop_topo.fal"
void relax(fal_point p, fal_G *g)
{
  if (g->dist[p] == 2147483647)
    return;
  { const fal_point fal_p1 = p; for (int64_t fal_e2 = g->fal_base.csr.offsets[fal_p1], fal_n2 = g->fal_base.csr.offsets[fal_p1 + 1]; fal_e2 < fal_n2; fal_e2++) { fal_point t = g->fal_base.csr.dst[fal_e2]; {
#line 10 "loop_topo.fal"
    (FAL_ATOMIC_ANY(min, &(g->dist[t]), (g->dist[p] + g->fal_base.csr.weight[fal_e2])) ? (FAL_SET_FLAG(changed), 1) : 0); } } }
#line 10 "loop_topo.fal"

}

int main()
{
  static fal_G fal_gs_g; fal_G *g = &fal_gs_g;
  fal_prop_add(&g->fal_base, (void **)&g->dist, sizeof(int), FAL_PROP_POINT);
  fal_G_read(g, "graph.bin");
  { fal_sched_points(&g->fal_base.csr); 
#pragma omp parallel for schedule(runtime)
#line 18 "loop_topo.fal"
for (fal_point t = 0; t < g->npoints; t++) {
#line 18 "loop_topo.fal"
                          g->dist[t] = 2147483647; } }
#line 18 "loop_topo.fal"

  g->dist[(0)] = 0;
  if (fal_front_wanted(g->npoints, g->nedges)) { double fal_pt0 = fal_prof_t0(); long long fal_lr = 0, fal_vis = 0; int fal_go = 0; (void)fal_go; fal_front fal_tf; fal_front_init(&fal_tf, g->npoints); fal_tf.dense = 1; int *fal_pv = (int *)fal_alloc(((size_t)g->npoints + 1) * sizeof *fal_pv); memcpy(fal_pv, g->dist, (size_t)g->npoints * sizeof *fal_pv);
#pragma omp parallel
{
fal_fbuf fal_tb; fal_tb.f = &fal_tf; fal_tb.n = 0;
while (1) {
#pragma omp barrier
#line 21 "loop_topo.fal"
if (omp_get_thread_num() == 0) changed = 0;
#pragma omp barrier
#line 22 "loop_topo.fal"
{ const int fal_d = fal_tf.dense; const int32_t *fal_ids = fal_tf.ids; const int64_t fal_n = fal_front_len(&fal_tf);
if (omp_get_thread_num() == 0) fal_vis += fal_n;
#pragma omp for schedule(guided, 16) nowait
#line 22 "loop_topo.fal"
for (int64_t fal_k = 0; fal_k < fal_n; fal_k++) { int64_t fal_i = fal_d ? fal_k : fal_ids[fal_k]; do { fal_point t = (fal_point)fal_i; {
#line 22 "loop_topo.fal"
                            relax(t, g); } } while (0); for (int64_t fal_e = g->fal_base.csr.offsets[fal_i]; fal_e < g->fal_base.csr.offsets[fal_i + 1]; fal_e++) { int64_t fal_x = g->fal_base.csr.dst[fal_e]; int fal_v, fal_o; __atomic_load(&g->dist[fal_x], &fal_v, __ATOMIC_RELAXED); __atomic_load(&fal_pv[fal_x], &fal_o, __ATOMIC_RELAXED); if (fal_v != fal_o) { __atomic_store(&fal_pv[fal_x], &fal_v, __ATOMIC_RELAXED); fal_fbuf_push(&fal_tb, fal_x); } } } }
fal_fbuf_flush(&fal_tb);
#pragma omp barrier
#pragma omp single
{ fal_front_commit(&fal_tf);
}
#line 23 "loop_topo.fal"
if (changed == 0)
      break;
if (omp_get_thread_num() == 0) fal_lr++;
}
}
fal_front_free(&fal_tf); fal_free(fal_pv);
fal_prof_end("loop_topo.fal", 20, "frontier", fal_pt0, fal_lr); fal_prof_visits("loop_topo.fal", 20, "frontier", fal_vis); } else { double fal_pt0 = fal_prof_t0(); long long fal_lr = 0, fal_vis = 0; int fal_go = 0; (void)fal_go;
#pragma omp parallel
{
while (1) {
#pragma omp barrier
#line 21 "loop_topo.fal"
if (omp_get_thread_num() == 0) changed = 0;
#pragma omp barrier
#line 22 "loop_topo.fal"
if (omp_get_thread_num() == 0) fal_vis += g->npoints;
if (fal_edge_balanced(&g->fal_base.csr)) { int64_t fal_lo, fal_hi; fal_edge_share(g->fal_base.csr.offsets, g->npoints, &fal_lo, &fal_hi);
#line 22 "loop_topo.fal"
for (int64_t fal_i = fal_lo; fal_i < fal_hi; fal_i++) { do { fal_point t = (fal_point)fal_i; {
#line 22 "loop_topo.fal"
                            relax(t, g); } } while (0); } } else {
#pragma omp for schedule(dynamic, fal_chunk(g->npoints)) nowait
#line 22 "loop_topo.fal"
for (int64_t fal_i = 0; fal_i < g->npoints; fal_i++) { do { fal_point t = (fal_point)fal_i; {
#line 22 "loop_topo.fal"
                            relax(t, g); } } while (0); } }
#pragma omp barrier
#line 23 "loop_topo.fal"
if (changed == 0)
      break;
if (omp_get_thread_num() == 0) fal_lr++;
}
}
fal_prof_end("loop_topo.fal", 20, "region", fal_pt0, fal_lr); fal_prof_visits("loop_topo.fal", 20, "region", fal_vis); }
#line 25 "loop_topo.fal"

}
