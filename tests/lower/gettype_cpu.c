#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#line 1 "gettype_cpu.fal"
/* §2 with --target=cpu: placements are host placements and a getType
 * graph is the host graph itself, so copies copy nothing. */
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
  }
  d->npoints = s->npoints;
  d->nedges = s->nedges;
  d->directed = s->directed;
  if (s->dist && d->dist)
    memcpy(d->dist, s->dist, (size_t)s->npoints * sizeof *d->dist);
}
#line 3 "gettype_cpu.fal"
int changed = 0, other = 0, host;

int main(int argc, char **argv)
{
  static fal_G fal_gs_hg; fal_G *hg = &fal_gs_hg;
  fal_prop_add(&hg->fal_base, (void **)&hg->dist, sizeof(int), FAL_PROP_POINT);
  fal_G_read(hg, argv[1]);
  static fal_G fal_gs_g = {0}; fal_G *g = &fal_gs_g;
  fal_G_copy(g, hg);
  { fal_sched_points(&g->fal_base.csr); 
#pragma omp parallel for schedule(runtime)
#line 12 "gettype_cpu.fal"
for (fal_point t = 0; t < g->npoints; t++) {
#line 12 "gettype_cpu.fal"
                          g->dist[t] = 0; } }
#line 12 "gettype_cpu.fal"

  fal_host_prop_copy((void **)&hg->dist, g->dist, fal_prop_elems(&g->fal_base.csr, 0) * sizeof *g->dist);
  fal_G_copy(hg, g);
  changed = other + host;
}
