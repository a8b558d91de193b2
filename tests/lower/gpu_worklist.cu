#include "falcon/cuda.cuh"
typedef struct fal_G fal_G;
#line 1 "gpu_worklist.fal"
/* A worklist loop on the GPU (gpu_worklist): Collections visited, added
 * to, rotated by assignment and resized, all inside the loop's one
 * cooperative kernel; the sizes and counters are kept by its leader
 * thread, so a round has two grid barriers (docs/optimiser.md
 * "Collection rounds on the device").  The auto form: the host runs
 * rounds until they are short, while each Collection can go. */
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
#line 7 "gpu_worklist.fal"
__host__ __device__ void expand(fal_point p, fal_G *g, fal_coll *next)
{
  { const fal_point fal_p1 = p; FAL_UNROLL for (int64_t fal_e2 = g->fal_base.csr.offsets[fal_p1] + FAL_WL; fal_e2 < g->fal_base.csr.offsets[fal_p1 + 1]; fal_e2 += FAL_WN) { fal_point t = g->fal_base.csr.dst[fal_e2]; { if (!(g->level[t] == -1)) continue;
#line 10 "gpu_worklist.fal"
    if (FAL_ATOMIC_ANY(cas, &(g->level[t]), (-1), (g->level[p] + 1)) == -1)
      fal_coll_addp(next, (fal_point)(t)); } } }
#line 11 "gpu_worklist.fal"

}

