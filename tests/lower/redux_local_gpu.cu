#define FAL_HUB_KERNELS 1
#include "falcon/cuda.cuh"
typedef struct fal_G fal_G;
#line 1 "redux_local_gpu.fal"
/*
 * §4.4: host reductions inside a parallel foreach.  Where every mention of
 * a local variable in the loop is `v op= e;` / `v = v op e;` with one
 * operator, the kernel's threads reduce into their own copies, and each
 * warp adds its total once (fal_rl_flush_*, after the kernel's loop);
 * anything else keeps one atomic per update.
 */
#include <stdio.h>

long g_total = 0;

/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  int *w; /* point property */
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
  if (fal_regrow && d->w) {
    FAL_CUDA(cudaFree(d->w));
    d->w = NULL;
  }
  fal_dcopy_in((void **)&d->w, h->w, (size_t)h->npoints * sizeof *d->w, file, line);
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
  fal_dcopy_out((void **)&h->w, d->w, (size_t)d->npoints * sizeof *h->w);
}
static void fal_G_to_host(fal_G *h, fal_G *d)
{
  fal_cuda_use(d->fal_base.device);
  if (d->fal_base.loaded && (d->fal_base.structure_of != (const void *)h->fal_base.csr.offsets ||
                             d->fal_base.csr.version != h->fal_base.csr.version)) {
    fal_gpu_structure_pull(&h->fal_base, &d->fal_base);
    fal_free(h->w);
    h->w = NULL;
    d->fal_base.structure_of = h->fal_base.csr.offsets;
  }
  fal_G_props_to_host(h, d);
}
static void fal_G_read_gpu(fal_G *g, const char *path, const char *file, int line)
{
  fal_G h;
  memset(&h, 0, sizeof h);
  fal_prop_add(&h.fal_base, (void **)&h.w, sizeof *h.w, FAL_PROP_POINT);
  fal_G_read(&h, path);
  fal_G_to_gpu(g, &h, file, line);
  g->fal_base.structure_of = NULL;
  fal_gbase_free(&h.fal_base);
}
#line 12 "redux_local_gpu.fal"
#line 22 "redux_local_gpu.fal"
__global__ void fal_foreach_L22_1(fal_G fal_kv_g, long *fal_rd_a, long a, long *fal_rd_a2, long a2, long *fal_rd_b, long b, long *fal_rd_c2, long *fal_rd_g_total, unsigned *fal_rd_m, long *fal_rd_d)
{
  fal_G *g = &fal_kv_g;
  unsigned fal_rl_m = (unsigned)0;
  long fal_rl_d = (long)0;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; {
#line 22 "redux_local_gpu.fal"
                          {
    (void)FAL_ATOMIC_ANY(add, fal_rd_a, (a));          /* the operand names a: an atomic */
    (void)FAL_ATOMIC_ANY(add, fal_rd_a2, (t * a2));       /* here too (the compound form): an atomic */
    (void)FAL_ATOMIC_ANY(add, fal_rd_b, (1));
    if (b > 3)          /* b is read: atomics */
      g->w[t] = 1;
    (void)FAL_ATOMIC_ANY(add, fal_rd_c2, (1));
    (void)FAL_ATOMIC_ANY(mul, fal_rd_c2, (2));            /* two operators: atomics */
    (void)FAL_ATOMIC_ANY(add, fal_rd_g_total, (1));       /* file scope: an atomic */
    fal_rl_m |= (unsigned)(g->w[t]);           /* its own copy */
    fal_rl_d -= (long)(g->w[t]);           /* + and - are one operator: its own copy */
    fal_rl_d += (long)(2);
  } } }
  fal_rl_flush_or(fal_rd_m, fal_rl_m);
  fal_rl_flush_add(fal_rd_d, fal_rl_d);
}
#line 35 "redux_local_gpu.fal"
__global__ void fal_foreach_L35_2(fal_G fal_kv_g, double *fal_rd_s)
{
  fal_G *g = &fal_kv_g;
  double fal_rl_s = (double)0;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; {
#line 36 "redux_local_gpu.fal"
    { const fal_point fal_p3 = t; FAL_UNROLL for (int64_t fal_e4 = g->fal_base.csr.offsets[fal_p3]; fal_e4 < g->fal_base.csr.offsets[fal_p3 + 1]; fal_e4++) { fal_point u = g->fal_base.csr.dst[fal_e4]; {
#line 37 "redux_local_gpu.fal"
      fal_rl_s += (double)(g->fal_base.csr.weight[fal_e4]); } } }
#line 37 "redux_local_gpu.fal"
                                 } }
  fal_rl_flush_add(fal_rd_s, fal_rl_s);
}
#line 35 "redux_local_gpu.fal"
__global__ void fal_foreach_L35_2_w(fal_G fal_kv_g, double *fal_rd_s, fal_hubk fal_hk, int64_t fal_hd, unsigned fal_hb)
{
  fal_G *g = &fal_kv_g;
  if (blockIdx.x < fal_hb) fal_bbegin(); else fal_wbegin();
  double fal_rl_s = (double)0;
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
#line 36 "redux_local_gpu.fal"
    { const fal_point fal_p5 = t; FAL_UNROLL for (int64_t fal_e6 = g->fal_base.csr.offsets[fal_p5] + FAL_WL; fal_e6 < g->fal_base.csr.offsets[fal_p5 + 1]; fal_e6 += FAL_WN) { fal_point u = g->fal_base.csr.dst[fal_e6]; {
#line 37 "redux_local_gpu.fal"
      fal_rl_s += (double)(g->fal_base.csr.weight[fal_e6]); } } }
#line 37 "redux_local_gpu.fal"
                                 } } }
  } else
  for (int64_t fal_i = (blockIdx.x - fal_hb) * (int64_t)blockDim.y + threadIdx.y; fal_i < g->npoints; fal_i += (int64_t)(gridDim.x - fal_hb) * blockDim.y) { fal_point t = (fal_point)fal_i; if (FAL_HUB(g, t, fal_hd)) continue; {
#line 36 "redux_local_gpu.fal"
    { const fal_point fal_p5 = t; FAL_UNROLL for (int64_t fal_e6 = g->fal_base.csr.offsets[fal_p5] + FAL_WL; fal_e6 < g->fal_base.csr.offsets[fal_p5 + 1]; fal_e6 += FAL_WN) { fal_point u = g->fal_base.csr.dst[fal_e6]; {
#line 37 "redux_local_gpu.fal"
      fal_rl_s += (double)(g->fal_base.csr.weight[fal_e6]); } } }
#line 37 "redux_local_gpu.fal"
                                 } }
  fal_rl_flush_add(fal_rd_s, fal_rl_s);
}
#line 12 "redux_local_gpu.fal"
int main(int argc, char **argv)
{
  static fal_G fal_gs_hg; fal_G *hg = &fal_gs_hg;
  static fal_G fal_gs_g = fal_G_gpu(-1); fal_G *g = &fal_gs_g;
  fal_prop_add(&hg->fal_base, (void **)&hg->w, sizeof(int), FAL_PROP_POINT);
  fal_G_read(hg, argv[1]);
  fal_G_to_gpu(g, hg, __FILE__, __LINE__);
  long a = 0, a2 = 1, b = 0, c2 = 0, d = 0;
  unsigned m = 0;
  double s = 0;
  { fal_cuda_use(g->fal_base.device); fal_foreach_L22_1<<<fal_cuda_grid(g->npoints), FAL_BLOCK>>>(*g, fal_hred_buf(0, a), a, fal_hred_buf(1, a2), a2, fal_hred_buf(2, b), b, fal_hred_buf(3, c2), fal_hred_buf(4, g_total), fal_hred_buf(5, m), fal_hred_buf(6, d)); FAL_CHECK_LAUNCH("fal_foreach_L22_1"); a = fal_hred_get(0, a); a2 = fal_hred_get(1, a2); b = fal_hred_get(2, b); c2 = fal_hred_get(3, c2); g_total = fal_hred_get(4, g_total); m = fal_hred_get(5, m); d = fal_hred_get(6, d); }
#line 34 "redux_local_gpu.fal"

  { fal_cuda_use(g->fal_base.device); if (fal_warp_pick(&g->fal_base)) { const fal_hubs *fal_hb = fal_hubs_of(&g->fal_base); int64_t fal_h0 = 0, fal_nh = !fal_hb ? 0 : fal_hb->n; fal_hubk fal_hk = fal_hubk_of(fal_hb, fal_h0, fal_nh); unsigned fal_hbk = fal_nh ? fal_hub_grid(fal_hk.q1 - fal_hk.q0) : 0; fal_foreach_L35_2_w<<<fal_hbk + fal_cuda_grid((int64_t)(g->npoints) * 32), dim3(32, FAL_BLOCK / 32)>>>(*g, fal_hred_buf(0, s), fal_hk, fal_nh ? fal_hb->deg : INT64_MAX, fal_hbk); } else fal_foreach_L35_2<<<fal_cuda_grid(g->npoints), FAL_BLOCK>>>(*g, fal_hred_buf(0, s)); FAL_CHECK_LAUNCH("fal_foreach_L35_2"); s = fal_hred_get(0, s); }
#line 37 "redux_local_gpu.fal"
                                   /* in a neighbour loop: its own copy */
  printf("%ld %ld %ld %ld %ld %u %f\n", a, a2, b, c2, d, m, s);
}
