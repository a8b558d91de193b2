#define FAL_HUB_KERNELS 1
#include "falcon/cuda.cuh"
typedef struct fal_G fal_G;
#line 1 "gpu_warp.fal"
/* Warp-per-point kernels (falconc/lower_warp.c): a pull sum shared by the
 * lanes, lane-0 stores and a condition taken from lane 0; a body that
 * keeps one thread per point (a loop outside the neighbour loop). */
/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  double *rank; /* point property */
  double *next; /* point property */
  double *contrib; /* point property */
};
static void fal_G_read(fal_G *g, const char *path)
{
  g->fal_base.need_in_edges = 1;
  fal_gbase_read(&g->fal_base, path);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)g->fal_base.csr.nedges;
  g->directed = g->fal_base.csr.directed;
}
static fal_G fal_G_gpu(int device)
{
  fal_G g;
  memset(&g, 0, sizeof g);
  g.fal_base.on_gpu = 1;
  g.fal_base.want_device = device;
  g.fal_base.device = -1;
  return g;
}
static void fal_G_elems_to_gpu(fal_G *d, const fal_G *h, const char *file, int line)
{
  int fal_regrow = d->fal_base.loaded &&
      (fal_prop_elems(&d->fal_base.csr, 0) != fal_prop_elems(&h->fal_base.csr, 0) ||
       fal_prop_elems(&d->fal_base.csr, 1) != fal_prop_elems(&h->fal_base.csr, 1));
  fal_gpu_structure(&d->fal_base, &h->fal_base, file, line);
  d->npoints = h->npoints;
  d->nedges = h->nedges;
  d->directed = h->directed;
  if (fal_regrow && d->rank) {
    FAL_CUDA(cudaFree(d->rank));
    d->rank = NULL;
  }
  fal_dcopy_in((void **)&d->rank, h->rank, (size_t)h->npoints * sizeof *d->rank, file, line);
  if (fal_regrow && d->next) {
    FAL_CUDA(cudaFree(d->next));
    d->next = NULL;
  }
  fal_dcopy_in((void **)&d->next, h->next, (size_t)h->npoints * sizeof *d->next, file, line);
  if (fal_regrow && d->contrib) {
    FAL_CUDA(cudaFree(d->contrib));
    d->contrib = NULL;
  }
  fal_dcopy_in((void **)&d->contrib, h->contrib, (size_t)h->npoints * sizeof *d->contrib, file, line);
}
static void fal_G_to_gpu(fal_G *d, const fal_G *h, const char *file, int line)
{
  if (d->fal_base.device < 0)
    d->fal_base.device = fal_cuda_place(d->fal_base.want_device, file, line);
  fal_cuda_use(d->fal_base.device);
  fal_G_elems_to_gpu(d, h, file, line);
}
static void fal_G_props_to_host(fal_G *h, const fal_G *d)
{
  fal_cuda_use(d->fal_base.device);
  h->npoints = d->npoints;
  h->nedges = d->nedges;
  h->directed = d->directed;
  fal_dcopy_out((void **)&h->rank, d->rank, (size_t)d->npoints * sizeof *h->rank);
  fal_dcopy_out((void **)&h->next, d->next, (size_t)d->npoints * sizeof *h->next);
  fal_dcopy_out((void **)&h->contrib, d->contrib, (size_t)d->npoints * sizeof *h->contrib);
}
static void fal_G_to_host(fal_G *h, fal_G *d)
{
  fal_cuda_use(d->fal_base.device);
  if (d->fal_base.loaded && (d->fal_base.structure_of != (const void *)h->fal_base.csr.offsets ||
                             d->fal_base.csr.version != h->fal_base.csr.version)) {
    fal_gpu_structure_pull(&h->fal_base, &d->fal_base);
    fal_free(h->rank);
    h->rank = NULL;
    fal_free(h->next);
    h->next = NULL;
    fal_free(h->contrib);
    h->contrib = NULL;
    d->fal_base.structure_of = h->fal_base.csr.offsets;
  }
  fal_G_props_to_host(h, d);
}
static void fal_G_read_gpu(fal_G *g, const char *path, const char *file, int line)
{
  fal_G h;
  memset(&h, 0, sizeof h);
  fal_prop_add(&h.fal_base, (void **)&h.rank, sizeof *h.rank, FAL_PROP_POINT);
  fal_prop_add(&h.fal_base, (void **)&h.next, sizeof *h.next, FAL_PROP_POINT);
  fal_prop_add(&h.fal_base, (void **)&h.contrib, sizeof *h.contrib, FAL_PROP_POINT);
  fal_G_read(&h, path);
  fal_G_to_gpu(g, &h, file, line);
  g->fal_base.structure_of = NULL;
  fal_gbase_free(&h.fal_base);
}
#line 4 "gpu_warp.fal"
__device__ int changed = 0;

