#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#line 1 "loop_region_dense.fal"
/* The loop of loop_region.fal with a value filter ((t.dist >= 0)) where
 * that one has a flag: no frontier (docs/optimiser.md "Frontiers", rule
 * 1), so the region scans all points and fuses the two point-local phases
 * into one loop. */
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
#line 5 "loop_region_dense.fal"
int more = 0;

void spread(fal_point p, fal_G *g)
{
  { const fal_point fal_p1 = p; for (int64_t fal_e2 = g->fal_base.csr.offsets[fal_p1], fal_n2 = g->fal_base.csr.offsets[fal_p1 + 1]; fal_e2 < fal_n2; fal_e2++) { fal_point t = g->fal_base.csr.dst[fal_e2]; {
#line 10 "loop_region_dense.fal"
    (FAL_ATOMIC_ANY(min, &(g->dist[t]), (g->dist[p] + 1)) ? (FAL_SET_FLAG_EL(g->updated[t]), 1) : 0); } } }
#line 10 "loop_region_dense.fal"

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
  { double fal_pt0 = fal_prof_t0(); long long fal_lr = 0, fal_vis = 0; int fal_go = 0; (void)fal_go;
#pragma omp parallel
{
while (more) {
#pragma omp barrier
#line 26 "loop_region_dense.fal"
if (omp_get_thread_num() == 0) more = 0;
if (omp_get_thread_num() == 0) fal_vis += g->npoints;
#pragma omp for schedule(static) nowait
#line 27 "loop_region_dense.fal"
for (int64_t fal_i = 0; fal_i < g->npoints; fal_i++) { do { fal_point t = (fal_point)fal_i; {
#line 27 "loop_region_dense.fal"
                            {
      g->active[t] = g->updated[t];
      g->updated[t] = 0;
    } } } while (0); do { fal_point t = (fal_point)fal_i; { if (!(g->dist[t] >= 0)) continue;
#line 31 "loop_region_dense.fal"
                                         g->visits[t]++; } } while (0); }
#pragma omp barrier
#line 32 "loop_region_dense.fal"
if (omp_get_thread_num() == 0) fal_vis += g->npoints;
#pragma omp for schedule(dynamic, fal_chunk(g->npoints)) nowait
#line 32 "loop_region_dense.fal"
for (int64_t fal_i = 0; fal_i < g->npoints; fal_i++) { do { fal_point t = (fal_point)fal_i; { if (!(g->active[t])) continue;
#line 32 "loop_region_dense.fal"
                                      spread(t, g); } } while (0); }
#pragma omp barrier
#line 33 "loop_region_dense.fal"
if (omp_get_thread_num() == 0) fal_vis += g->npoints;
#pragma omp for schedule(static) nowait
#line 33 "loop_region_dense.fal"
for (int64_t fal_i = 0; fal_i < g->npoints; fal_i++) { do { fal_point t = (fal_point)fal_i; { if (!(g->updated[t])) continue;
#line 33 "loop_region_dense.fal"
                                       more = 1; } } while (0); }
#line 34 "loop_region_dense.fal"
if (omp_get_thread_num() == 0) rounds++;
#pragma omp barrier
#line 35 "loop_region_dense.fal"
if (rounds == limit)
      break;
if (omp_get_thread_num() == 0) fal_lr++;
}
}
fal_prof_end("loop_region_dense.fal", 25, "region", fal_pt0, fal_lr); fal_prof_visits("loop_region_dense.fal", 25, "region", fal_vis); }
#line 37 "loop_region_dense.fal"

  fal_G_copy(hg, g);
  return rounds;
}
