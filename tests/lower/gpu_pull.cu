#define FAL_HUB_KERNELS 1
#include "falcon/cuda.cuh"
typedef struct fal_G fal_G;
#line 1 "gpu_pull.fal"
/* A level-synchronous loop on one GPU whose phase is exactly a push of
 * lev + 1 into out-neighbours (plan.c pull_rule), its flag a GPU scalar:
 * the host's rounds may launch the pull kernel over every point instead
 * of the phase (fal_pull_kernel, the flag's device address from
 * fal_sym_ptr) and then count and choose the next direction
 * (fal_pdir_round). */
#define INF 2147483647

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
  if (fal_regrow && d->level) {
    FAL_CUDA(cudaFree(d->level));
    d->level = NULL;
  }
  fal_dcopy_in((void **)&d->level, h->level, (size_t)h->npoints * sizeof *d->level, file, line);
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
  fal_dcopy_out((void **)&h->level, d->level, (size_t)d->npoints * sizeof *h->level);
}
static void fal_G_to_host(fal_G *h, fal_G *d)
{
  fal_cuda_use(d->fal_base.device);
  if (d->fal_base.loaded && (d->fal_base.structure_of != (const void *)h->fal_base.csr.offsets ||
                             d->fal_base.csr.version != h->fal_base.csr.version)) {
    fal_gpu_structure_pull(&h->fal_base, &d->fal_base);
    fal_free(h->level);
    h->level = NULL;
    d->fal_base.structure_of = h->fal_base.csr.offsets;
  }
  fal_G_props_to_host(h, d);
}
static void fal_G_read_gpu(fal_G *g, const char *path, const char *file, int line)
{
  fal_G h;
  memset(&h, 0, sizeof h);
  fal_prop_add(&h.fal_base, (void **)&h.level, sizeof *h.level, FAL_PROP_POINT);
  fal_G_read(&h, path);
  fal_G_to_gpu(g, &h, file, line);
  g->fal_base.structure_of = NULL;
  fal_gbase_free(&h.fal_base);
}
#line 9 "gpu_pull.fal"
__device__ int changed = 0;

__host__ __device__ void expand(fal_point p, fal_G *g, int lev)
{
  { const fal_point fal_p1 = p; FAL_UNROLL for (int64_t fal_e2 = g->fal_base.csr.offsets[fal_p1] + FAL_WL; fal_e2 < g->fal_base.csr.offsets[fal_p1 + 1]; fal_e2 += FAL_WN) { fal_point t = g->fal_base.csr.dst[fal_e2]; { if (!(g->level[t] == INF)) continue;
#line 14 "gpu_pull.fal"
    (FAL_ATOMIC_ANY(min, &(g->level[t]), (lev + 1)) ? (FAL_SET_FLAG(changed), 1) : 0); } } }
#line 14 "gpu_pull.fal"

}

