#define FAL_HUB_KERNELS 1
#include "falcon/cuda.cuh"
typedef struct fal_G fal_G;
#line 1 "gpu_hub_split.fal"
/* Which warp kernels deal a hub's edges to several blocks (lower_warp.c
 * warp_split_check; docs/optimiser.md "A hub over several blocks"): lines
 * 41 to 44 do (one neighbour loop, through calls whose arguments are
 * names or numbers), 45 to 48 do not (a property as an argument, two
 * loops, a sum and a store, a condition).  tests/run.sh checks --explain. */
#define INF 2147483647
/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  int *d; /* point property */
  int *e; /* point property */
};
static void fal_G_read(fal_G *g, const char *path)
{
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
  if (fal_regrow && d->d) {
    FAL_CUDA(cudaFree(d->d));
    d->d = NULL;
  }
  fal_dcopy_in((void **)&d->d, h->d, (size_t)h->npoints * sizeof *d->d, file, line);
  if (fal_regrow && d->e) {
    FAL_CUDA(cudaFree(d->e));
    d->e = NULL;
  }
  fal_dcopy_in((void **)&d->e, h->e, (size_t)h->npoints * sizeof *d->e, file, line);
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
  fal_dcopy_out((void **)&h->d, d->d, (size_t)d->npoints * sizeof *h->d);
  fal_dcopy_out((void **)&h->e, d->e, (size_t)d->npoints * sizeof *h->e);
}
static void fal_G_to_host(fal_G *h, fal_G *d)
{
  fal_cuda_use(d->fal_base.device);
  if (d->fal_base.loaded && (d->fal_base.structure_of != (const void *)h->fal_base.csr.offsets ||
                             d->fal_base.csr.version != h->fal_base.csr.version)) {
    fal_gpu_structure_pull(&h->fal_base, &d->fal_base);
    fal_free(h->d);
    h->d = NULL;
    fal_free(h->e);
    h->e = NULL;
    d->fal_base.structure_of = h->fal_base.csr.offsets;
  }
  fal_G_props_to_host(h, d);
}
static void fal_G_read_gpu(fal_G *g, const char *path, const char *file, int line)
{
  fal_G h;
  memset(&h, 0, sizeof h);
  fal_prop_add(&h.fal_base, (void **)&h.d, sizeof *h.d, FAL_PROP_POINT);
  fal_prop_add(&h.fal_base, (void **)&h.e, sizeof *h.e, FAL_PROP_POINT);
  fal_G_read(&h, path);
  fal_G_to_gpu(g, &h, file, line);
  g->fal_base.structure_of = NULL;
  fal_gbase_free(&h.fal_base);
}
#line 7 "gpu_hub_split.fal"
__device__ int changed = 0;

__host__ __device__ void relax(fal_point p, fal_G *g)
{
  { const fal_point fal_p1 = p; FAL_UNROLL for (int64_t fal_e2 = g->fal_base.csr.offsets[fal_p1] + FAL_WL; fal_e2 < g->fal_base.csr.offsets[fal_p1 + 1]; fal_e2 += FAL_WN) { fal_point t = g->fal_base.csr.dst[fal_e2]; {
#line 11 "gpu_hub_split.fal"
                           (FAL_ATOMIC_ANY(min, &(g->d[t]), (g->d[p] + 1)) ? (FAL_SET_FLAG(changed), 1) : 0); } } }
#line 11 "gpu_hub_split.fal"

}

__host__ __device__ void reach(fal_point p, fal_G *g, int k)
{
  { const fal_point fal_p3 = p; FAL_UNROLL for (int64_t fal_e4 = g->fal_base.csr.offsets[fal_p3] + FAL_WL; fal_e4 < g->fal_base.csr.offsets[fal_p3 + 1]; fal_e4 += FAL_WN) { fal_point t = g->fal_base.csr.dst[fal_e4]; {
#line 16 "gpu_hub_split.fal"
                           (FAL_ATOMIC_ANY(min, &(g->d[t]), (k + 1)) ? (FAL_SET_FLAG(changed), 1) : 0); } } }
#line 16 "gpu_hub_split.fal"

}

