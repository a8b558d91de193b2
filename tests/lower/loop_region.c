#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#line 1 "loop_region.fal"
/* A convergence loop the planner runs as one parallel region (CPU) or
 * one cooperative kernel (gpu_loop_device): a flag reset by one thread, a
 * flag shuffle and flag-filtered phases (CPU: frontier lists, docs/
 * optimiser.md "Frontiers"; loop_region_dense.fal has the fused form), a
 * neighbour phase, a flag scan, a host variable counted, and a break. */
/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  int *dist; /* point property */
  int *updated; /* point property */
  int *active; /* point property */
  int *visits; /* point property */
};
static void fal_G_read(fal_G *g, const char *path)
{
  fal_gbase_read(&g->fal_base, path);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)g->fal_base.csr.nedges;
  g->directed = g->fal_base.csr.directed;
}
static void fal_G_csr_release(fal_G *g)
{
  int *r = g->fal_base.csr_refs;
  if (!r || __atomic_sub_fetch(r, 1, __ATOMIC_ACQ_REL) == 0) {
    fal_graph_free(&g->fal_base.csr);
    fal_free(r);
  }
  g->fal_base.csr_refs = NULL;
  memset(&g->fal_base.csr, 0, sizeof g->fal_base.csr);
}
static void fal_G_copy(fal_G *d, fal_G *s)
{
  if (d == s)
    return;
  if (!d->fal_base.loaded || d->fal_base.csr.offsets != s->fal_base.csr.offsets ||
      d->fal_base.csr.version != s->fal_base.csr.version) {
    fal_free(d->dist);
    fal_free(d->updated);
    fal_free(d->active);
    fal_free(d->visits);
    d->fal_base.nprops = 0;
    fal_G_csr_release(d);
    if (!__atomic_load_n(&s->fal_base.csr_refs, __ATOMIC_ACQUIRE)) {
      int *r = (int *)fal_alloc(sizeof *r), *none = NULL;
      *r = 1;
      if (!__atomic_compare_exchange_n(&s->fal_base.csr_refs, &none, r, 0,
                                       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        fal_free(r); /* another section installed one */
    }
    __atomic_add_fetch(s->fal_base.csr_refs, 1, __ATOMIC_ACQ_REL);
    d->fal_base.csr = s->fal_base.csr; /* borrowed, read-only */
    d->fal_base.csr_refs = s->fal_base.csr_refs;
    d->fal_base.structure_of = s->fal_base.csr.offsets;
    d->fal_base.loaded = 1;
    d->fal_base.is_mutable = s->fal_base.is_mutable;
    d->fal_base.need_in_edges = s->fal_base.need_in_edges;
    d->fal_base.need_sources = s->fal_base.need_sources;
    fal_prop_add(&d->fal_base, (void **)&d->dist, sizeof *d->dist, FAL_PROP_POINT);
    fal_prop_add(&d->fal_base, (void **)&d->updated, sizeof *d->updated, FAL_PROP_POINT);
    fal_prop_add(&d->fal_base, (void **)&d->active, sizeof *d->active, FAL_PROP_POINT);
    fal_prop_add(&d->fal_base, (void **)&d->visits, sizeof *d->visits, FAL_PROP_POINT);
  }
  d->npoints = s->npoints;
  d->nedges = s->nedges;
  d->directed = s->directed;
  if (s->dist && d->dist)
    memcpy(d->dist, s->dist, (size_t)s->npoints * sizeof *d->dist);
  if (s->updated && d->updated)
    memcpy(d->updated, s->updated, (size_t)s->npoints * sizeof *d->updated);
  if (s->active && d->active)
    memcpy(d->active, s->active, (size_t)s->npoints * sizeof *d->active);
  if (s->visits && d->visits)
    memcpy(d->visits, s->visits, (size_t)s->npoints * sizeof *d->visits);
}
#line 6 "loop_region.fal"
int more = 0;

void spread(fal_point p, fal_G *g)
{
  { const fal_point fal_p1 = p; for (int64_t fal_e2 = g->fal_base.csr.offsets[fal_p1], fal_n2 = g->fal_base.csr.offsets[fal_p1 + 1]; fal_e2 < fal_n2; fal_e2++) { fal_point t = g->fal_base.csr.dst[fal_e2]; {
#line 11 "loop_region.fal"
    (FAL_ATOMIC_ANY(min, &(g->dist[t]), (g->dist[p] + 1)) ? (FAL_SET_FLAG_EL(g->updated[t]), 1) : 0); } } }
#line 11 "loop_region.fal"

}

int main(int argc, char *argv[])
{
  static fal_G fal_gs_hg; fal_G *hg = &fal_gs_hg;
  fal_prop_add(&hg->fal_base, (void **)&hg->dist, sizeof(int), FAL_PROP_POINT);
  fal_prop_add(&hg->fal_base, (void **)&hg->updated, sizeof(int), FAL_PROP_POINT);
  fal_prop_add(&hg->fal_base, (void **)&hg->active, sizeof(int), FAL_PROP_POINT);
  fal_prop_add(&hg->fal_base, (void **)&hg->visits, sizeof(int), FAL_PROP_POINT);
  fal_G_read(hg, argv[1]);
  static fal_G fal_gs_g = {0}; fal_G *g = &fal_gs_g;
  fal_G_copy(g, hg);
  int rounds = 0, limit = argc > 2 ? 10 : 1000;
  more = 1;
  if (fal_front_wanted(g->npoints, g->nedges)) { double fal_pt0 = fal_prof_t0(); long long fal_lr = 0, fal_vis = 0; int fal_go = 0; (void)fal_go; fal_front fal_fr[2], fal_fu; for (int fal_j = 0; fal_j < 2; fal_j++) fal_front_init(&fal_fr[fal_j], g->npoints); fal_front_init(&fal_fu, g->npoints);
#pragma omp parallel
{
fal_fbuf fal_fb[2]; for (int fal_j = 0; fal_j < 2; fal_j++) { fal_fb[fal_j].f = &fal_fr[fal_j]; fal_fb[fal_j].n = 0; }
#pragma omp for schedule(static) nowait
for (int64_t fal_x = 0; fal_x < g->npoints; fal_x++) { if (g->active[fal_x]) fal_fbuf_push(&fal_fb[0], fal_x); if (g->updated[fal_x]) fal_fbuf_push(&fal_fb[1], fal_x); }
for (int fal_j = 0; fal_j < 2; fal_j++) fal_fbuf_flush(&fal_fb[fal_j]);
#pragma omp barrier
#pragma omp single
for (int fal_j = 0; fal_j < 2; fal_j++) fal_front_commit(&fal_fr[fal_j]);
while (more) {
#pragma omp barrier
#line 27 "loop_region.fal"
if (omp_get_thread_num() == 0) more = 0;
if (fal_fr[0].dense || fal_fr[1].dense) { const int fal_d = 1; const int32_t *fal_ids = NULL; const int64_t fal_n = g->npoints;
if (omp_get_thread_num() == 0) fal_vis += fal_n;
#pragma omp for schedule(static) nowait
#line 28 "loop_region.fal"
for (int64_t fal_k = 0; fal_k < fal_n; fal_k++) { int64_t fal_i = fal_d ? fal_k : fal_ids[fal_k]; do { fal_point t = (fal_point)fal_i; {
#line 28 "loop_region.fal"
                            {
      g->active[t] = g->updated[t];
      g->updated[t] = 0;
    } } } while (0); if (!fal_fr[0].dense && g->active[fal_i]) fal_fbuf_push(&fal_fb[0], fal_i); if (!fal_fr[1].dense && g->updated[fal_i]) fal_fbuf_push(&fal_fb[1], fal_i); } }
else {
{ const int fal_d = fal_fr[0].dense; const int32_t *fal_ids = fal_fr[0].ids; const int64_t fal_n = fal_front_len(&fal_fr[0]);
if (omp_get_thread_num() == 0) fal_vis += fal_n;
#pragma omp for schedule(static) nowait
#line 28 "loop_region.fal"
for (int64_t fal_k = 0; fal_k < fal_n; fal_k++) { int64_t fal_i = fal_d ? fal_k : fal_ids[fal_k]; if (!fal_front_claim(&fal_fu, fal_i)) continue; do { fal_point t = (fal_point)fal_i; {
#line 28 "loop_region.fal"
                            {
      g->active[t] = g->updated[t];
      g->updated[t] = 0;
    } } } while (0); if (!fal_fr[0].dense && g->active[fal_i]) fal_fbuf_push(&fal_fb[0], fal_i); if (!fal_fr[1].dense && g->updated[fal_i]) fal_fbuf_push(&fal_fb[1], fal_i); } }
{ const int fal_d = fal_fr[1].dense; const int32_t *fal_ids = fal_fr[1].ids; const int64_t fal_n = fal_front_len(&fal_fr[1]);
if (omp_get_thread_num() == 0) fal_vis += fal_n;
#pragma omp for schedule(static) nowait
#line 28 "loop_region.fal"
for (int64_t fal_k = 0; fal_k < fal_n; fal_k++) { int64_t fal_i = fal_d ? fal_k : fal_ids[fal_k]; if (!fal_front_claim(&fal_fu, fal_i)) continue; do { fal_point t = (fal_point)fal_i; {
#line 28 "loop_region.fal"
                            {
      g->active[t] = g->updated[t];
      g->updated[t] = 0;
    } } } while (0); if (!fal_fr[0].dense && g->active[fal_i]) fal_fbuf_push(&fal_fb[0], fal_i); if (!fal_fr[1].dense && g->updated[fal_i]) fal_fbuf_push(&fal_fb[1], fal_i); } }
}
{ const int fal_d = fal_fr[0].dense; const int32_t *fal_ids = fal_fr[0].ids; const int64_t fal_n = fal_front_len(&fal_fr[0]);
#pragma omp for schedule(static) nowait
for (int64_t fal_k = 0; fal_k < fal_n; fal_k++) { int64_t fal_x = fal_d ? fal_k : fal_ids[fal_k]; if (g->active[fal_x]) fal_fbuf_push(&fal_fb[0], fal_x); } }
{ const int fal_d = fal_fr[1].dense; const int32_t *fal_ids = fal_fr[1].ids; const int64_t fal_n = fal_front_len(&fal_fr[1]);
#pragma omp for schedule(static) nowait
for (int64_t fal_k = 0; fal_k < fal_n; fal_k++) { int64_t fal_x = fal_d ? fal_k : fal_ids[fal_k]; if (g->updated[fal_x]) fal_fbuf_push(&fal_fb[1], fal_x); } }
for (int fal_j = 0; fal_j < 2; fal_j++) fal_fbuf_flush(&fal_fb[fal_j]);
#pragma omp barrier
#pragma omp single
{ fal_front_commit(&fal_fr[0]); fal_front_commit(&fal_fr[1]); fal_front_commit(&fal_fu); }
#line 32 "loop_region.fal"
{ const int fal_d = fal_fr[0].dense; const int32_t *fal_ids = fal_fr[0].ids; const int64_t fal_n = fal_front_len(&fal_fr[0]);
if (omp_get_thread_num() == 0) fal_vis += fal_n;
#pragma omp for schedule(static) nowait
#line 32 "loop_region.fal"
for (int64_t fal_k = 0; fal_k < fal_n; fal_k++) { int64_t fal_i = fal_d ? fal_k : fal_ids[fal_k]; do { fal_point t = (fal_point)fal_i; { if (!(g->active[t])) continue;
#line 32 "loop_region.fal"
                                      g->visits[t]++; } } while (0); } }
#pragma omp barrier
#line 33 "loop_region.fal"
{ const int fal_d = fal_fr[0].dense; const int32_t *fal_ids = fal_fr[0].ids; const int64_t fal_n = fal_front_len(&fal_fr[0]);
if (omp_get_thread_num() == 0) fal_vis += fal_n;
#pragma omp for schedule(guided, 16) nowait
#line 33 "loop_region.fal"
for (int64_t fal_k = 0; fal_k < fal_n; fal_k++) { int64_t fal_i = fal_d ? fal_k : fal_ids[fal_k]; do { fal_point t = (fal_point)fal_i; { if (!(g->active[t])) continue;
#line 33 "loop_region.fal"
                                      spread(t, g); } } while (0); if (!fal_fr[1].dense && g->updated[fal_i]) fal_fbuf_push(&fal_fb[1], fal_i); if (fal_front_open(&fal_fr[1])) for (int64_t fal_e = g->fal_base.csr.offsets[fal_i]; fal_e < g->fal_base.csr.offsets[fal_i + 1]; fal_e++) { int64_t fal_x = g->fal_base.csr.dst[fal_e]; if (!fal_fr[1].dense && g->updated[fal_x]) fal_fbuf_push(&fal_fb[1], fal_x); } } }
{ const int fal_d = fal_fr[1].dense; const int32_t *fal_ids = fal_fr[1].ids; const int64_t fal_n = fal_front_len(&fal_fr[1]);
#pragma omp for schedule(static) nowait
for (int64_t fal_k = 0; fal_k < fal_n; fal_k++) { int64_t fal_x = fal_d ? fal_k : fal_ids[fal_k]; if (g->updated[fal_x]) fal_fbuf_push(&fal_fb[1], fal_x); } }
for (int fal_j = 0; fal_j < 2; fal_j++) fal_fbuf_flush(&fal_fb[fal_j]);
#pragma omp barrier
#pragma omp single
{ fal_front_commit(&fal_fr[1]); }
#line 34 "loop_region.fal"
{ const int fal_d = fal_fr[1].dense; const int32_t *fal_ids = fal_fr[1].ids; const int64_t fal_n = fal_front_len(&fal_fr[1]);
if (omp_get_thread_num() == 0) fal_vis += fal_n;
#pragma omp for schedule(static) nowait
#line 34 "loop_region.fal"
for (int64_t fal_k = 0; fal_k < fal_n; fal_k++) { int64_t fal_i = fal_d ? fal_k : fal_ids[fal_k]; do { fal_point t = (fal_point)fal_i; { if (!(g->updated[t])) continue;
#line 34 "loop_region.fal"
                                       more = 1; } } while (0); } }
#line 35 "loop_region.fal"
if (omp_get_thread_num() == 0) rounds++;
#pragma omp barrier
#line 36 "loop_region.fal"
if (rounds == limit)
      break;
if (omp_get_thread_num() == 0) fal_lr++;
}
}
for (int fal_j = 0; fal_j < 2; fal_j++) fal_front_free(&fal_fr[fal_j]); fal_front_free(&fal_fu);
fal_prof_end("loop_region.fal", 26, "frontier", fal_pt0, fal_lr); fal_prof_visits("loop_region.fal", 26, "frontier", fal_vis); } else { double fal_pt0 = fal_prof_t0(); long long fal_lr = 0, fal_vis = 0; int fal_go = 0; (void)fal_go;
#pragma omp parallel
{
while (more) {
#pragma omp barrier
#line 27 "loop_region.fal"
if (omp_get_thread_num() == 0) more = 0;
if (omp_get_thread_num() == 0) fal_vis += g->npoints;
#pragma omp for schedule(static) nowait
#line 28 "loop_region.fal"
for (int64_t fal_i = 0; fal_i < g->npoints; fal_i++) { do { fal_point t = (fal_point)fal_i; {
#line 28 "loop_region.fal"
                            {
      g->active[t] = g->updated[t];
      g->updated[t] = 0;
    } } } while (0); do { fal_point t = (fal_point)fal_i; { if (!(g->active[t])) continue;
#line 32 "loop_region.fal"
                                      g->visits[t]++; } } while (0); }
#pragma omp barrier
#line 33 "loop_region.fal"
if (omp_get_thread_num() == 0) fal_vis += g->npoints;
#pragma omp for schedule(dynamic, fal_chunk(g->npoints)) nowait
#line 33 "loop_region.fal"
for (int64_t fal_i = 0; fal_i < g->npoints; fal_i++) { do { fal_point t = (fal_point)fal_i; { if (!(g->active[t])) continue;
#line 33 "loop_region.fal"
                                      spread(t, g); } } while (0); }
#pragma omp barrier
#line 34 "loop_region.fal"
if (omp_get_thread_num() == 0) fal_vis += g->npoints;
#pragma omp for schedule(static) nowait
#line 34 "loop_region.fal"
for (int64_t fal_i = 0; fal_i < g->npoints; fal_i++) { do { fal_point t = (fal_point)fal_i; { if (!(g->updated[t])) continue;
#line 34 "loop_region.fal"
                                       more = 1; } } while (0); }
#line 35 "loop_region.fal"
if (omp_get_thread_num() == 0) rounds++;
#pragma omp barrier
#line 36 "loop_region.fal"
if (rounds == limit)
      break;
if (omp_get_thread_num() == 0) fal_lr++;
}
}
fal_prof_end("loop_region.fal", 26, "region", fal_pt0, fal_lr); fal_prof_visits("loop_region.fal", 26, "region", fal_vis); }
#line 38 "loop_region.fal"

  fal_G_copy(hg, g);
  return rounds;
}
