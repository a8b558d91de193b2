#define FAL_HUB_KERNELS 1
#include "falcon/cuda.cuh"
typedef struct fal_G fal_G;
#line 1 "gpu_prototypes.fal"
/* CUDA target: prototypes get the linkage of their definitions — C
 * linkage for host functions (callable from .c files), __host__ __device__
 * for functions that GPU code calls. */
#include <stdio.h>

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
}
static void fal_G_to_host(fal_G *h, fal_G *d)
{
  fal_cuda_use(d->fal_base.device);
  if (d->fal_base.loaded && (d->fal_base.structure_of != (const void *)h->fal_base.csr.offsets ||
                             d->fal_base.csr.version != h->fal_base.csr.version)) {
    fal_gpu_structure_pull(&h->fal_base, &d->fal_base);
    fal_free(h->dist);
    h->dist = NULL;
    d->fal_base.structure_of = h->fal_base.csr.offsets;
  }
  fal_G_props_to_host(h, d);
}
static void fal_G_read_gpu(fal_G *g, const char *path, const char *file, int line)
{
  fal_G h;
  memset(&h, 0, sizeof h);
  fal_prop_add(&h.fal_base, (void **)&h.dist, sizeof *h.dist, FAL_PROP_POINT);
  fal_G_read(&h, path);
  fal_G_to_gpu(g, &h, file, line);
  g->fal_base.structure_of = NULL;
  fal_gbase_free(&h.fal_base);
}
#line 6 "gpu_prototypes.fal"
__device__ int changed = 0;

__host__ __device__ void relax(fal_point p, fal_G *g);
extern "C" int helper_from_c(int x);
static int local_only(int x);
extern "C" int count_points(fal_G *g);

#line 18 "gpu_prototypes.fal"
__global__ void fal_foreach_L18_1(fal_G fal_kv_g)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; {
#line 18 "gpu_prototypes.fal"
                          g->dist[t] = 1; } }
}
#line 19 "gpu_prototypes.fal"
__global__ void fal_foreach_L19_2(fal_G fal_kv_g)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->npoints; fal_i += (int64_t)gridDim.x * blockDim.x) { fal_point t = (fal_point)fal_i; {
#line 19 "gpu_prototypes.fal"
                          relax(t, g); } }
}
#line 19 "gpu_prototypes.fal"
__global__ void fal_foreach_L19_2_w(fal_G fal_kv_g, fal_hubk fal_hk, int64_t fal_hd, unsigned fal_hb)
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
#line 19 "gpu_prototypes.fal"
                          relax(t, g); } } }
  } else
  for (int64_t fal_i = (blockIdx.x - fal_hb) * (int64_t)blockDim.y + threadIdx.y; fal_i < g->npoints; fal_i += (int64_t)(gridDim.x - fal_hb) * blockDim.y) { fal_point t = (fal_point)fal_i; if (FAL_HUB(g, t, fal_hd)) continue; {
#line 19 "gpu_prototypes.fal"
                          relax(t, g); } }
}
#line 13 "gpu_prototypes.fal"
int main(int argc, char **argv)
{
  static fal_G fal_gs_g = fal_G_gpu(-1); fal_G *g = &fal_gs_g;
  ((void)0);
  fal_G_read_gpu(g, argv[1], __FILE__, __LINE__);
  { fal_cuda_use(g->fal_base.device); fal_foreach_L18_1<<<fal_cuda_grid(g->npoints), FAL_BLOCK>>>(*g); FAL_CHECK_LAUNCH("fal_foreach_L18_1"); }
  { fal_cuda_use(g->fal_base.device); if (fal_warp_pick(&g->fal_base)) { const fal_hubs *fal_hb = fal_hubs_of(&g->fal_base); int64_t fal_h0 = 0, fal_nh = !fal_hb ? 0 : fal_hb->n; fal_hubk fal_hk = fal_hubk_of(fal_hb, fal_h0, fal_nh); unsigned fal_hbk = fal_nh ? fal_hub_grid(fal_hk.q1 - fal_hk.q0) : 0; fal_foreach_L19_2_w<<<fal_hbk + fal_cuda_grid((int64_t)(g->npoints) * 32), dim3(32, FAL_BLOCK / 32)>>>(*g, fal_hk, fal_nh ? fal_hb->deg : INT64_MAX, fal_hbk); } else fal_foreach_L19_2<<<fal_cuda_grid(g->npoints), FAL_BLOCK>>>(*g); FAL_CHECK_LAUNCH("fal_foreach_L19_2"); }
  printf("%d %d %d\n", count_points(g), helper_from_c(1), local_only(2));
}

__host__ __device__ void relax(fal_point p, fal_G *g)
{
  { const fal_point fal_p3 = p; FAL_UNROLL for (int64_t fal_e4 = g->fal_base.csr.offsets[fal_p3] + FAL_WL; fal_e4 < g->fal_base.csr.offsets[fal_p3 + 1]; fal_e4 += FAL_WN) { fal_point t = g->fal_base.csr.dst[fal_e4]; {
#line 26 "gpu_prototypes.fal"
    (FAL_ATOMIC_ANY(min, &(g->dist[t]), (g->dist[p] + g->fal_base.csr.weight[fal_e4])) ? (FAL_SET_FLAG(changed), 1) : 0); } } }
#line 26 "gpu_prototypes.fal"

}

extern "C" int count_points(fal_G *g)
{
  return g->npoints;
}

static int local_only(int x)
{
  return x + 1;
}