__host__ __device__ void twice(fal_point p, fal_G *g)
{
  { const fal_point fal_p5 = p; FAL_UNROLL for (int64_t fal_e6 = g->fal_base.csr.offsets[fal_p5] + FAL_WL; fal_e6 < g->fal_base.csr.offsets[fal_p5 + 1]; fal_e6 += FAL_WN) { fal_point t = g->fal_base.csr.dst[fal_e6]; {
#line 21 "gpu_hub_split.fal"
                           (FAL_ATOMIC_ANY(min, &(g->d[t]), (g->d[p] + 1)) ? (FAL_SET_FLAG(changed), 1) : 0); } } }
#line 21 "gpu_hub_split.fal"

  { const fal_point fal_p7 = p; FAL_UNROLL for (int64_t fal_e8 = g->fal_base.csr.offsets[fal_p7] + FAL_WL; fal_e8 < g->fal_base.csr.offsets[fal_p7 + 1]; fal_e8 += FAL_WN) { fal_point t = g->fal_base.csr.dst[fal_e8]; {
#line 22 "gpu_hub_split.fal"
                           (FAL_ATOMIC_ANY(min, &(g->e[t]), (g->d[p] + 2)) ? (FAL_SET_FLAG(changed), 1) : 0); } } }
#line 22 "gpu_hub_split.fal"

}

__host__ __device__ void counted(fal_point p, fal_G *g)
{
  int n = 0;
  { const fal_point fal_p9 = p; decltype(n) fal_wr_n = n; n = 0; FAL_UNROLL for (int64_t fal_e10 = g->fal_base.csr.offsets[fal_p9] + FAL_WL; fal_e10 < g->fal_base.csr.offsets[fal_p9 + 1]; fal_e10 += FAL_WN) { fal_point t = g->fal_base.csr.dst[fal_e10]; {
#line 28 "gpu_hub_split.fal"
                           n += 1; } } n = fal_wr_n + fal_wsum(n); }
#line 28 "gpu_hub_split.fal"

  { if (FAL_WL == 0) { g->e[p] = n; } fal_wsync(); }
}

