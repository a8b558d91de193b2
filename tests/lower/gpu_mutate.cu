#include "falcon/cuda.cuh"
typedef struct fal_G fal_G;
#line 1 "gpu_mutate.fal"
/* Mutation inside kernels (§6), CUDA target: a kernel adds points and
 * edges and deletes edges and points; device code claims slots
 * (fal_G_*_hd), every launch is followed by fal_G_gpu_settle, and edge
 * loops of device code read edel with acquire (fal_live_edge_sync). */
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
  g->fal_base.need_sources = 1;
  g->fal_base.is_mutable = 1;
  fal_gbase_read(&g->fal_base, path);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)g->fal_base.csr.nedges;
  g->directed = g->fal_base.csr.directed;
}
/* Mutation (§6): additions are visible after fal_G_settle, which the
 * program calls before each parallel loop and each copy to a GPU. */
static void fal_G_settle(fal_G *g)
{
  if (!g->fal_base.csr.end)
    return;
  fal_gbase_settle(&g->fal_base);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)g->fal_base.csr.nedges;
}
static inline fal_edge fal_G_add_edge(fal_G *g, fal_point u, fal_point v, fal_weight w)
{
  if (!g->fal_base.csr.end)
    fal_gbase_mutable(&g->fal_base);
  fal_edge e = fal_graph_add_edge(&g->fal_base.csr, u, v, w);
  __atomic_store_n(&g->nedges, (long)__atomic_load_n(&g->fal_base.csr.nedges, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
  return e;
}
static inline fal_point fal_G_add_point(fal_G *g)
{
  if (!g->fal_base.csr.end)
    fal_gbase_mutable(&g->fal_base);
  fal_point p = fal_gbase_add_point(&g->fal_base);
  __atomic_store_n(&g->npoints, (int)__atomic_load_n(&g->fal_base.csr.npoints, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
  return p;
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
  fal_dcopy_in((void **)&d->level, h->level, fal_prop_elems(&h->fal_base.csr, 0) * sizeof *d->level, file, line);
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
  fal_dcopy_out((void **)&h->level, d->level, fal_prop_elems(&d->fal_base.csr, 0) * sizeof *h->level);
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
static __host__ __device__ inline fal_edge fal_G_add_edge_hd(fal_G *g, fal_point u, fal_point v, fal_weight w)
{
#ifdef __CUDA_ARCH__
  return fal_gpu_add_edge(&g->fal_base, u, v, w);
#else
  return fal_G_add_edge(g, u, v, w);
#endif
}
static __host__ __device__ inline fal_point fal_G_add_point_hd(fal_G *g)
{
#ifdef __CUDA_ARCH__
  return fal_gpu_add_point(&g->fal_base);
#else
  return fal_G_add_point(g);
#endif
}
static __host__ __device__ inline void fal_G_del_edge_hd(fal_G *g, fal_edge e)
{
#ifdef __CUDA_ARCH__
  fal_gpu_del_edge(&g->fal_base, e);
#else
  fal_graph_del_edge(&g->fal_base.csr, e);
#endif
}
static __host__ __device__ inline void fal_G_del_point_hd(fal_G *g, fal_point q)
{
#ifdef __CUDA_ARCH__
  fal_gpu_del_point(&g->fal_base, q);
#else
  fal_graph_del_point(&g->fal_base.csr, q);
#endif
}
static void fal_G_gpu_settle(fal_G *d, const char *file, int line)
{
  int grow = fal_gpu_mut_collect(&d->fal_base, file, line);
  d->npoints = (int)d->fal_base.csr.npoints;
  d->nedges = (long)d->fal_base.csr.nedges;
  if (!grow)
    return;
  fal_G h;
  memset(&h, 0, sizeof h);
  fal_gpu_structure_pull(&h.fal_base, &d->fal_base);
  fal_prop_add(&h.fal_base, (void **)&h.level, sizeof *h.level, FAL_PROP_POINT);
  if (d->level)
    FAL_CUDA(cudaMemcpy(h.level, d->level, fal_prop_elems(&h.fal_base.csr, 0) * sizeof *h.level, cudaMemcpyDeviceToHost));
  fal_gpu_overflow_apply(&h.fal_base, &d->fal_base);
  fal_gbase_settle(&h.fal_base);
  h.npoints = (int)h.fal_base.csr.npoints;
  h.nedges = (long)h.fal_base.csr.nedges;
  h.directed = d->directed;
  fal_G_elems_to_gpu(d, &h, file, line);
  d->fal_base.structure_of = NULL; /* h goes */
  fal_gbase_free(&h.fal_base);
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
#line 5 "gpu_mutate.fal"
__device__ int heavy = 0;

__host__ __device__ void spread(fal_point p, fal_G *g)
{
  fal_point q = fal_G_add_point_hd(g);
  g->level[q] = g->level[p] + 1;
  fal_G_add_edge_hd(g, p, q, 2);
  { const fal_point fal_p1 = p; FAL_UNROLL for (int64_t fal_e2 = g->fal_base.csr.offsets[fal_p1]; fal_e2 < fal_nbr_end(&g->fal_base.csr, fal_p1); fal_e2++) { if (!fal_live_edge_sync(&g->fal_base.csr, fal_e2)) continue; fal_point t = g->fal_base.csr.dst[fal_e2]; {
#line 13 "gpu_mutate.fal"
    if (g->fal_base.csr.weight[fal_e2] > 50)
      fal_G_add_edge_hd(g, q, t, 1); } } }
#line 14 "gpu_mutate.fal"

}

#line 24 "gpu_mutate.fal"
__global__ void fal_foreach_L24_3(fal_G fal_kv_g)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point p = (fal_point)fal_i; if (!fal_live_point(&g->fal_base.csr, p)) continue; { if (!(g->level[p] == 0)) continue;
#line 24 "gpu_mutate.fal"
                                        spread(p, g); } }
}
#line 25 "gpu_mutate.fal"
__global__ void fal_foreach_L25_4(fal_G fal_kv_g)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < fal_edge_slots(&g->fal_base.csr); fal_i += (int64_t)gridDim.x * blockDim.x) { fal_edge e = (fal_edge)fal_i; if (!fal_live_edge_sync(&g->fal_base.csr, e)) continue; {
#line 25 "gpu_mutate.fal"
                         {
    if (g->fal_base.csr.weight[e] > 90)
      fal_G_del_edge_hd(g, e);
    if (g->fal_base.csr.weight[e] > 80)
      FAL_STORE_SAME(heavy, 1);
  } } }
}
#line 31 "gpu_mutate.fal"
__global__ void fal_foreach_L31_5(fal_G fal_kv_g)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point p = (fal_point)fal_i; if (!fal_live_point(&g->fal_base.csr, p)) continue; {
#line 32 "gpu_mutate.fal"
    if (fal_outdeg_hd(&g->fal_base.csr, p) == 0)
      fal_G_del_point_hd(g, p); } }
}
#line 17 "gpu_mutate.fal"
int main(int argc, char *argv[])
{
  static fal_G fal_gs_hg; fal_G *hg = &fal_gs_hg;
  fal_prop_add(&hg->fal_base, (void **)&hg->level, sizeof(int), FAL_PROP_POINT);
  fal_G_read(hg, argv[1]);
  static fal_G fal_gs_g = fal_G_gpu(-1); fal_G *g = &fal_gs_g;
  (fal_G_settle(hg), fal_G_to_gpu(g, hg, __FILE__, __LINE__));
  { fal_cuda_use(g->fal_base.device); fal_gpu_mut_prepare(&g->fal_base, __FILE__, __LINE__); fal_foreach_L24_3<<<fal_cuda_grid(g->npoints), FAL_BLOCK>>>(*g); FAL_CHECK_LAUNCH("fal_foreach_L24_3"); fal_G_gpu_settle(g, __FILE__, __LINE__); }
  { fal_cuda_use(g->fal_base.device); fal_gpu_mut_prepare(&g->fal_base, __FILE__, __LINE__); fal_foreach_L25_4<<<fal_cuda_grid(fal_edge_slots(&g->fal_base.csr)), FAL_BLOCK>>>(*g); FAL_CHECK_LAUNCH("fal_foreach_L25_4"); fal_G_gpu_settle(g, __FILE__, __LINE__); }
#line 30 "gpu_mutate.fal"

  { fal_cuda_use(g->fal_base.device); fal_gpu_mut_prepare(&g->fal_base, __FILE__, __LINE__); fal_foreach_L31_5<<<fal_cuda_grid(g->npoints), FAL_BLOCK>>>(*g); FAL_CHECK_LAUNCH("fal_foreach_L31_5"); fal_G_gpu_settle(g, __FILE__, __LINE__); }
#line 33 "gpu_mutate.fal"

  fal_G_to_host(hg, g);
  printf("%d points, %ld edges, deleted: %d\n", hg->npoints, hg->nedges, (hg->fal_base.csr.pdel ? (int)hg->fal_base.csr.pdel[(0)] : 0));
}