__host__ __device__ void pull(fal_point v, fal_G *g, double base)
{
  double sum = 0;
  long n = 0;
  { const fal_point fal_p1 = v; decltype(sum) fal_wr_sum = sum; sum = 0; decltype(n) fal_wr_n = n; n = 0; FAL_UNROLL for (int64_t fal_e2 = g->fal_base.csr.in_offsets[fal_p1] + FAL_WL; fal_e2 < g->fal_base.csr.in_offsets[fal_p1 + 1]; fal_e2 += FAL_WN) { fal_point u = g->fal_base.csr.in_src[fal_e2]; {
#line 10 "gpu_warp.fal"
                          {
    sum += g->contrib[u];
    n = n + 1;
  } } } sum = fal_wr_sum + fal_wsum(sum); n = fal_wr_n + fal_wsum(n); }
#line 13 "gpu_warp.fal"

  { if (FAL_WL == 0) { g->next[v] = base + 0.85 * sum; } fal_wsync(); }
  if (fal_wb(!!(n > 0 && g->next[v] > g->rank[v])))
    { if (FAL_WL == 0) { FAL_HD_SAME(changed, 1); } fal_wsync(); }
  else
    { if (FAL_WL == 0) { g->next[v] = g->rank[v]; } fal_wsync(); }
}

__host__ __device__ void walk(fal_point p, fal_G *g)
{
  int k = 0;
  while (k < 3)
    k++;
  { const fal_point fal_p3 = p; FAL_UNROLL for (int64_t fal_e4 = g->fal_base.csr.offsets[fal_p3]; fal_e4 < g->fal_base.csr.offsets[fal_p3 + 1]; fal_e4++) { fal_point t = g->fal_base.csr.dst[fal_e4]; {
#line 26 "gpu_warp.fal"
                           g->rank[t] = k; } } }
#line 26 "gpu_warp.fal"

}