#line 41 "gpu_hub_split.fal"
__global__ void fal_foreach_L41_11(fal_G fal_kv_g)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; { if (!(g->d[t] != INF)) continue;
#line 41 "gpu_hub_split.fal"
                                      relax(t, g); } }
}
#line 41 "gpu_hub_split.fal"
__global__ void fal_foreach_L41_11_w(fal_G fal_kv_g, fal_hubk fal_hk, int64_t fal_hd, unsigned fal_hb)
{
  fal_G *g = &fal_kv_g;
  if (blockIdx.x < fal_hb) fal_bbegin(); else fal_wbegin();
  if (blockIdx.x < fal_hb) {
  for (int64_t fal_q = fal_hk.q0 + blockIdx.x; fal_q < fal_hk.q1; fal_q += fal_hb) { int64_t fal_h = fal_hk.ih[fal_q]; int64_t fal_i = fal_hk.d[fal_h];
    if (fal_hpiece(fal_hk, fal_q, fal_h)) {
      __syncthreads(); /* the last piece's threads have read fal_wdec */
      if (threadIdx.x == 0 && threadIdx.y == 0) {
        if (fal_hclaim(fal_hk, fal_h)) { bool fal_go = true; if (fal_go) { fal_point t = (fal_point)fal_i; fal_go = ((g->d[t] != INF)); } fal_hpub(fal_hk, fal_h, fal_go); fal_wdec = fal_go; }
        else fal_wdec = fal_hwait(fal_hk, fal_h);
      }
      __syncthreads();
      if (!fal_wdec) continue;
    } else { }
    { fal_point t = (fal_point)fal_i; { if (!fal_wb(!!((g->d[t] != INF)))) continue;
#line 41 "gpu_hub_split.fal"
                                      relax(t, g); } } }
  } else
  for (int64_t fal_c = ((blockIdx.x - fal_hb) * (int64_t)blockDim.y + threadIdx.y) * 32; fal_c < g->npoints; fal_c += (int64_t)(gridDim.x - fal_hb) * blockDim.y * 32) {
    unsigned fal_lm;
    { int64_t fal_i = fal_c + threadIdx.x; bool fal_tk = false;
      if (fal_i < g->npoints) { fal_point t = (fal_point)fal_i; if (!FAL_HUB(g, t, fal_hd)) { fal_tk = ((g->d[t] != INF)); } }
      fal_lm = __ballot_sync(0xffffffffu, fal_tk); }
    while (fal_lm) { int64_t fal_i = fal_c + __ffs(fal_lm) - 1; fal_lm &= fal_lm - 1; { fal_point t = (fal_point)fal_i; { if (!fal_wb(!!((g->d[t] != INF)))) continue;
#line 41 "gpu_hub_split.fal"
                                      relax(t, g); } } }
  }
}
#line 42 "gpu_hub_split.fal"
__global__ void fal_foreach_L42_12(fal_G fal_kv_g)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; {
#line 42 "gpu_hub_split.fal"
                          reach(t, g, 3); } }
}
#line 42 "gpu_hub_split.fal"
__global__ void fal_foreach_L42_12_w(fal_G fal_kv_g, fal_hubk fal_hk, int64_t fal_hd, unsigned fal_hb)
{
  fal_G *g = &fal_kv_g;
  if (blockIdx.x < fal_hb) fal_bbegin(); else fal_wbegin();
  if (blockIdx.x < fal_hb) {
  for (int64_t fal_q = fal_hk.q0 + blockIdx.x; fal_q < fal_hk.q1; fal_q += fal_hb) { int64_t fal_h = fal_hk.ih[fal_q]; int64_t fal_i = fal_hk.d[fal_h];
    if (fal_hpiece(fal_hk, fal_q, fal_h)) {
      __syncthreads(); /* the last piece's threads have read fal_wdec */
      if (threadIdx.x == 0 && threadIdx.y == 0) {
        if (fal_hclaim(fal_hk, fal_h)) { bool fal_go = true; fal_hpub(fal_hk, fal_h, fal_go); fal_wdec = fal_go; }
        else fal_wdec = fal_hwait(fal_hk, fal_h);
      }
      __syncthreads();
      if (!fal_wdec) continue;
    } else { }
    { fal_point t = (fal_point)fal_i; {
#line 42 "gpu_hub_split.fal"
                          reach(t, g, 3); } } }
  } else
  for (int64_t fal_i = (blockIdx.x - fal_hb) * (int64_t)blockDim.y + threadIdx.y; fal_i < g->npoints; fal_i += (int64_t)(gridDim.x - fal_hb) * blockDim.y) { fal_point t = (fal_point)fal_i; if (FAL_HUB(g, t, fal_hd)) continue; {
#line 42 "gpu_hub_split.fal"
                          reach(t, g, 3); } }
}
#line 43 "gpu_hub_split.fal"
__global__ void fal_foreach_L43_13(fal_G fal_kv_g, int lev)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; {
#line 43 "gpu_hub_split.fal"
                          reach(t, g, lev); } }
}
#line 43 "gpu_hub_split.fal"
__global__ void fal_foreach_L43_13_w(fal_G fal_kv_g, int lev, fal_hubk fal_hk, int64_t fal_hd, unsigned fal_hb)
{
  fal_G *g = &fal_kv_g;
  if (blockIdx.x < fal_hb) fal_bbegin(); else fal_wbegin();
  if (blockIdx.x < fal_hb) {
  for (int64_t fal_q = fal_hk.q0 + blockIdx.x; fal_q < fal_hk.q1; fal_q += fal_hb) { int64_t fal_h = fal_hk.ih[fal_q]; int64_t fal_i = fal_hk.d[fal_h];
    if (fal_hpiece(fal_hk, fal_q, fal_h)) {
      __syncthreads(); /* the last piece's threads have read fal_wdec */
      if (threadIdx.x == 0 && threadIdx.y == 0) {
        if (fal_hclaim(fal_hk, fal_h)) { bool fal_go = true; fal_hpub(fal_hk, fal_h, fal_go); fal_wdec = fal_go; }
        else fal_wdec = fal_hwait(fal_hk, fal_h);
      }
      __syncthreads();
      if (!fal_wdec) continue;
    } else { }
    { fal_point t = (fal_point)fal_i; {
#line 43 "gpu_hub_split.fal"
                          reach(t, g, lev); } } }
  } else
  for (int64_t fal_i = (blockIdx.x - fal_hb) * (int64_t)blockDim.y + threadIdx.y; fal_i < g->npoints; fal_i += (int64_t)(gridDim.x - fal_hb) * blockDim.y) { fal_point t = (fal_point)fal_i; if (FAL_HUB(g, t, fal_hd)) continue; {
#line 43 "gpu_hub_split.fal"
                          reach(t, g, lev); } }
}
#line 44 "gpu_hub_split.fal"
__global__ void fal_foreach_L44_14(fal_G fal_kv_g)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; {
#line 44 "gpu_hub_split.fal"
                          { const fal_point fal_p15 = t; FAL_UNROLL for (int64_t fal_e16 = g->fal_base.csr.offsets[fal_p15]; fal_e16 < g->fal_base.csr.offsets[fal_p15 + 1]; fal_e16++) { fal_point u = g->fal_base.csr.dst[fal_e16]; {
#line 44 "gpu_hub_split.fal"
                                                   (FAL_ATOMIC_ANY(min, &(g->d[u]), (g->d[t] + 1)) ? (FAL_SET_FLAG(changed), 1) : 0); } } }
#line 44 "gpu_hub_split.fal"
 } }
}
#line 44 "gpu_hub_split.fal"
__global__ void fal_foreach_L44_14_w(fal_G fal_kv_g, fal_hubk fal_hk, int64_t fal_hd, unsigned fal_hb)
{
  fal_G *g = &fal_kv_g;
  if (blockIdx.x < fal_hb) fal_bbegin(); else fal_wbegin();
  if (blockIdx.x < fal_hb) {
  for (int64_t fal_q = fal_hk.q0 + blockIdx.x; fal_q < fal_hk.q1; fal_q += fal_hb) { int64_t fal_h = fal_hk.ih[fal_q]; int64_t fal_i = fal_hk.d[fal_h];
    if (fal_hpiece(fal_hk, fal_q, fal_h)) {
      __syncthreads(); /* the last piece's threads have read fal_wdec */
      if (threadIdx.x == 0 && threadIdx.y == 0) {
        if (fal_hclaim(fal_hk, fal_h)) { bool fal_go = true; fal_hpub(fal_hk, fal_h, fal_go); fal_wdec = fal_go; }
        else fal_wdec = fal_hwait(fal_hk, fal_h);
      }
      __syncthreads();
      if (!fal_wdec) continue;
    } else { }
    { fal_point t = (fal_point)fal_i; {
#line 44 "gpu_hub_split.fal"
                          { const fal_point fal_p17 = t; FAL_UNROLL for (int64_t fal_e18 = g->fal_base.csr.offsets[fal_p17] + FAL_WL; fal_e18 < g->fal_base.csr.offsets[fal_p17 + 1]; fal_e18 += FAL_WN) { fal_point u = g->fal_base.csr.dst[fal_e18]; {
#line 44 "gpu_hub_split.fal"
                                                   (FAL_ATOMIC_ANY(min, &(g->d[u]), (g->d[t] + 1)) ? (FAL_SET_FLAG(changed), 1) : 0); } } }
#line 44 "gpu_hub_split.fal"
 } } }
  } else
  for (int64_t fal_i = (blockIdx.x - fal_hb) * (int64_t)blockDim.y + threadIdx.y; fal_i < g->npoints; fal_i += (int64_t)(gridDim.x - fal_hb) * blockDim.y) { fal_point t = (fal_point)fal_i; if (FAL_HUB(g, t, fal_hd)) continue; {
#line 44 "gpu_hub_split.fal"
                          { const fal_point fal_p17 = t; FAL_UNROLL for (int64_t fal_e18 = g->fal_base.csr.offsets[fal_p17] + FAL_WL; fal_e18 < g->fal_base.csr.offsets[fal_p17 + 1]; fal_e18 += FAL_WN) { fal_point u = g->fal_base.csr.dst[fal_e18]; {
#line 44 "gpu_hub_split.fal"
                                                   (FAL_ATOMIC_ANY(min, &(g->d[u]), (g->d[t] + 1)) ? (FAL_SET_FLAG(changed), 1) : 0); } } }
#line 44 "gpu_hub_split.fal"
 } }
}
#line 45 "gpu_hub_split.fal"
__global__ void fal_foreach_L45_19(fal_G fal_kv_g)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; {
#line 45 "gpu_hub_split.fal"
                          reach(t, g, g->d[t]); } }
}
#line 45 "gpu_hub_split.fal"
__global__ void fal_foreach_L45_19_w(fal_G fal_kv_g, fal_hubk fal_hk, int64_t fal_hd, unsigned fal_hb)
{
  fal_G *g = &fal_kv_g;
  if (blockIdx.x < fal_hb) fal_bbegin(); else fal_wbegin();
  if (blockIdx.x < fal_hb) {
  for (int64_t fal_h = fal_hk.h0 + blockIdx.x; fal_h < fal_hk.h0 + fal_hk.nh; fal_h += fal_hb) { int64_t fal_i = fal_hk.d[fal_h]; fal_point t = (fal_point)fal_i; {
#line 45 "gpu_hub_split.fal"
                          reach(t, g, g->d[t]); } }
  } else
  for (int64_t fal_i = (blockIdx.x - fal_hb) * (int64_t)blockDim.y + threadIdx.y; fal_i < g->npoints; fal_i += (int64_t)(gridDim.x - fal_hb) * blockDim.y) { fal_point t = (fal_point)fal_i; if (FAL_HUB(g, t, fal_hd)) continue; {
#line 45 "gpu_hub_split.fal"
                          reach(t, g, g->d[t]); } }
}
#line 46 "gpu_hub_split.fal"
__global__ void fal_foreach_L46_20(fal_G fal_kv_g)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; {
#line 46 "gpu_hub_split.fal"
                          twice(t, g); } }
}
#line 46 "gpu_hub_split.fal"
__global__ void fal_foreach_L46_20_w(fal_G fal_kv_g, fal_hubk fal_hk, int64_t fal_hd, unsigned fal_hb)
{
  fal_G *g = &fal_kv_g;
  if (blockIdx.x < fal_hb) fal_bbegin(); else fal_wbegin();
  if (blockIdx.x < fal_hb) {
  for (int64_t fal_h = fal_hk.h0 + blockIdx.x; fal_h < fal_hk.h0 + fal_hk.nh; fal_h += fal_hb) { int64_t fal_i = fal_hk.d[fal_h]; fal_point t = (fal_point)fal_i; {
#line 46 "gpu_hub_split.fal"
                          twice(t, g); } }
  } else
  for (int64_t fal_i = (blockIdx.x - fal_hb) * (int64_t)blockDim.y + threadIdx.y; fal_i < g->npoints; fal_i += (int64_t)(gridDim.x - fal_hb) * blockDim.y) { fal_point t = (fal_point)fal_i; if (FAL_HUB(g, t, fal_hd)) continue; {
#line 46 "gpu_hub_split.fal"
                          twice(t, g); } }
}
#line 47 "gpu_hub_split.fal"
__global__ void fal_foreach_L47_21(fal_G fal_kv_g)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; {
#line 47 "gpu_hub_split.fal"
                          counted(t, g); } }
}
#line 47 "gpu_hub_split.fal"
__global__ void fal_foreach_L47_21_w(fal_G fal_kv_g, fal_hubk fal_hk, int64_t fal_hd, unsigned fal_hb)
{
  fal_G *g = &fal_kv_g;
  if (blockIdx.x < fal_hb) fal_bbegin(); else fal_wbegin();
  if (blockIdx.x < fal_hb) {
  for (int64_t fal_h = fal_hk.h0 + blockIdx.x; fal_h < fal_hk.h0 + fal_hk.nh; fal_h += fal_hb) { int64_t fal_i = fal_hk.d[fal_h]; fal_point t = (fal_point)fal_i; {
#line 47 "gpu_hub_split.fal"
                          counted(t, g); } }
  } else
  for (int64_t fal_i = (blockIdx.x - fal_hb) * (int64_t)blockDim.y + threadIdx.y; fal_i < g->npoints; fal_i += (int64_t)(gridDim.x - fal_hb) * blockDim.y) { fal_point t = (fal_point)fal_i; if (FAL_HUB(g, t, fal_hd)) continue; {
#line 47 "gpu_hub_split.fal"
                          counted(t, g); } }
}
#line 48 "gpu_hub_split.fal"
__global__ void fal_foreach_L48_22(fal_G fal_kv_g)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; {
#line 48 "gpu_hub_split.fal"
                          { if (g->e[t] > 0) reach(t, g, 1); } } }
}
#line 48 "gpu_hub_split.fal"
__global__ void fal_foreach_L48_22_w(fal_G fal_kv_g, fal_hubk fal_hk, int64_t fal_hd, unsigned fal_hb)
{
  fal_G *g = &fal_kv_g;
  if (blockIdx.x < fal_hb) fal_bbegin(); else fal_wbegin();
  if (blockIdx.x < fal_hb) {
  for (int64_t fal_h = fal_hk.h0 + blockIdx.x; fal_h < fal_hk.h0 + fal_hk.nh; fal_h += fal_hb) { int64_t fal_i = fal_hk.d[fal_h]; fal_point t = (fal_point)fal_i; {
#line 48 "gpu_hub_split.fal"
                          { if (fal_wb(!!(g->e[t] > 0))) reach(t, g, 1); } } }
  } else
  for (int64_t fal_i = (blockIdx.x - fal_hb) * (int64_t)blockDim.y + threadIdx.y; fal_i < g->npoints; fal_i += (int64_t)(gridDim.x - fal_hb) * blockDim.y) { fal_point t = (fal_point)fal_i; if (FAL_HUB(g, t, fal_hd)) continue; {
#line 48 "gpu_hub_split.fal"
                          { if (fal_wb(!!(g->e[t] > 0))) reach(t, g, 1); } } }
}
#line 32 "gpu_hub_split.fal"
int main(int argc, char *argv[])
{
  static fal_G fal_gs_hg; fal_G *hg = &fal_gs_hg;
  fal_prop_add(&hg->fal_base, (void **)&hg->d, sizeof(int), FAL_PROP_POINT);
  fal_prop_add(&hg->fal_base, (void **)&hg->e, sizeof(int), FAL_PROP_POINT);
  fal_G_read(hg, argv[1]);
  static fal_G fal_gs_g = fal_G_gpu(-1); fal_G *g = &fal_gs_g;
  fal_G_to_gpu(g, hg, __FILE__, __LINE__);
  int lev = 1;
  { fal_cuda_use(g->fal_base.device); if (fal_warp_pick(&g->fal_base)) { const fal_hubs *fal_hb = fal_hubs_of(&g->fal_base); int64_t fal_h0 = 0, fal_nh = !fal_hb ? 0 : fal_hb->n; fal_hubk fal_hk = fal_hubk_of(fal_hb, fal_h0, fal_nh); unsigned fal_hbk = fal_nh ? fal_hub_grid(fal_hk.q1 - fal_hk.q0) : 0; fal_foreach_L41_11_w<<<fal_hbk + fal_cuda_grid((int64_t)(g->npoints) * 32), dim3(32, FAL_BLOCK / 32)>>>(*g, fal_hk, fal_nh ? fal_hb->deg : INT64_MAX, fal_hbk); } else fal_foreach_L41_11<<<fal_cuda_grid(g->npoints), FAL_BLOCK>>>(*g); FAL_CHECK_LAUNCH("fal_foreach_L41_11"); }
  { fal_cuda_use(g->fal_base.device); if (fal_warp_pick(&g->fal_base)) { const fal_hubs *fal_hb = fal_hubs_of(&g->fal_base); int64_t fal_h0 = 0, fal_nh = !fal_hb ? 0 : fal_hb->n; fal_hubk fal_hk = fal_hubk_of(fal_hb, fal_h0, fal_nh); unsigned fal_hbk = fal_nh ? fal_hub_grid(fal_hk.q1 - fal_hk.q0) : 0; fal_foreach_L42_12_w<<<fal_hbk + fal_cuda_grid((int64_t)(g->npoints) * 32), dim3(32, FAL_BLOCK / 32)>>>(*g, fal_hk, fal_nh ? fal_hb->deg : INT64_MAX, fal_hbk); } else fal_foreach_L42_12<<<fal_cuda_grid(g->npoints), FAL_BLOCK>>>(*g); FAL_CHECK_LAUNCH("fal_foreach_L42_12"); }
  { fal_cuda_use(g->fal_base.device); if (fal_warp_pick(&g->fal_base)) { const fal_hubs *fal_hb = fal_hubs_of(&g->fal_base); int64_t fal_h0 = 0, fal_nh = !fal_hb ? 0 : fal_hb->n; fal_hubk fal_hk = fal_hubk_of(fal_hb, fal_h0, fal_nh); unsigned fal_hbk = fal_nh ? fal_hub_grid(fal_hk.q1 - fal_hk.q0) : 0; fal_foreach_L43_13_w<<<fal_hbk + fal_cuda_grid((int64_t)(g->npoints) * 32), dim3(32, FAL_BLOCK / 32)>>>(*g, lev, fal_hk, fal_nh ? fal_hb->deg : INT64_MAX, fal_hbk); } else fal_foreach_L43_13<<<fal_cuda_grid(g->npoints), FAL_BLOCK>>>(*g, lev); FAL_CHECK_LAUNCH("fal_foreach_L43_13"); }
  { fal_cuda_use(g->fal_base.device); if (fal_warp_pick(&g->fal_base)) { const fal_hubs *fal_hb = fal_hubs_of(&g->fal_base); int64_t fal_h0 = 0, fal_nh = !fal_hb ? 0 : fal_hb->n; fal_hubk fal_hk = fal_hubk_of(fal_hb, fal_h0, fal_nh); unsigned fal_hbk = fal_nh ? fal_hub_grid(fal_hk.q1 - fal_hk.q0) : 0; fal_foreach_L44_14_w<<<fal_hbk + fal_cuda_grid((int64_t)(g->npoints) * 32), dim3(32, FAL_BLOCK / 32)>>>(*g, fal_hk, fal_nh ? fal_hb->deg : INT64_MAX, fal_hbk); } else fal_foreach_L44_14<<<fal_cuda_grid(g->npoints), FAL_BLOCK>>>(*g); FAL_CHECK_LAUNCH("fal_foreach_L44_14"); }
  { fal_cuda_use(g->fal_base.device); if (fal_warp_pick(&g->fal_base)) { const fal_hubs *fal_hb = fal_hubs_of(&g->fal_base); int64_t fal_h0 = 0, fal_nh = !fal_hb ? 0 : fal_hb->n; fal_hubk fal_hk = fal_hubk_of(fal_hb, fal_h0, fal_nh); unsigned fal_hbk = fal_nh ? fal_hub_grid(fal_nh) : 0; fal_foreach_L45_19_w<<<fal_hbk + fal_cuda_grid((int64_t)(g->npoints) * 32), dim3(32, FAL_BLOCK / 32)>>>(*g, fal_hk, fal_nh ? fal_hb->deg : INT64_MAX, fal_hbk); } else fal_foreach_L45_19<<<fal_cuda_grid(g->npoints), FAL_BLOCK>>>(*g); FAL_CHECK_LAUNCH("fal_foreach_L45_19"); }
  { fal_cuda_use(g->fal_base.device); if (fal_warp_pick(&g->fal_base)) { const fal_hubs *fal_hb = fal_hubs_of(&g->fal_base); int64_t fal_h0 = 0, fal_nh = !fal_hb ? 0 : fal_hb->n; fal_hubk fal_hk = fal_hubk_of(fal_hb, fal_h0, fal_nh); unsigned fal_hbk = fal_nh ? fal_hub_grid(fal_nh) : 0; fal_foreach_L46_20_w<<<fal_hbk + fal_cuda_grid((int64_t)(g->npoints) * 32), dim3(32, FAL_BLOCK / 32)>>>(*g, fal_hk, fal_nh ? fal_hb->deg : INT64_MAX, fal_hbk); } else fal_foreach_L46_20<<<fal_cuda_grid(g->npoints), FAL_BLOCK>>>(*g); FAL_CHECK_LAUNCH("fal_foreach_L46_20"); }
  { fal_cuda_use(g->fal_base.device); if (fal_warp_pick(&g->fal_base)) { const fal_hubs *fal_hb = fal_hubs_of(&g->fal_base); int64_t fal_h0 = 0, fal_nh = !fal_hb ? 0 : fal_hb->n; fal_hubk fal_hk = fal_hubk_of(fal_hb, fal_h0, fal_nh); unsigned fal_hbk = fal_nh ? fal_hub_grid(fal_nh) : 0; fal_foreach_L47_21_w<<<fal_hbk + fal_cuda_grid((int64_t)(g->npoints) * 32), dim3(32, FAL_BLOCK / 32)>>>(*g, fal_hk, fal_nh ? fal_hb->deg : INT64_MAX, fal_hbk); } else fal_foreach_L47_21<<<fal_cuda_grid(g->npoints), FAL_BLOCK>>>(*g); FAL_CHECK_LAUNCH("fal_foreach_L47_21"); }
  { fal_cuda_use(g->fal_base.device); if (fal_warp_pick(&g->fal_base)) { const fal_hubs *fal_hb = fal_hubs_of(&g->fal_base); int64_t fal_h0 = 0, fal_nh = !fal_hb ? 0 : fal_hb->n; fal_hubk fal_hk = fal_hubk_of(fal_hb, fal_h0, fal_nh); unsigned fal_hbk = fal_nh ? fal_hub_grid(fal_nh) : 0; fal_foreach_L48_22_w<<<fal_hbk + fal_cuda_grid((int64_t)(g->npoints) * 32), dim3(32, FAL_BLOCK / 32)>>>(*g, fal_hk, fal_nh ? fal_hb->deg : INT64_MAX, fal_hbk); } else fal_foreach_L48_22<<<fal_cuda_grid(g->npoints), FAL_BLOCK>>>(*g); FAL_CHECK_LAUNCH("fal_foreach_L48_22"); }
  return 0;
}
