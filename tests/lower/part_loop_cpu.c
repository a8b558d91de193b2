#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#line 1 "part_loop_cpu.fal"
/* The same loop over a partitioned graph (§7) on the CPU target, where
 * the parts share the host graph's arrays: planned as one OpenMP region
 * (plan.c p->sgraph), topology-driven (the phase visits the points whose
 * dist changed), graph property changed[0] a shared object of the steps
 * and MIN's flag, updatePartition a step that does nothing. */
/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  int *dist; /* point property */
  int *changed; /* graph property */
  /* makePartition (§7): the parts, host views of GPU parts, the first
   * point of each part, and the merge function of updateFunction */
  struct fal_G *fal_parts, *fal_mirrors;
  int fal_nparts, fal_shared;
  int64_t *fal_lo;
  void (*fal_merge)(struct fal_G *, fal_point, struct fal_G *, fal_point);
};
static void fal_G_read(fal_G *g, const char *path)
{
  fal_gbase_read(&g->fal_base, path);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)g->fal_base.csr.nedges;
  g->directed = g->fal_base.csr.directed;
}
static void fal_G_partition(fal_G *h, int ngpu, int ncpu, int policy, const char *file, int line)
{
  int k = ngpu + ncpu;
  (void)policy;
  if (k < 1 || k > 64 || ngpu < 0 || ncpu < 0) {
    fprintf(stderr, "%s:%d: error: makePartition(%d, %d): between 1 and 64 parts\n", file, line, ngpu, ncpu);
    exit(1);
  }
  h->fal_nparts = k;
  h->fal_parts = (fal_G *)fal_calloc((size_t)k, sizeof(fal_G));
  h->fal_mirrors = (fal_G *)fal_calloc((size_t)k, sizeof(fal_G));
  h->fal_lo = (int64_t *)fal_calloc((size_t)k + 1, sizeof(int64_t));
  /* ORDERED: contiguous, balanced by edges */
  fal_graph_cut_ordered(h->fal_base.csr.offsets, 0, h->npoints, h->nedges, k, h->fal_lo);
  h->fal_shared = 1;
  for (int i = 0; i < k; i++) {
    fal_G *q = &h->fal_parts[i];
    q->fal_base.csr = h->fal_base.csr; /* a host part shares the CSR */
    q->fal_base.device = -1;
    q->npoints = h->npoints;
    q->nedges = h->nedges;
    q->directed = h->directed;
    q->dist = h->fal_shared ? h->dist : (int *)fal_calloc((size_t)h->npoints + 1, sizeof *q->dist);
    q->changed = h->fal_shared ? h->changed : (int *)fal_calloc(1 + 1, sizeof *q->changed);
  }
}
static void fal_G_parts_push(fal_G *h)
{
  if (h->fal_shared)
    return;
  for (int i = 0; i < h->fal_nparts; i++) {
    fal_G *q = &h->fal_parts[i];
    if (h->dist)
      memcpy(q->dist, h->dist, (size_t)h->npoints * sizeof *h->dist);
    if (h->changed)
      memcpy(q->changed, h->changed, 1 * sizeof *h->changed);
  }
}
static int fal_G_point_differs(const fal_G *a, const fal_G *h, fal_point p)
{
  return 0 ||
    (h->dist && memcmp(&a->dist[p], &h->dist[p], sizeof *h->dist) != 0);
}
static void fal_G_point_take(fal_G *to, const fal_G *from, fal_point p)
{
  if (to->dist && from->dist)
    to->dist[p] = from->dist[p];
}
static void fal_G_parts_pull(fal_G *h)
{
  fal_G *v[64];
  int k = h->fal_nparts;
  if (h->fal_shared)
    return;
  for (int i = 0; i < k; i++) {
    v[i] = &h->fal_parts[i];
  }
  for (int o = 0; o < k; o++) {
    int64_t lo = h->fal_lo[o], hi = h->fal_lo[o + 1];
#pragma omp parallel for schedule(static)
    for (int64_t p = lo; p < hi; p++) {
      for (int j = 0; j < k; j++) {
        if (j == o || !fal_G_point_differs(v[j], h, (fal_point)p))
          continue;
        if (h->fal_merge)
          h->fal_merge(v[o], (fal_point)p, v[j], (fal_point)p);
        else
          fal_G_point_take(v[o], v[j], (fal_point)p);
      }
      fal_G_point_take(h, v[o], (fal_point)p);
    }
  }
  if (h->changed) { /* a value changed by any part wins */
    int before = h->changed[0];
    for (int j = 0; j < k; j++)
      if (memcmp(&v[j]->changed[0], &before, sizeof before) != 0) {
        h->changed[0] = v[j]->changed[0];
        break;
      }
  }
}
#line 6 "part_loop_cpu.fal"
void relax(fal_point p, fal_G *hg)
{
  { const fal_point fal_p1 = p; for (int64_t fal_e2 = hg->fal_base.csr.offsets[fal_p1], fal_n2 = hg->fal_base.csr.offsets[fal_p1 + 1]; fal_e2 < fal_n2; fal_e2++) { fal_point t = hg->fal_base.csr.dst[fal_e2]; {
#line 9 "part_loop_cpu.fal"
    (FAL_ATOMIC_ANY(min, &(hg->dist[t]), (hg->dist[p] + hg->fal_base.csr.weight[fal_e2])) ? (FAL_SET_FLAG(hg->changed[0]), 1) : 0); } } }
#line 9 "part_loop_cpu.fal"

}