#line 21 "gpu_worklist.fal"
__global__ void fal_foreach_L21_3(fal_G fal_kv_g)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; {
#line 21 "gpu_worklist.fal"
                          g->level[t] = -1; } }
}
__device__ long long fal_lr_fal_loop_L27_4;
__device__ long fal_lo_fal_loop_L27_4_processed;
__device__ int fal_lo_fal_loop_L27_4_n;
__device__ int fal_lo_fal_loop_L27_4_rounds;
#line 27 "gpu_worklist.fal"
__global__ void fal_loop_L27_4(fal_G fal_kv_g, fal_coll *frontier, long processed, fal_coll *next, fal_coll *c3, int n, int rounds)
{
  fal_G *g = &fal_kv_g;
  cooperative_groups::grid_group fal_grid = cooperative_groups::this_grid();
  const bool fal_leader = blockIdx.x == 0 && threadIdx.x == 0 && threadIdx.y == 0;
  fal_wbegin();
  long long fal_rounds = 0;
  while (fal_coll_size(frontier) > 0) {
#line 28 "gpu_worklist.fal"
    if (fal_leader) processed += fal_coll_size(frontier);
    { fal_coll *fal_cb = frontier; const int64_t fal_cn = fal_coll_size(fal_cb);
    const bool fal_ws = fal_cn > (int64_t)gridDim.x * blockDim.y * FAL_LOOP_WARP_ROUNDS; fal_wphase(fal_ws);
    if (!fal_ws) for (int64_t fal_k = blockIdx.x * (int64_t)blockDim.y + threadIdx.y; fal_k < fal_cn; fal_k += (int64_t)gridDim.x * blockDim.y) { const int64_t fal_i = *(const fal_point *)fal_coll_at(fal_cb, fal_k); do { fal_point t = (fal_point)fal_i; {
#line 29 "gpu_worklist.fal"
                            expand(t, g, next); } } while (0); } else
    for (int64_t fal_k = blockIdx.x * (int64_t)(blockDim.x * blockDim.y) + threadIdx.y * blockDim.x + threadIdx.x; fal_k < fal_cn; fal_k += (int64_t)gridDim.x * blockDim.x * blockDim.y) { const int64_t fal_i = *(const fal_point *)fal_coll_at(fal_cb, fal_k); do { fal_point t = (fal_point)fal_i; {
#line 29 "gpu_worklist.fal"
                            expand(t, g, next); } } while (0); } }
    fal_grid.sync();
#line 30 "gpu_worklist.fal"
    if (fal_leader) fal_d_coll_assign(c3, frontier);
#line 30 "gpu_worklist.fal"
    if (fal_leader) fal_d_coll_assign(frontier, next);
#line 30 "gpu_worklist.fal"
    if (fal_leader) fal_d_coll_assign(next, c3);
#line 31 "gpu_worklist.fal"
    if (fal_leader) n = fal_coll_size(next);
#line 31 "gpu_worklist.fal"
    if (fal_leader) fal_d_coll_set_size(frontier, n);
#line 32 "gpu_worklist.fal"
    if (fal_leader) n = 0;
#line 32 "gpu_worklist.fal"
    if (fal_leader) fal_d_coll_set_size(next, n);
#line 33 "gpu_worklist.fal"
    if (fal_leader) rounds++;
    fal_grid.sync();
    fal_rounds++;
  }
  if (fal_leader) {
    fal_lr_fal_loop_L27_4 = fal_rounds;
    fal_lo_fal_loop_L27_4_processed = processed;
    fal_lo_fal_loop_L27_4_n = n;
    fal_lo_fal_loop_L27_4_rounds = rounds;
  }
}
#line 29 "gpu_worklist.fal"
__global__ void fal_foreach_L29_5(fal_coll *fal_b, int64_t fal_n, fal_G fal_kv_g, fal_coll *next)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < fal_n; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = *(fal_point *)fal_coll_at(fal_b, fal_i); {
#line 29 "gpu_worklist.fal"
                            expand(t, g, next); } }
}
#line 29 "gpu_worklist.fal"
__global__ void fal_foreach_L29_5_drain(fal_coll *fal_c, long long *fal_w, fal_G fal_kv_g, fal_coll *next)
{
  fal_G *g = &fal_kv_g;
  cooperative_groups::grid_group fal_grid = cooperative_groups::this_grid();
  for (;;) {
    fal_coll *fal_b = fal_c->cur;
    int64_t fal_n = fal_coll_size(fal_b);
    for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < fal_n; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = *(fal_point *)fal_coll_at(fal_b, fal_i); {
#line 29 "gpu_worklist.fal"
                            expand(t, g, next); } }
    fal_grid.sync();
    if (!fal_drain_step(fal_c, fal_grid, fal_w))
      break;
  }
}
#line 29 "gpu_worklist.fal"
__global__ void fal_foreach_L29_5_w(fal_coll *fal_b, int64_t fal_n, fal_G fal_kv_g, fal_coll *next)
{
  fal_G *g = &fal_kv_g;
  fal_wbegin();
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.y + threadIdx.y; fal_i < fal_n; fal_i += (int64_t)gridDim.x * blockDim.y) { fal_point t = *(fal_point *)fal_coll_at(fal_b, fal_i); {
#line 29 "gpu_worklist.fal"
                            expand(t, g, next); } }
}
#line 29 "gpu_worklist.fal"
__global__ void fal_foreach_L29_5_drain_w(fal_coll *fal_c, long long *fal_w, fal_G fal_kv_g, fal_coll *next)
{
  fal_G *g = &fal_kv_g;
  fal_wbegin();
  cooperative_groups::grid_group fal_grid = cooperative_groups::this_grid();
  for (;;) {
    fal_coll *fal_b = fal_c->cur;
    int64_t fal_n = fal_coll_size(fal_b);
    for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.y + threadIdx.y; fal_i < fal_n; fal_i += (int64_t)gridDim.x * blockDim.y) { fal_point t = *(fal_point *)fal_coll_at(fal_b, fal_i); {
#line 29 "gpu_worklist.fal"
                            expand(t, g, next); } }
    fal_grid.sync();
    if (!fal_drain_step(fal_c, fal_grid, fal_w))
      break;
  }
}
#line 14 "gpu_worklist.fal"
int main(int argc, char *argv[])
{
  static fal_G fal_gs_hg; fal_G *hg = &fal_gs_hg;
  fal_prop_add(&hg->fal_base, (void **)&hg->level, sizeof(int), FAL_PROP_POINT);
  fal_G_read(hg, argv[1]);
  static fal_G fal_gs_g = fal_G_gpu(-1); fal_G *g = &fal_gs_g;
  fal_G_to_gpu(g, hg, __FILE__, __LINE__);
  { fal_cuda_use(g->fal_base.device); fal_foreach_L21_3<<<fal_cuda_grid(g->npoints), FAL_BLOCK>>>(*g); FAL_CHECK_LAUNCH("fal_foreach_L21_3"); }
  fal_dset(&g->level[(0)], 0);
  static fal_coll fal_cs_frontier; fal_coll *frontier = &fal_cs_frontier; fal_hc_init_gpu(frontier, sizeof(fal_point), &g->fal_base, -1); static fal_coll fal_cs_next; fal_coll *next = &fal_cs_next; fal_hc_init_gpu(next, sizeof(fal_point), &g->fal_base, -1); static fal_coll fal_cs_c3; fal_coll *c3 = &fal_cs_c3; fal_hc_init_gpu(c3, sizeof(fal_point), &g->fal_base, -1);
  fal_hc_addp(frontier, (fal_point)((0)));
  int rounds = 0, n;
  long processed = 0;
  { fal_loop_sw fal_sw = {0}; double fal_pt0 = fal_prof_t0(); long long fal_ra = 0; while (fal_hc_size(frontier) > 0) { if (fal_gc_loop_ok(frontier, g->fal_base.device) && fal_gc_loop_ok(next, g->fal_base.device) && fal_gc_loop_ok(c3, g->fal_base.device) && fal_loop_switch_x(&fal_sw, (const void *)fal_loop_L27_4, "gpu_worklist.fal", 27, fal_warp_pick(&g->fal_base) ? FAL_COLL_LOOP_NEVER : FAL_COLL_LOOP_AFTER)) { { fal_cuda_use(g->fal_base.device); double fal_pt0 = fal_prof_t0(); fal_coll *fal_dc_frontier = fal_hc_dev(frontier); fal_hc_prepare(frontier, __FILE__, __LINE__); fal_coll *fal_dc_next = fal_hc_dev(next); fal_hc_prepare(next, __FILE__, __LINE__); fal_coll *fal_dc_c3 = fal_hc_dev(c3); fal_hc_prepare(c3, __FILE__, __LINE__); void *fal_args[] = {(void *)g, (void *)&fal_dc_frontier, (void *)&processed, (void *)&fal_dc_next, (void *)&fal_dc_c3, (void *)&n, (void *)&rounds}; long long fal_lr = 0; fal_coop_launch_dim((const void *)fal_loop_L27_4, fal_args, "fal_loop_L27_4", __FILE__, __LINE__, FAL_COLL_LOOP_BLOCKS_PER_SM, true); fal_gc_loop_done(frontier, "frontier", __FILE__, __LINE__); fal_gc_loop_done(next, "next", __FILE__, __LINE__); fal_gc_loop_done(c3, "c3", __FILE__, __LINE__); FAL_CUDA(cudaMemcpyFromSymbol(&fal_lr, fal_lr_fal_loop_L27_4, sizeof fal_lr)); FAL_CUDA(cudaMemcpyFromSymbol(&processed, fal_lo_fal_loop_L27_4_processed, sizeof processed)); FAL_CUDA(cudaMemcpyFromSymbol(&n, fal_lo_fal_loop_L27_4_n, sizeof n)); FAL_CUDA(cudaMemcpyFromSymbol(&rounds, fal_lo_fal_loop_L27_4_rounds, sizeof rounds)); fal_gprof_end("gpu_worklist.fal", 27, "device", fal_pt0, fal_lr); } break; } fal_ra++; {
    processed += fal_hc_size(frontier);
    { fal_coll *fal_c6 = frontier; fal_hc_drain_begin(fal_c6); { fal_loop_sw fal_sw6 = {0}; const bool fal_wk6 = fal_gc_warp_pick(fal_c6), fal_dw6 = fal_warp_mode() != 2; for (int fal_r6 = 0; fal_hc_drain_next(fal_c6, fal_r6); fal_r6++) { int64_t fal_n6; fal_coll *fal_b6 = fal_hc_batch(fal_c6, &fal_n6); if (fal_n6 == 0) continue; fal_cuda_use(fal_c6->device); if (fal_gc_drain_switch(&fal_sw6, fal_c6, fal_dw6 ? (const void *)fal_foreach_L29_5_drain_w : (const void *)fal_foreach_L29_5_drain, fal_n6)) { fal_gc_drain_room(fal_c6); fal_hc_prepare(next, __FILE__, __LINE__); if (fal_dw6) fal_coop_launch_wv(fal_foreach_L29_5_drain_w, "fal_foreach_L29_5_drain_w", __FILE__, __LINE__, fal_hc_dev(fal_c6), fal_gc_drain_scratch(fal_c6->device), *g, fal_hc_dev(next)); else fal_coop_launch_v(fal_foreach_L29_5_drain, "fal_foreach_L29_5_drain", __FILE__, __LINE__, fal_hc_dev(fal_c6), fal_gc_drain_scratch(fal_c6->device), *g, fal_hc_dev(next)); fal_gc_drain_sync(fal_c6); fal_hc_check(next, "next", __FILE__, __LINE__); break; } fal_hc_prepare(next, __FILE__, __LINE__); if (fal_wk6) fal_foreach_L29_5_w<<<fal_cuda_grid(fal_n6 * 32), dim3(32, FAL_BLOCK / 32)>>>(fal_b6, fal_n6, *g, fal_hc_dev(next)); else fal_foreach_L29_5<<<fal_cuda_grid(fal_n6), FAL_BLOCK>>>(fal_b6, fal_n6, *g, fal_hc_dev(next)); FAL_CHECK_LAUNCH("fal_foreach_L29_5"); fal_hc_check(next, "next", __FILE__, __LINE__); } } fal_hc_drain_end(fal_c6); }
    fal_hc_assign(c3, frontier); fal_hc_assign(frontier, next); fal_hc_assign(next, c3);
    n = fal_hc_size(next); fal_hc_set_size(frontier, n);
    n = 0; fal_hc_set_size(next, n);
    rounds++;
  } } fal_gprof_end("gpu_worklist.fal", 27, "auto", fal_pt0, fal_ra); }
  printf("%d rounds, %ld processed\n", rounds, processed);
  return 0;
}
