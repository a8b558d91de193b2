#include "falcon/cuda.cuh"
typedef struct fal_G fal_G;
#line 1 "bound_struct_gpu.fal"
/* Structs bound to a graph (§3.6), CUDA target: elements of a view in a
 * kernel, a per-thread Collection of them, single on it (§4.3), a bound
 * struct captured from host code, and a device function taking one. */
struct tri {
  fal_point nodes[3];
  int nbr[3];
  int live;
};

/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  int *mark; /* point property */
  struct tri *triangle; /* graph view (§3.6): ntriangle elements */
  int ntriangle;
  int64_t fal_cap_triangle;
  fal_owner fal_own_triangle; /* single (§4.3) */
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
  if (fal_regrow && d->mark) {
    FAL_CUDA(cudaFree(d->mark));
    d->mark = NULL;
  }
  fal_dcopy_in((void **)&d->mark, h->mark, (size_t)h->npoints * sizeof *d->mark, file, line);
}
static void fal_G_to_gpu(fal_G *d, const fal_G *h, const char *file, int line)
{
  if (d->fal_base.device < 0)
    d->fal_base.device = fal_cuda_place(d->fal_base.want_device, file, line);
  fal_cuda_use(d->fal_base.device);
  fal_G_elems_to_gpu(d, h, file, line);
  fal_view_to_gpu((void **)&d->triangle, &d->fal_cap_triangle, h->triangle, h->ntriangle, sizeof *d->triangle, file, line);
  d->ntriangle = h->ntriangle;
}
static void fal_G_props_to_host(fal_G *h, const fal_G *d)
{
  fal_cuda_use(d->fal_base.device);
  h->npoints = d->npoints;
  h->nedges = d->nedges;
  h->directed = d->directed;
  fal_dcopy_out((void **)&h->mark, d->mark, (size_t)d->npoints * sizeof *h->mark);
  fal_view_to_host((void **)&h->triangle, &h->fal_cap_triangle, d->triangle, d->ntriangle, sizeof *h->triangle);
  h->ntriangle = d->ntriangle;
}
static void fal_G_to_host(fal_G *h, fal_G *d)
{
  fal_cuda_use(d->fal_base.device);
  if (d->fal_base.loaded && (d->fal_base.structure_of != (const void *)h->fal_base.csr.offsets ||
                             d->fal_base.csr.version != h->fal_base.csr.version)) {
    fal_gpu_structure_pull(&h->fal_base, &d->fal_base);
    fal_free(h->mark);
    h->mark = NULL;
    d->fal_base.structure_of = h->fal_base.csr.offsets;
  }
  fal_G_props_to_host(h, d);
}
static void fal_G_read_gpu(fal_G *g, const char *path, const char *file, int line)
{
  fal_G h;
  memset(&h, 0, sizeof h);
  fal_prop_add(&h.fal_base, (void **)&h.mark, sizeof *h.mark, FAL_PROP_POINT);
  fal_G_read(&h, path);
  fal_G_to_gpu(g, &h, file, line);
  g->fal_base.structure_of = NULL;
  fal_gbase_free(&h.fal_base);
}
static int fal_G_resize_triangle(fal_G *g, int64_t n, const char *file, int line)
{
  if (g->fal_base.on_gpu) {
    if (g->fal_base.device < 0)
      g->fal_base.device = fal_cuda_place(g->fal_base.want_device, file, line);
    fal_cuda_use(g->fal_base.device);
  }
  fal_view_resize_any((void **)&g->triangle, &g->fal_cap_triangle, g->ntriangle, n, sizeof *g->triangle,
                      g->fal_base.on_gpu, file, line);
  return g->ntriangle = (int)n;
}
#line 10 "bound_struct_gpu.fal"
__host__ __device__ int corner(fal_G *g, int t) { return g->mark[g->triangle[t].nodes[0]]; }

#line 22 "bound_struct_gpu.fal"
__global__ void fal_foreach_L22_1(fal_G fal_kv_g, int t0, int fal_phase, unsigned char *fal_pend)
{
  fal_G *g = &fal_kv_g;
  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < g->ntriangle; fal_i += (int64_t)gridDim.x * blockDim.x) { int k = (int)fal_i; { if (fal_phase && !fal_pend[fal_i]) continue; { if (!(g->triangle[k].live)) continue;
#line 22 "bound_struct_gpu.fal"
                                    {
    fal_local_coll fal_cs_cav(sizeof(int)); fal_coll *cav = &fal_cs_cav.c;
    fal_lcoll_addp(cav, (fal_point)(k));
    fal_lcoll_addp(cav, (fal_point)(t0));
    { const fal_coll *fal_sc3 = cav; if (!fal_phase) { fal_pend[fal_i] = 1; fal_own_claim(&g->fal_own_triangle, fal_sc3, fal_i); goto fal_skip2; } if (fal_own_holds(&g->fal_own_triangle, fal_sc3, fal_i)) {
      int o = (int)(g->triangle[k].nbr[1]);
      g->mark[g->triangle[o].nodes[0]] = corner(g, k);
    } }
  } } fal_skip2: ; } }
}
#line 12 "bound_struct_gpu.fal"
int main()
{
  static fal_G fal_gs_hg; fal_G *hg = &fal_gs_hg;
  fal_prop_add(&hg->fal_base, (void **)&hg->mark, sizeof(int), FAL_PROP_POINT);
  ((void)0);
  fal_G_read(hg, "mesh.txt");
  fal_G_resize_triangle(hg, 4, __FILE__, __LINE__);
  static fal_G fal_gs_g = fal_G_gpu(-1); fal_G *g = &fal_gs_g;
  fal_G_to_gpu(g, hg, __FILE__, __LINE__);
  int t0 = (int)(2);
  { fal_cuda_use(g->fal_base.device); fal_gpu_owner_begin(&g->fal_own_triangle, (int64_t)g->ntriangle, __FILE__, __LINE__); unsigned char *fal_pend = fal_gpu_pend_get((int64_t)g->ntriangle, g->fal_base.device, __FILE__, __LINE__); for (int fal_phase = 0; fal_phase < 2; fal_phase++) { fal_foreach_L22_1<<<fal_cuda_grid(g->ntriangle), FAL_BLOCK>>>(*g, t0, fal_phase, fal_pend); FAL_CHECK_LAUNCH("fal_foreach_L22_1"); } }
#line 30 "bound_struct_gpu.fal"

  fal_G_to_host(hg, g);
}
