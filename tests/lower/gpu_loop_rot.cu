#include "falcon/cuda.cuh"
typedef struct fal_G fal_G;
#line 1 "gpu_loop_rot.fal"
/* A convergence loop of the sssp.fal shape on the GPU (gpu_loop_rot):
 * `while (more) { more = 0; ... }` with `more` set only in a phase's own
 * body, so the kernel keeps it in three slots and has three grid barriers
 * a round instead of four; the flag shuffle stores only changed values
 * (docs/optimiser.md "The loop flag in three slots"). */
/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  int *dist; /* point property */
  int *updated; /* point property */
  int *active; /* point property */
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
  if (fal_regrow && d->dist) {
    FAL_CUDA(cudaFree(d->dist));
    d->dist = NULL;
  }
  fal_dcopy_in((void **)&d->dist, h->dist, (size_t)h->npoints * sizeof *d->dist, file, line);
  if (fal_regrow && d->updated) {
    FAL_CUDA(cudaFree(d->updated));
    d->updated = NULL;
  }
  fal_dcopy_in((void **)&d->updated, h->updated, (size_t)h->npoints * sizeof *d->updated, file, line);
  if (fal_regrow && d->active) {
    FAL_CUDA(cudaFree(d->active));
    d->active = NULL;
  }
  fal_dcopy_in((void **)&d->active, h->active, (size_t)h->npoints * sizeof *d->active, file, line);
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
  fal_dcopy_out((void **)&h->dist, d->dist, (size_t)d->npoints * sizeof *h->dist);
  fal_dcopy_out((void **)&h->updated, d->updated, (size_t)d->npoints * sizeof *h->updated);
  fal_dcopy_out((void **)&h->active, d->active, (size_t)d->npoints * sizeof *h->active);
}
static void fal_G_to_host(fal_G *h, fal_G *d)
{
  fal_cuda_use(d->fal_base.device);
  if (d->fal_base.loaded && (d->fal_base.structure_of != (const void *)h->fal_base.csr.offsets ||
                             d->fal_base.csr.version != h->fal_base.csr.version)) {
    fal_gpu_structure_pull(&h->fal_base, &d->fal_base);
    fal_free(h->dist);
    h->dist = NULL;
    fal_free(h->updated);
    h->updated = NULL;
    fal_free(h->active);
    h->active = NULL;
    d->fal_base.structure_of = h->fal_base.csr.offsets;
  }
  fal_G_props_to_host(h, d);
}
static void fal_G_read_gpu(fal_G *g, const char *path, const char *file, int line)
{
  fal_G h;
  memset(&h, 0, sizeof h);
  fal_prop_add(&h.fal_base, (void **)&h.dist, sizeof *h.dist, FAL_PROP_POINT);
  fal_prop_add(&h.fal_base, (void **)&h.updated, sizeof *h.updated, FAL_PROP_POINT);
  fal_prop_add(&h.fal_base, (void **)&h.active, sizeof *h.active, FAL_PROP_POINT);
  fal_G_read(&h, path);
  fal_G_to_gpu(g, &h, file, line);
  g->fal_base.structure_of = NULL;
  fal_gbase_free(&h.fal_base);
}
#line 6 "gpu_loop_rot.fal"
__device__ int more = 0;

__host__ __device__ void relax(fal_point p, fal_G *g)
{
  { const fal_point fal_p1 = p; FAL_UNROLL for (int64_t fal_e2 = g->fal_base.csr.offsets[fal_p1] + FAL_WL; fal_e2 < g->fal_base.csr.offsets[fal_p1 + 1]; fal_e2 += FAL_WN) { fal_point t = g->fal_base.csr.dst[fal_e2]; {
#line 11 "gpu_loop_rot.fal"
    (FAL_ATOMIC_ANY(min, &(g->dist[t]), (g->dist[p] + 1)) ? (FAL_SET_FLAG_EL(g->updated[t]), 1) : 0); } } }
#line 11 "gpu_loop_rot.fal"

}

