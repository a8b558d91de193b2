#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#line 1 "loop_level.fal"
/* A level-synchronous loop (docs/lowering.md "Level-synchronous loops"):
 * the region's one phase visits the points set to lev + 1. */
int changed = 0;

/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  int *level; /* point property */
};
static void fal_G_read(fal_G *g, const char *path)
{
  fal_gbase_read(&g->fal_base, path);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)g->fal_base.csr.nedges;
  g->directed = g->fal_base.csr.directed;
}
#line 5 "loop_level.fal"
void expand(fal_point p, fal_G *g, int lev)
{
  { const fal_point fal_p1 = p; for (int64_t fal_e2 = g->fal_base.csr.offsets[fal_p1], fal_n2 = g->fal_base.csr.offsets[fal_p1 + 1]; fal_e2 < fal_n2; fal_e2++) { fal_point t = g->fal_base.csr.dst[fal_e2]; { if (!(g->level[t] == 2147483647)) continue;
#line 8 "loop_level.fal"
    (FAL_ATOMIC_ANY(min, &(g->level[t]), (lev + 1)) ? (FAL_SET_FLAG(changed), 1) : 0); } } }
#line 8 "loop_level.fal"

}

int main()
{
  static fal_G fal_gs_g; fal_G *g = &fal_gs_g;
  fal_prop_add(&g->fal_base, (void **)&g->level, sizeof(int), FAL_PROP_POINT);
  fal_G_read(g, "graph.bin");
  { fal_sched_points(&g->fal_base.csr); 
#pragma omp parallel for schedule(runtime)
#line 16 "loop_level.fal"
for (fal_point t = 0; t < g->npoints; t++) {
#line 16 "loop_level.fal"
                          g->level[t] = 2147483647; } }
#line 16 "loop_level.fal"

  g->level[(0)] = 0;
  int lev = 0;
  changed = 1;
  if (fal_front_wanted(g->npoints, g->nedges)) { double fal_pt0 = fal_prof_t0(); long long fal_lr = 0, fal_vis = 0; int fal_go = 0; (void)fal_go; fal_front fal_tf; fal_front_init(&fal_tf, g->npoints); fal_tf.dense = 1; int fal_lmax = (int)~(int)0 > 0 ? (int)~(int)0 : (int)(((unsigned long long)1 << (8 * sizeof(int) - 1)) - 1); int fal_lm = fal_lmax;
#pragma omp parallel
{
fal_fbuf fal_tb; fal_tb.f = &fal_tf; fal_tb.n = 0;
#pragma omp for schedule(static) reduction(min: fal_lm)
for (int64_t fal_x = 0; fal_x < g->npoints; fal_x++) if (g->level[fal_x] > (lev) && g->level[fal_x] < fal_lm) fal_lm = g->level[fal_x];
#pragma omp single
{ 
fal_go = !!(changed); if (fal_go) {
#line 21 "loop_level.fal"
changed = 0;
}
}
while (fal_go) {
#line 22 "loop_level.fal"
{ const int fal_d = fal_tf.dense || (lev) >= fal_lm; const int32_t *fal_ids = fal_tf.ids; const int64_t fal_n = fal_d ? g->npoints : fal_tf.n;
if (omp_get_thread_num() == 0) fal_vis += fal_n;
#pragma omp for schedule(guided, 16) nowait
#line 22 "loop_level.fal"
for (int64_t fal_k = 0; fal_k < fal_n; fal_k++) { int64_t fal_i = fal_d ? fal_k : fal_ids[fal_k]; do { fal_point t = (fal_point)fal_i; { if (!(g->level[t] == lev)) continue;
#line 22 "loop_level.fal"
                                            expand(t, g, lev); } } while (0); if (g->level[fal_i] == (lev)) for (int64_t fal_e = g->fal_base.csr.offsets[fal_i]; fal_e < g->fal_base.csr.offsets[fal_i + 1]; fal_e++) { int64_t fal_x = g->fal_base.csr.dst[fal_e]; int fal_v; __atomic_load(&g->level[fal_x], &fal_v, __ATOMIC_RELAXED); if (fal_v == (lev) + 1) fal_fbuf_push(&fal_tb, fal_x); } } }
fal_fbuf_flush(&fal_tb);
#pragma omp barrier
#pragma omp single
{ { if ((lev) >= fal_lm) { fal_lm = fal_lmax; for (int64_t fal_x = 0; fal_x < g->npoints; fal_x++) if (g->level[fal_x] > (lev) + 1 && g->level[fal_x] < fal_lm) fal_lm = g->level[fal_x]; } fal_front_commit(&fal_tf); }

#line 23 "loop_level.fal"
lev++;

fal_go = !!(changed); if (fal_go) {
#line 21 "loop_level.fal"
changed = 0;
}
}
if (omp_get_thread_num() == 0) fal_lr++;
}
}
fal_front_free(&fal_tf);
fal_prof_end("loop_level.fal", 20, "frontier", fal_pt0, fal_lr); fal_prof_visits("loop_level.fal", 20, "frontier", fal_vis); } else { double fal_pt0 = fal_prof_t0(); long long fal_lr = 0, fal_vis = 0; int fal_go = 0; (void)fal_go; long long fal_sc = 0, fal_aw = 0; const int64_t *fal_io = g->directed ? g->fal_base.csr.in_offsets : g->fal_base.csr.offsets; const fal_point *fal_is = g->directed ? g->fal_base.csr.in_src : g->fal_base.csr.dst; fal_dstate fal_ds; fal_dstate_init(&fal_ds, fal_io && fal_is, fal_dir_forced(), g->nedges, g->npoints);
#pragma omp parallel
{
#pragma omp single
{ 
fal_go = !!(changed); if (fal_go) {
#line 21 "loop_level.fal"
changed = 0;
}
}
while (fal_go) {
#line 22 "loop_level.fal"
{ long long fal_sc1 = 0, fal_aw1 = 0; if (omp_get_thread_num() == 0) fal_vis += g->npoints;
if (fal_ds.dir) {
#pragma omp for schedule(dynamic, 1024) nowait
#line 22 "loop_level.fal"
for (int64_t fal_i = 0; fal_i < g->npoints; fal_i++) { int fal_u; __atomic_load(&g->level[fal_i], &fal_u, __ATOMIC_RELAXED); if (fal_u == (2147483647) && (lev) + 1 < fal_u) for (int64_t fal_e = fal_io[fal_i], fal_n = fal_io[fal_i + 1]; fal_e < fal_n; fal_e++) { int fal_s; __atomic_load(&g->level[fal_is[fal_e]], &fal_s, __ATOMIC_RELAXED); if (fal_s == (lev)) { int fal_nv = (lev) + 1; __atomic_store(&g->level[fal_i], &fal_nv, __ATOMIC_RELAXED); FAL_SET_FLAG(changed); fal_aw1++; fal_sc1 += g->fal_base.csr.offsets[fal_i + 1] - g->fal_base.csr.offsets[fal_i]; break; } } }
} else {
#pragma omp for schedule(dynamic, 2048) nowait
#line 22 "loop_level.fal"
for (int64_t fal_i = 0; fal_i < g->npoints; fal_i++) { int fal_t; __atomic_load(&g->level[fal_i], &fal_t, __ATOMIC_RELAXED); if (fal_t == (lev)) for (int64_t fal_e = g->fal_base.csr.offsets[fal_i], fal_n = g->fal_base.csr.offsets[fal_i + 1]; fal_e < fal_n; fal_e++) { int64_t fal_x = g->fal_base.csr.dst[fal_e]; int fal_u; __atomic_load(&g->level[fal_x], &fal_u, __ATOMIC_RELAXED); if (fal_u == (2147483647) && FAL_ATOMIC_ANY(min, &g->level[fal_x], (lev) + 1)) { FAL_SET_FLAG(changed); fal_aw1++; fal_sc1 += g->fal_base.csr.offsets[fal_x + 1] - g->fal_base.csr.offsets[fal_x]; } } }
}
__atomic_add_fetch(&fal_sc, fal_sc1, __ATOMIC_RELAXED); __atomic_add_fetch(&fal_aw, fal_aw1, __ATOMIC_RELAXED); }
#pragma omp barrier
#pragma omp single
{ fal_ds.pulls += fal_ds.dir; if (fal_ds.counting) fal_dstate_decide(&fal_ds, fal_aw, fal_sc); fal_sc = fal_aw = 0;

#line 23 "loop_level.fal"
lev++;

fal_go = !!(changed); if (fal_go) {
#line 21 "loop_level.fal"
changed = 0;
}
}
if (omp_get_thread_num() == 0) fal_lr++;
}
}
fal_prof_end("loop_level.fal", 20, "region, push/pull", fal_pt0, fal_lr); fal_prof_visits("loop_level.fal", 20, "region, push/pull", fal_vis); fal_prof_end("loop_level.fal", 20, "pull rounds", fal_prof_t0(), fal_ds.pulls); }
#line 24 "loop_level.fal"

}