void merge(fal_G *fal_g_orig, fal_point orig, fal_G *fal_g_incom, fal_point incom)
{
  if (fal_g_orig->dist[orig] > fal_g_incom->dist[incom])
    fal_g_orig->dist[orig] = fal_g_incom->dist[incom];
}

int main(int argc, char *argv[])
{
  static fal_G fal_gs_hg; fal_G *hg = &fal_gs_hg;
  fal_prop_add(&hg->fal_base, (void **)&hg->dist, sizeof(int), FAL_PROP_POINT);
  fal_prop_add(&hg->fal_base, (void **)&hg->changed, sizeof(int), FAL_PROP_GRAPH);
  fal_G_read(hg, argv[1]);
  fal_G_partition(hg, 2, 0, ORDERED, __FILE__, __LINE__);
  (hg->fal_merge = merge);
  { fal_G_parts_push(hg); for (int fal_pi = 0; fal_pi < hg->fal_nparts; fal_pi++) { fal_G *fal_part = &hg->fal_parts[fal_pi]; int64_t fal_lo = hg->fal_lo[fal_pi], fal_hi = hg->fal_lo[fal_pi + 1]; if (hg->fal_shared) { if (fal_pi > 0) break; fal_hi = hg->fal_lo[hg->fal_nparts]; } if (!fal_part->fal_base.on_gpu) { fal_G *hg = fal_part; 
#pragma omp parallel for schedule(dynamic, 256)
#line 26 "part_loop_cpu.fal"
for (fal_point t = (fal_point)fal_lo; t < fal_hi; t++) {
#line 26 "part_loop_cpu.fal"
                           hg->dist[t] = 1000000; } } }
fal_G_parts_pull(hg); }
#line 26 "part_loop_cpu.fal"

  hg->dist[(0)] = 0;
  int rounds = 0;
  if (fal_front_wanted(hg->npoints, hg->nedges)) { double fal_pt0 = fal_prof_t0(); long long fal_lr = 0, fal_vis = 0; int fal_go = 0; (void)fal_go; fal_front fal_tf; fal_front_init(&fal_tf, hg->npoints); fal_tf.dense = 1; int *fal_pv = (int *)fal_alloc(((size_t)hg->npoints + 1) * sizeof *fal_pv); memcpy(fal_pv, hg->dist, (size_t)hg->npoints * sizeof *fal_pv);
#pragma omp parallel
{
fal_fbuf fal_tb; fal_tb.f = &fal_tf; fal_tb.n = 0;
while (1) {
#pragma omp barrier
#line 30 "part_loop_cpu.fal"
if (omp_get_thread_num() == 0) hg->changed[0] = 0;
#pragma omp barrier
#line 31 "part_loop_cpu.fal"
{ const int fal_d = fal_tf.dense; const int32_t *fal_ids = fal_tf.ids; const int64_t fal_n = fal_front_len(&fal_tf);
if (omp_get_thread_num() == 0) fal_vis += fal_n;
#pragma omp for schedule(guided, 16) nowait
#line 31 "part_loop_cpu.fal"
for (int64_t fal_k = 0; fal_k < fal_n; fal_k++) { int64_t fal_i = fal_d ? fal_k : fal_ids[fal_k]; do { fal_point t = (fal_point)fal_i; {
#line 31 "part_loop_cpu.fal"
                             relax(t, hg); } } while (0); for (int64_t fal_e = hg->fal_base.csr.offsets[fal_i]; fal_e < hg->fal_base.csr.offsets[fal_i + 1]; fal_e++) { int64_t fal_x = hg->fal_base.csr.dst[fal_e]; int fal_v, fal_o; __atomic_load(&hg->dist[fal_x], &fal_v, __ATOMIC_RELAXED); __atomic_load(&fal_pv[fal_x], &fal_o, __ATOMIC_RELAXED); if (fal_v != fal_o) { __atomic_store(&fal_pv[fal_x], &fal_v, __ATOMIC_RELAXED); fal_fbuf_push(&fal_tb, fal_x); } } } }
fal_fbuf_flush(&fal_tb);
#pragma omp barrier
#pragma omp single
{ fal_front_commit(&fal_tf);
}
#line 32 "part_loop_cpu.fal"
if (omp_get_thread_num() == 0) rounds++;
#pragma omp barrier
#line 33 "part_loop_cpu.fal"
if (hg->changed[0] == 0)
      break;
#line 35 "part_loop_cpu.fal"
((void)0);
if (omp_get_thread_num() == 0) fal_lr++;
}
}
fal_front_free(&fal_tf); fal_free(fal_pv);
fal_prof_end("part_loop_cpu.fal", 29, "frontier", fal_pt0, fal_lr); fal_prof_visits("part_loop_cpu.fal", 29, "frontier", fal_vis); } else { double fal_pt0 = fal_prof_t0(); long long fal_lr = 0, fal_vis = 0; int fal_go = 0; (void)fal_go;
#pragma omp parallel
{
while (1) {
#pragma omp barrier
#line 30 "part_loop_cpu.fal"
if (omp_get_thread_num() == 0) hg->changed[0] = 0;
#pragma omp barrier
#line 31 "part_loop_cpu.fal"
if (omp_get_thread_num() == 0) fal_vis += hg->npoints;
if (fal_edge_balanced(&hg->fal_base.csr)) { int64_t fal_lo, fal_hi; fal_edge_share(hg->fal_base.csr.offsets, hg->npoints, &fal_lo, &fal_hi);
#line 31 "part_loop_cpu.fal"
for (int64_t fal_i = fal_lo; fal_i < fal_hi; fal_i++) { do { fal_point t = (fal_point)fal_i; {
#line 31 "part_loop_cpu.fal"
                             relax(t, hg); } } while (0); } } else {
#pragma omp for schedule(dynamic, fal_chunk(hg->npoints)) nowait
#line 31 "part_loop_cpu.fal"
for (int64_t fal_i = 0; fal_i < hg->npoints; fal_i++) { do { fal_point t = (fal_point)fal_i; {
#line 31 "part_loop_cpu.fal"
                             relax(t, hg); } } while (0); } }
#line 32 "part_loop_cpu.fal"
if (omp_get_thread_num() == 0) rounds++;
#pragma omp barrier
#line 33 "part_loop_cpu.fal"
if (hg->changed[0] == 0)
      break;
#line 35 "part_loop_cpu.fal"
((void)0);
if (omp_get_thread_num() == 0) fal_lr++;
}
}
fal_prof_end("part_loop_cpu.fal", 29, "region", fal_pt0, fal_lr); fal_prof_visits("part_loop_cpu.fal", 29, "region", fal_vis); }
#line 36 "part_loop_cpu.fal"

  return rounds > 0 ? 0 : 1;
}