__device__ int fal_rot_fal_loop_L25_3[3];
__device__ long long fal_lr_fal_loop_L25_3;
__device__ int fal_lo_fal_loop_L25_3_rounds;
#line 25 "gpu_loop_rot.fal"
__global__ void fal_loop_L25_3(fal_G fal_kv_g, int rounds)
{
  fal_G *g = &fal_kv_g;
  cooperative_groups::grid_group fal_grid = cooperative_groups::this_grid();
  const bool fal_leader = blockIdx.x == 0 && threadIdx.x == 0;
  long long fal_rounds = 0;
  if (fal_leader) { fal_rot_fal_loop_L25_3[2] = more; fal_rot_fal_loop_L25_3[0] = 0; }
  fal_grid.sync();
  int fal_rs = 0;
  while (fal_rot_fal_loop_L25_3[fal_rs == 0 ? 2 : fal_rs - 1]) {
    if (fal_leader) fal_rot_fal_loop_L25_3[fal_rs == 2 ? 0 : fal_rs + 1] = 0;
    for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { 
#line 27 "gpu_loop_rot.fal"
do { const int64_t fal_x = fal_i; { const int fal_v = g->updated[fal_x]; if (g->active[fal_x] != fal_v) g->active[fal_x] = fal_v; } { const int fal_v = 0; if (g->updated[fal_x] != fal_v) g->updated[fal_x] = fal_v; } } while (0); }
    fal_grid.sync();
    for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { do { fal_point t = (fal_point)fal_i; { if (!(g->active[t])) continue;
#line 31 "gpu_loop_rot.fal"
                                      relax(t, g); } } while (0); }
    fal_grid.sync();
    for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { do { fal_point t = (fal_point)fal_i; { if (!(g->updated[t])) continue;
#line 32 "gpu_loop_rot.fal"
                                       FAL_STORE_SAME(fal_rot_fal_loop_L25_3[fal_rs], 1); } } while (0); }
#line 33 "gpu_loop_rot.fal"
    if (fal_leader) rounds++;
    fal_grid.sync();
    fal_rounds++;
    fal_rs = fal_rs == 2 ? 0 : fal_rs + 1;
  }
  if (fal_leader) more = fal_rot_fal_loop_L25_3[fal_rs == 0 ? 2 : fal_rs - 1];
  if (fal_leader) {
    fal_lr_fal_loop_L25_3 = fal_rounds;
    fal_lo_fal_loop_L25_3_rounds = rounds;
  }
}
__device__ int fal_rot_fal_loopfr_L25_5[3];
__device__ long long fal_lr_fal_loopfr_L25_5;
__device__ long long fal_lv_fal_loopfr_L25_5;
__device__ int fal_lo_fal_loopfr_L25_5_rounds;
#line 25 "gpu_loop_rot.fal"
__global__ void fal_loopfr_L25_5(fal_G fal_kv_g, int rounds, fal_dfront fal_df)
{
  fal_G *g = &fal_kv_g;
  cooperative_groups::grid_group fal_grid = cooperative_groups::this_grid();
  const bool fal_leader = blockIdx.x == 0 && threadIdx.x == 0;
  long long fal_rounds = 0;
  long long fal_vis = 0;
  unsigned fal_gu = 0, fal_g0 = 0, fal_g1 = 0;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { if (g->active[fal_i]) fal_dpush(&fal_df.l[0], fal_i, 1); if (g->updated[fal_i]) fal_dpush(&fal_df.l[1], fal_i, 1); }
  fal_g0 = 1;
  fal_g1 = 1;
  fal_grid.sync();
  if (fal_leader) { fal_rot_fal_loopfr_L25_5[2] = more; fal_rot_fal_loopfr_L25_5[0] = 0; }
  fal_grid.sync();
  int fal_rs = 0;
  while (fal_rot_fal_loopfr_L25_5[fal_rs == 0 ? 2 : fal_rs - 1]) {
    if (fal_leader) fal_rot_fal_loopfr_L25_5[fal_rs == 2 ? 0 : fal_rs + 1] = 0;
    {
    const bool fal_dw0 = fal_ddense(&fal_df.l[0], fal_g0, fal_df.limit);
    const bool fal_dw1 = fal_ddense(&fal_df.l[1], fal_g1, fal_df.limit);
    if (fal_gu >= 0x7ffffff0u || fal_ddense(&fal_df.l[0], fal_g0, fal_df.limit) || fal_ddense(&fal_df.l[1], fal_g1, fal_df.limit))
    { const long long fal_n0 = g->npoints; const int32_t *fal_p0 = NULL;
    if (fal_leader) fal_vis += 0 + fal_n0;
    const long long fal_nt = 0 + fal_n0;
    for (long long fal_k = blockIdx.x * (long long)blockDim.x + threadIdx.x; fal_k < fal_nt; fal_k += (long long)gridDim.x * blockDim.x) { long long fal_r = fal_k; int fal_seg = 0; 
    const int32_t *fal_p = fal_p0; const int64_t fal_i = fal_p ? (int64_t)fal_p[fal_r] : (int64_t)fal_r;
    if (fal_seg < 1) { do { fal_point t = (fal_point)fal_i; {
#line 27 "gpu_loop_rot.fal"
                            {
      g->active[t] = g->updated[t];
      g->updated[t] = 0;
    } } } while (0); if (g->active[fal_i]) fal_dpush(&fal_df.l[0], fal_i, fal_g0 + 1); if (g->updated[fal_i]) fal_dpush(&fal_df.l[1], fal_i, fal_g1 + 1); continue; }
    } }
    else
    { bool fal_d0; const long long fal_n0 = fal_dlen(&fal_df.l[0], fal_g0, g->npoints, fal_df.limit, &fal_d0); const int32_t *fal_p0 = fal_d0 ? NULL : fal_df.l[0].ids[fal_g0 & 1]; bool fal_d1; const long long fal_n1 = fal_dlen(&fal_df.l[1], fal_g1, g->npoints, fal_df.limit, &fal_d1); const int32_t *fal_p1 = fal_d1 ? NULL : fal_df.l[1].ids[fal_g1 & 1];
    if (fal_leader) fal_vis += 0 + fal_n0 + fal_n1;
    const long long fal_nt = 0 + fal_n0 + fal_n1;
    for (long long fal_k = blockIdx.x * (long long)blockDim.x + threadIdx.x; fal_k < fal_nt; fal_k += (long long)gridDim.x * blockDim.x) { long long fal_r = fal_k; int fal_seg = 0; if (fal_r >= fal_n0) { fal_r -= fal_n0; fal_seg++; }
    const int32_t *fal_p = fal_p0; if (fal_seg == 1) fal_p = fal_p1; const int64_t fal_i = fal_p ? (int64_t)fal_p[fal_r] : (int64_t)fal_r;
    if (fal_seg < 2) { if (!fal_dclaim(&fal_df.l[2], fal_i, fal_gu + 1)) continue; do { fal_point t = (fal_point)fal_i; {
#line 27 "gpu_loop_rot.fal"
                            {
      g->active[t] = g->updated[t];
      g->updated[t] = 0;
    } } } while (0); if (g->active[fal_i]) fal_dpush(&fal_df.l[0], fal_i, fal_g0 + 1); if (g->updated[fal_i]) fal_dpush(&fal_df.l[1], fal_i, fal_g1 + 1); continue; }
    } }
    if (fal_leader) fal_df.l[0].cnt[(fal_g0 + 2) % 3] = 0;
    fal_g0++;
    if (fal_leader) fal_df.l[1].cnt[(fal_g1 + 2) % 3] = 0;
    fal_g1++;
    fal_gu++;
    }
    fal_grid.sync();
    {
    const bool fal_dw1 = fal_ddense(&fal_df.l[1], fal_g1, fal_df.limit);
    { bool fal_d0; const long long fal_n0 = fal_dlen(&fal_df.l[0], fal_g0, g->npoints, fal_df.limit, &fal_d0); const int32_t *fal_p0 = fal_d0 ? NULL : fal_df.l[0].ids[fal_g0 & 1]; bool fal_d1; const long long fal_n1 = fal_dlen(&fal_df.l[1], fal_g1, g->npoints, fal_df.limit, &fal_d1); const int32_t *fal_p1 = fal_d1 ? NULL : fal_df.l[1].ids[fal_g1 & 1];
    if (fal_leader) fal_vis += 0 + fal_n0;
    const long long fal_nt = 0 + fal_n0 + fal_n1;
    for (long long fal_k = blockIdx.x * (long long)blockDim.x + threadIdx.x; fal_k < fal_nt; fal_k += (long long)gridDim.x * blockDim.x) { long long fal_r = fal_k; int fal_seg = 0; if (fal_r >= fal_n0) { fal_r -= fal_n0; fal_seg++; }
    const int32_t *fal_p = fal_p0; if (fal_seg == 1) fal_p = fal_p1; const int64_t fal_i = fal_p ? (int64_t)fal_p[fal_r] : (int64_t)fal_r;
    if (fal_seg < 1) { do { fal_point t = (fal_point)fal_i; { if (!(g->active[t])) continue;
#line 31 "gpu_loop_rot.fal"
                                      relax(t, g); } } while (0); if (!fal_dw1) if (g->updated[fal_i]) fal_dpush(&fal_df.l[1], fal_i, fal_g1 + 1); if ((!fal_dw1 && fal_dopen(&fal_df.l[1], fal_g1 + 1, fal_df.limit))) for (int64_t fal_e = g->fal_base.csr.offsets[fal_i]; fal_e < g->fal_base.csr.offsets[fal_i + 1]; fal_e++) { int64_t fal_x = g->fal_base.csr.dst[fal_e]; if (!fal_dw1 && g->updated[fal_x]) fal_dpush(&fal_df.l[1], fal_x, fal_g1 + 1); } continue; }
    if (fal_seg == 1) { if (g->updated[fal_i]) fal_dpush(&fal_df.l[1], fal_i, fal_g1 + 1); } } }
    if (fal_leader) fal_df.l[1].cnt[(fal_g1 + 2) % 3] = 0;
    fal_g1++;
    }
    fal_grid.sync();
    {
    { bool fal_d0; const long long fal_n0 = fal_dlen(&fal_df.l[1], fal_g1, g->npoints, fal_df.limit, &fal_d0); const int32_t *fal_p0 = fal_d0 ? NULL : fal_df.l[1].ids[fal_g1 & 1];
    if (fal_leader) fal_vis += 0 + fal_n0;
    const long long fal_nt = 0 + fal_n0;
    for (long long fal_k = blockIdx.x * (long long)blockDim.x + threadIdx.x; fal_k < fal_nt; fal_k += (long long)gridDim.x * blockDim.x) { long long fal_r = fal_k; int fal_seg = 0; 
    const int32_t *fal_p = fal_p0; const int64_t fal_i = fal_p ? (int64_t)fal_p[fal_r] : (int64_t)fal_r;
    if (fal_seg < 1) { do { fal_point t = (fal_point)fal_i; { if (!(g->updated[t])) continue;
#line 32 "gpu_loop_rot.fal"
                                       FAL_STORE_SAME(fal_rot_fal_loopfr_L25_5[fal_rs], 1); } } while (0); continue; }
    } }
    }
#line 33 "gpu_loop_rot.fal"
    if (fal_leader) rounds++;
    fal_grid.sync();
    fal_rounds++;
    fal_rs = fal_rs == 2 ? 0 : fal_rs + 1;
  }
  if (fal_leader) more = fal_rot_fal_loopfr_L25_5[fal_rs == 0 ? 2 : fal_rs - 1];
  if (fal_leader) {
    fal_lr_fal_loopfr_L25_5 = fal_rounds;
    fal_lv_fal_loopfr_L25_5 = fal_vis;
    fal_lo_fal_loopfr_L25_5_rounds = rounds;
  }
}
#line 14 "gpu_loop_rot.fal"
int main(int argc, char *argv[])
{
  static fal_G fal_gs_hg; fal_G *hg = &fal_gs_hg;
  fal_prop_add(&hg->fal_base, (void **)&hg->dist, sizeof(int), FAL_PROP_POINT);
  fal_prop_add(&hg->fal_base, (void **)&hg->updated, sizeof(int), FAL_PROP_POINT);
  fal_prop_add(&hg->fal_base, (void **)&hg->active, sizeof(int), FAL_PROP_POINT);
  fal_G_read(hg, argv[1]);
  static fal_G fal_gs_g = fal_G_gpu(-1); fal_G *g = &fal_gs_g;
  fal_G_to_gpu(g, hg, __FILE__, __LINE__);
  int rounds = 0;
  fal_sym_set(more, 1);
  { static fal_dfront fal_df_L25_4; fal_cuda_use(g->fal_base.device); if (fal_dfront_wanted() && fal_dfront_get(&fal_df_L25_4, 2, g->npoints)) { fal_cuda_use(g->fal_base.device); double fal_pt0 = fal_prof_t0(); void *fal_args[] = {(void *)g, (void *)&rounds, (void *)&fal_df_L25_4}; long long fal_lr = 0; fal_coop_launch((const void *)fal_loopfr_L25_5, fal_args, "fal_loopfr_L25_5", __FILE__, __LINE__); FAL_CUDA(cudaMemcpyFromSymbol(&fal_lr, fal_lr_fal_loopfr_L25_5, sizeof fal_lr)); FAL_CUDA(cudaMemcpyFromSymbol(&rounds, fal_lo_fal_loopfr_L25_5_rounds, sizeof rounds)); fal_gprof_end("gpu_loop_rot.fal", 25, "frontier", fal_pt0, fal_lr); if (fal_prof_enabled()) { long long fal_lv = 0; FAL_CUDA(cudaMemcpyFromSymbol(&fal_lv, fal_lv_fal_loopfr_L25_5, sizeof fal_lv)); fal_prof_visits("gpu_loop_rot.fal", 25, "frontier", fal_lv); } } else { fal_cuda_use(g->fal_base.device); double fal_pt0 = fal_prof_t0(); void *fal_args[] = {(void *)g, (void *)&rounds}; long long fal_lr = 0; fal_coop_launch((const void *)fal_loop_L25_3, fal_args, "fal_loop_L25_3", __FILE__, __LINE__); FAL_CUDA(cudaMemcpyFromSymbol(&fal_lr, fal_lr_fal_loop_L25_3, sizeof fal_lr)); FAL_CUDA(cudaMemcpyFromSymbol(&rounds, fal_lo_fal_loop_L25_3_rounds, sizeof rounds)); fal_gprof_end("gpu_loop_rot.fal", 25, "device", fal_pt0, fal_lr); } }
#line 34 "gpu_loop_rot.fal"

  fal_G_to_host(hg, g);
  return rounds;
}