#line 38 "gpu_warp.fal"
__global__ void fal_foreach_L38_5(fal_G fal_kv_g)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; { if (!(g->rank[t] > 0)) continue;
#line 38 "gpu_warp.fal"
                                      pull(t, g, 0.15); } }
}
#line 38 "gpu_warp.fal"
__global__ void fal_foreach_L38_5_w(fal_G fal_kv_g, fal_hubk fal_hk, int64_t fal_hd, unsigned fal_hb)
{
  fal_G *g = &fal_kv_g;
  if (blockIdx.x < fal_hb) fal_bbegin(); else fal_wbegin();
  if (blockIdx.x < fal_hb) {
  for (int64_t fal_h = fal_hk.h0 + blockIdx.x; fal_h < fal_hk.h0 + fal_hk.nh; fal_h += fal_hb) { int64_t fal_i = fal_hk.d[fal_h]; fal_point t = (fal_point)fal_i; { if (!fal_wb(!!((g->rank[t] > 0)))) continue;
#line 38 "gpu_warp.fal"
                                      pull(t, g, 0.15); } }
  } else
  for (int64_t fal_c = ((blockIdx.x - fal_hb) * (int64_t)blockDim.y + threadIdx.y) * 32; fal_c < g->npoints; fal_c += (int64_t)(gridDim.x - fal_hb) * blockDim.y * 32) {
    unsigned fal_lm;
    { int64_t fal_i = fal_c + threadIdx.x; bool fal_tk = false;
      if (fal_i < g->npoints) { fal_point t = (fal_point)fal_i; if (!FAL_HUB(g, t, fal_hd)) { fal_tk = ((g->rank[t] > 0)); } }
      fal_lm = __ballot_sync(0xffffffffu, fal_tk); }
    while (fal_lm) { int64_t fal_i = fal_c + __ffs(fal_lm) - 1; fal_lm &= fal_lm - 1; { fal_point t = (fal_point)fal_i; { if (!fal_wb(!!((g->rank[t] > 0)))) continue;
#line 38 "gpu_warp.fal"
                                      pull(t, g, 0.15); } } }
  }
}
#line 39 "gpu_warp.fal"
__global__ void fal_foreach_L39_6(fal_G fal_kv_g)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; {
#line 39 "gpu_warp.fal"
                          walk(t, g); } }
}
#line 40 "gpu_warp.fal"
__global__ void fal_foreach_L40_7(fal_G fal_kv_g)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; {
#line 40 "gpu_warp.fal"
                          {
    int d = fal_outdeg_hd(&g->fal_base.csr, t);
    { const fal_point fal_p8 = t; FAL_UNROLL for (int64_t fal_e9 = g->fal_base.csr.offsets[fal_p8]; fal_e9 < g->fal_base.csr.offsets[fal_p8 + 1]; fal_e9++) { fal_point u = g->fal_base.csr.dst[fal_e9]; { if (!(g->rank[u] < 1)) continue;
#line 42 "gpu_warp.fal"
                                         (FAL_ATOMIC_ANY(min, &(g->rank[u]), (g->rank[t])) ? (FAL_SET_FLAG(changed), 1) : 0); } } }
#line 42 "gpu_warp.fal"

    if (d > 2)
      g->next[t] = d;
  } } }
}
#line 40 "gpu_warp.fal"
__global__ void fal_foreach_L40_7_w(fal_G fal_kv_g, fal_hubk fal_hk, int64_t fal_hd, unsigned fal_hb)
{
  fal_G *g = &fal_kv_g;
  if (blockIdx.x < fal_hb) fal_bbegin(); else fal_wbegin();
  if (blockIdx.x < fal_hb) {
  for (int64_t fal_h = fal_hk.h0 + blockIdx.x; fal_h < fal_hk.h0 + fal_hk.nh; fal_h += fal_hb) { int64_t fal_i = fal_hk.d[fal_h]; fal_point t = (fal_point)fal_i; {
#line 40 "gpu_warp.fal"
                          {
    int d = fal_outdeg_hd(&g->fal_base.csr, t);
    { const fal_point fal_p10 = t; FAL_UNROLL for (int64_t fal_e11 = g->fal_base.csr.offsets[fal_p10] + FAL_WL; fal_e11 < g->fal_base.csr.offsets[fal_p10 + 1]; fal_e11 += FAL_WN) { fal_point u = g->fal_base.csr.dst[fal_e11]; { if (!(g->rank[u] < 1)) continue;
#line 42 "gpu_warp.fal"
                                         (FAL_ATOMIC_ANY(min, &(g->rank[u]), (g->rank[t])) ? (FAL_SET_FLAG(changed), 1) : 0); } } }
#line 42 "gpu_warp.fal"

    if (fal_wb(!!(d > 2)))
      { if (FAL_WL == 0) { g->next[t] = d; } fal_wsync(); }
  } } }
  } else
  for (int64_t fal_i = (blockIdx.x - fal_hb) * (int64_t)blockDim.y + threadIdx.y; fal_i < g->npoints; fal_i += (int64_t)(gridDim.x - fal_hb) * blockDim.y) { fal_point t = (fal_point)fal_i; if (FAL_HUB(g, t, fal_hd)) continue; {
#line 40 "gpu_warp.fal"
                          {
    int d = fal_outdeg_hd(&g->fal_base.csr, t);
    { const fal_point fal_p10 = t; FAL_UNROLL for (int64_t fal_e11 = g->fal_base.csr.offsets[fal_p10] + FAL_WL; fal_e11 < g->fal_base.csr.offsets[fal_p10 + 1]; fal_e11 += FAL_WN) { fal_point u = g->fal_base.csr.dst[fal_e11]; { if (!(g->rank[u] < 1)) continue;
#line 42 "gpu_warp.fal"
                                         (FAL_ATOMIC_ANY(min, &(g->rank[u]), (g->rank[t])) ? (FAL_SET_FLAG(changed), 1) : 0); } } }
#line 42 "gpu_warp.fal"

    if (fal_wb(!!(d > 2)))
      { if (FAL_WL == 0) { g->next[t] = d; } fal_wsync(); }
  } } }
}
#line 29 "gpu_warp.fal"
int main()
{
  static fal_G fal_gs_hg; fal_G *hg = &fal_gs_hg;
  fal_prop_add(&hg->fal_base, (void **)&hg->rank, sizeof(double), FAL_PROP_POINT);
  fal_prop_add(&hg->fal_base, (void **)&hg->next, sizeof(double), FAL_PROP_POINT);
  fal_prop_add(&hg->fal_base, (void **)&hg->contrib, sizeof(double), FAL_PROP_POINT);
  fal_G_read(hg, "graph.bin");
  static fal_G fal_gs_g = fal_G_gpu(-1); fal_G *g = &fal_gs_g;
  fal_G_to_gpu(g, hg, __FILE__, __LINE__);
  { fal_cuda_use(g->fal_base.device); if (fal_warp_pick(&g->fal_base)) { const fal_hubs *fal_hb = fal_hubs_of(&g->fal_base); int64_t fal_h0 = 0, fal_nh = !fal_hb ? 0 : fal_hb->n; fal_hubk fal_hk = fal_hubk_of(fal_hb, fal_h0, fal_nh); unsigned fal_hbk = fal_nh ? fal_hub_grid(fal_nh) : 0; fal_foreach_L38_5_w<<<fal_hbk + fal_cuda_grid((int64_t)(g->npoints) * 32), dim3(32, FAL_BLOCK / 32)>>>(*g, fal_hk, fal_nh ? fal_hb->deg : INT64_MAX, fal_hbk); } else fal_foreach_L38_5<<<fal_cuda_grid(g->npoints), FAL_BLOCK>>>(*g); FAL_CHECK_LAUNCH("fal_foreach_L38_5"); }
  { fal_cuda_use(g->fal_base.device); fal_foreach_L39_6<<<fal_cuda_grid(g->npoints), FAL_BLOCK>>>(*g); FAL_CHECK_LAUNCH("fal_foreach_L39_6"); }
  { fal_cuda_use(g->fal_base.device); if (fal_warp_pick(&g->fal_base)) { const fal_hubs *fal_hb = fal_hubs_of(&g->fal_base); int64_t fal_h0 = 0, fal_nh = !fal_hb ? 0 : fal_hb->n; fal_hubk fal_hk = fal_hubk_of(fal_hb, fal_h0, fal_nh); unsigned fal_hbk = fal_nh ? fal_hub_grid(fal_nh) : 0; fal_foreach_L40_7_w<<<fal_hbk + fal_cuda_grid((int64_t)(g->npoints) * 32), dim3(32, FAL_BLOCK / 32)>>>(*g, fal_hk, fal_nh ? fal_hb->deg : INT64_MAX, fal_hbk); } else fal_foreach_L40_7<<<fal_cuda_grid(g->npoints), FAL_BLOCK>>>(*g); FAL_CHECK_LAUNCH("fal_foreach_L40_7"); }
#line 45 "gpu_warp.fal"

  fal_G_to_host(hg, g);
}