#line 24 "gpu_pull.fal"
__global__ void fal_foreach_L24_3(fal_G fal_kv_g)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; {
#line 24 "gpu_pull.fal"
                          g->level[t] = INF; } }
}
__device__ long long fal_lr_fal_loop_L28_4;
__device__ int fal_lo_fal_loop_L28_4_lev;
#line 28 "gpu_pull.fal"
__global__ void fal_loop_L28_4(fal_G fal_kv_g, int lev)
{
  fal_G *g = &fal_kv_g;
  cooperative_groups::grid_group fal_grid = cooperative_groups::this_grid();
  const bool fal_leader = blockIdx.x == 0 && threadIdx.x == 0;
  long long fal_rounds = 0;
  while (changed) {
    fal_grid.sync();
#line 29 "gpu_pull.fal"
    if (fal_leader) changed = 0;
    fal_grid.sync();
    for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { do { fal_point t = (fal_point)fal_i; { if (!(g->level[t] == lev)) continue;
#line 30 "gpu_pull.fal"
                                            expand(t, g, lev); } } while (0); }
#line 31 "gpu_pull.fal"
    lev++;
    fal_grid.sync();
    fal_rounds++;
  }
  if (fal_leader) {
    fal_lr_fal_loop_L28_4 = fal_rounds;
    fal_lo_fal_loop_L28_4_lev = lev;
  }
}
#line 30 "gpu_pull.fal"
__global__ void fal_foreach_L30_6(fal_G fal_kv_g, int lev)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; { if (!(g->level[t] == lev)) continue;
#line 30 "gpu_pull.fal"
                                            expand(t, g, lev); } }
}
#line 30 "gpu_pull.fal"
__global__ void fal_foreach_L30_6_w(fal_G fal_kv_g, int lev, fal_hubk fal_hk, int64_t fal_hd, unsigned fal_hb)
{
  fal_G *g = &fal_kv_g;
  if (blockIdx.x < fal_hb) fal_bbegin(); else fal_wbegin();
  if (blockIdx.x < fal_hb) {
  for (int64_t fal_q = fal_hk.q0 + blockIdx.x; fal_q < fal_hk.q1; fal_q += fal_hb) { int64_t fal_h = fal_hk.ih[fal_q]; int64_t fal_i = fal_hk.d[fal_h];
    if (fal_hpiece(fal_hk, fal_q, fal_h)) {
      __syncthreads(); /* the last piece's threads have read fal_wdec */
      if (threadIdx.x == 0 && threadIdx.y == 0) {
        if (fal_hclaim(fal_hk, fal_h)) { bool fal_go = true; if (fal_go) { fal_point t = (fal_point)fal_i; fal_go = ((g->level[t] == lev)); } fal_hpub(fal_hk, fal_h, fal_go); fal_wdec = fal_go; }
        else fal_wdec = fal_hwait(fal_hk, fal_h);
      }
      __syncthreads();
      if (!fal_wdec) continue;
    } else { }
    { fal_point t = (fal_point)fal_i; { if (!fal_wb(!!((g->level[t] == lev)))) continue;
#line 30 "gpu_pull.fal"
                                            expand(t, g, lev); } } }
  } else
  for (int64_t fal_c = ((blockIdx.x - fal_hb) * (int64_t)blockDim.y + threadIdx.y) * 32; fal_c < g->npoints; fal_c += (int64_t)(gridDim.x - fal_hb) * blockDim.y * 32) {
    unsigned fal_lm;
    { int64_t fal_i = fal_c + threadIdx.x; bool fal_tk = false;
      if (fal_i < g->npoints) { fal_point t = (fal_point)fal_i; if (!FAL_HUB(g, t, fal_hd)) { fal_tk = ((g->level[t] == lev)); } }
      fal_lm = __ballot_sync(0xffffffffu, fal_tk); }
    while (fal_lm) { int64_t fal_i = fal_c + __ffs(fal_lm) - 1; fal_lm &= fal_lm - 1; { fal_point t = (fal_point)fal_i; { if (!fal_wb(!!((g->level[t] == lev)))) continue;
#line 30 "gpu_pull.fal"
                                            expand(t, g, lev); } } }
  }
}
#line 17 "gpu_pull.fal"
int main(int argc, char *argv[])
{
  static fal_G fal_gs_hg; fal_G *hg = &fal_gs_hg;
  fal_prop_add(&hg->fal_base, (void **)&hg->level, sizeof(int), FAL_PROP_POINT);
  fal_G_read(hg, argv[1]);
  static fal_G fal_gs_g = fal_G_gpu(-1); fal_G *g = &fal_gs_g;
  fal_G_to_gpu(g, hg, __FILE__, __LINE__);
  { fal_cuda_use(g->fal_base.device); fal_foreach_L24_3<<<fal_cuda_grid(g->npoints), FAL_BLOCK>>>(*g); FAL_CHECK_LAUNCH("fal_foreach_L24_3"); }
  fal_dset(&g->level[(0)], 0);
  int lev = 0;
  fal_sym_set(changed, 1);
  { fal_loop_sw fal_sw = {0}; double fal_pt0 = fal_prof_t0(); long long fal_ra = 0; static thread_local fal_pdir fal_pd5; fal_pdir_start1(&fal_pd5, g->directed, g->npoints, g->nedges); fal_pd5.count = fal_pdir_count<int>; while (fal_sym_get(changed)) { if (fal_loop_switch(&fal_sw, (const void *)fal_loop_L28_4, "gpu_pull.fal", 28)) { { fal_cuda_use(g->fal_base.device); double fal_pt0 = fal_prof_t0(); void *fal_args[] = {(void *)g, (void *)&lev}; long long fal_lr = 0; fal_coop_launch((const void *)fal_loop_L28_4, fal_args, "fal_loop_L28_4", __FILE__, __LINE__); FAL_CUDA(cudaMemcpyFromSymbol(&fal_lr, fal_lr_fal_loop_L28_4, sizeof fal_lr)); FAL_CUDA(cudaMemcpyFromSymbol(&lev, fal_lo_fal_loop_L28_4_lev, sizeof lev)); fal_gprof_end("gpu_pull.fal", 28, "device", fal_pt0, fal_lr); } break; } fal_ra++; {
    fal_sym_set(changed, 0);
    { fal_pd5.P[0] = (const void *)g->level; fal_pd5.off[0] = g->fal_base.csr.offsets; fal_pd5.lo[0] = 0; fal_pd5.hi[0] = g->npoints; if (fal_pd5.ds.dir) { fal_cuda_use(g->fal_base.device); fal_pull_kernel<int><<<fal_cuda_grid(g->npoints - 0), FAL_BLOCK>>>(g->level, g->fal_base.csr.offsets, g->fal_base.csr.dst, (int64_t)(0), (int64_t)(g->npoints), (int)(lev), 1, (int)(INF), fal_sym_ptr(changed), fal_pdir_cnt(&fal_pd5, 0)); FAL_CHECK_LAUNCH("fal_pull_kernel"); } else { { fal_cuda_use(g->fal_base.device); if (fal_warp_pick(&g->fal_base)) { const fal_hubs *fal_hb = fal_hubs_of(&g->fal_base); int64_t fal_h0 = 0, fal_nh = !fal_hb ? 0 : fal_hb->n; fal_hubk fal_hk = fal_hubk_of(fal_hb, fal_h0, fal_nh); unsigned fal_hbk = fal_nh ? fal_hub_grid(fal_hk.q1 - fal_hk.q0) : 0; fal_foreach_L30_6_w<<<fal_hbk + fal_cuda_grid((int64_t)(g->npoints) * 32), dim3(32, FAL_BLOCK / 32)>>>(*g, lev, fal_hk, fal_nh ? fal_hb->deg : INT64_MAX, fal_hbk); } else fal_foreach_L30_6<<<fal_cuda_grid(g->npoints), FAL_BLOCK>>>(*g, lev); FAL_CHECK_LAUNCH("fal_foreach_L30_6"); } } fal_pdir_round(&fal_pd5, (long long)(lev)); }
    lev++;
  } } fal_gprof_end("gpu_pull.fal", 28, "auto", fal_pt0, fal_ra); fal_prof_end("gpu_pull.fal", 28, "pull rounds", fal_prof_t0(), fal_pd5.ds.pulls); }
  fal_prop_copy((void **)&hg->level, g->level, (size_t)g->npoints * sizeof *g->level, 0, 1);
  return lev > 0 ? 0 : 1;
}
