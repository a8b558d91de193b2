#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#include "falcon/mpi.h"
#define fopen(p, m) fal_mpi_fopen(p, m)
#line 1 "partition_mpi_pull.fal"
/* falconc --mpi --target=cpu: a level-synchronous loop (BFS's) over a
 * partitioned graph on host ranks (docs/lowering.md "Pull rounds on host
 * ranks").  The loop keeps a direction (a fal_dstate, fal_dstate_start)
 * around its rounds; its phase runs either as the push written here or,
 * when that says so, as a pull over the rank's own points (each point at
 * INF takes lev + 1 from the first out-neighbour at lev, setting
 * hg.changed[0]); after the exchange the round's own new points and their
 * out-edges are counted and fal_mdir_decide sums them over the ranks.
 * FALCON_PROFILE: "pull rounds (ranks)". */
#include <stdio.h>

#define INF 2147483647

/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  int *level; /* point property */
  int *changed; /* graph property */
  /* makePartition (§7): the parts, host views of GPU parts, the first
   * point of each part, and the merge function of updateFunction */
  struct fal_G *fal_parts, *fal_mirrors;
  int fal_nparts, fal_shared;
  int64_t *fal_lo;
  void (*fal_merge)(struct fal_G *, fal_point, struct fal_G *, fal_point);
  /* --mpi: ghosts and borders of this rank, the one-point copies (one per
   * thread) that incoming records are merged from, whether points of other ranks
   * are out of date, graph properties at the start of a foreach */
  fal_mpi_plan *fal_mpi;
  struct fal_G *fal_mpi_in;
  int fal_mpi_nin, fal_mpi_stale;
  int fal_mpi_nwr; /* host writes since the last foreach (fal_G_mpi_wr) */
  uint64_t fal_mpi_mask; /* the point properties of this round's record */
  int fal_mpi_before_changed;
};
static void fal_G_read(fal_G *g, const char *path)
{
  fal_gbase_read(&g->fal_base, path);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)g->fal_base.csr.nedges;
  g->directed = g->fal_base.csr.directed;
}
static void fal_G_read_rows(fal_G *g, const char *path)
{
  fal_mpi_gbase_read(&g->fal_base, path);
  g->npoints = (int)g->fal_base.csr.npoints;
  g->nedges = (long)(g->fal_base.csr.rows ? g->fal_base.csr.all_edges : g->fal_base.csr.nedges);
  g->directed = g->fal_base.csr.directed;
}
enum { FAL_MPI_REC_MAX = 1 + sizeof(int) };
static void fal_G_mpi_pack_m(const fal_G *g, fal_point p, void *rec, uint64_t m)
{
  unsigned char *w = (unsigned char *)rec;
  (void)g; (void)p; (void)w; (void)m;
  if ((m >> 0 & 1)) {
    if (g->level)
      memcpy(w, &g->level[p], sizeof(int));
    else
      memset(w, 0, sizeof(int));
    w += sizeof(int);
  }
}
static void fal_G_mpi_pack(void *gv, fal_point p, void *rec)
{
  fal_G_mpi_pack_m((const fal_G *)gv, p, rec, ((const fal_G *)gv)->fal_mpi_mask);
}
static void fal_G_mpi_unpack(fal_G *g, fal_point p, const unsigned char *r, uint64_t m)
{
  (void)g; (void)p; (void)r; (void)m;
  if ((m >> 0 & 1)) {
    if (g->level)
      memcpy(&g->level[p], r, sizeof(int));
    r += sizeof(int);
  }
}
static void fal_G_mpi_apply(void *gv, fal_point p, const void *rec, int merge)
{
  fal_G *g = (fal_G *)gv;
  if (merge && g->fal_merge) {
    unsigned char all[FAL_MPI_REC_MAX];
    uint64_t m = g->fal_mpi_mask;
    fal_G_mpi_pack_m(g, p, all, ~(uint64_t)0);
    fal_G *in = &g->fal_mpi_in[fal_mpi_thread() % g->fal_mpi_nin];
    fal_G_mpi_unpack(in, 0, all, ~(uint64_t)0);
    fal_G_mpi_unpack(in, 0, (const unsigned char *)rec, m);
    g->fal_merge(g, p, in, 0);
  } else
    fal_G_mpi_unpack(g, p, (const unsigned char *)rec, g->fal_mpi_mask);
}
static void fal_G_partition(fal_G *h, int ngpu, int ncpu, int policy, const char *file, int line)
{
  int k = ngpu + ncpu;
  (void)policy;
  if (k < 1 || k > 64 || ngpu < 0 || ncpu < 0) {
    fprintf(stderr, "%s:%d: error: makePartition(%d, %d): between 1 and 64 parts\n", file, line, ngpu, ncpu);
    exit(1);
  }
  if (h->fal_mpi) {
    fprintf(stderr, "%s:%d: error: makePartition: the graph is partitioned already\n", file, line);
    exit(1);
  }
  if (ngpu > 0 && fal_mpi_rank() == 0)
    fprintf(stderr, "falcon: note: --mpi: the %d GPU part(s) of each rank run on its host\n", ngpu);
  h->fal_nparts = k; /* per rank; a rank's host parts share its memory */
  size_t rec = 0;
  rec += sizeof(int);
  h->fal_mpi = (fal_mpi_plan *)fal_calloc(1, sizeof *h->fal_mpi);
  fal_mpi_plan_init(h->fal_mpi, &h->fal_base.csr, rec);
  /* a one-point copy per thread: incoming records merge in parallel */
  h->fal_mpi_nin = fal_mpi_threads();
  h->fal_mpi_in = (fal_G *)fal_calloc((size_t)h->fal_mpi_nin, sizeof(fal_G));
  for (int t = 0; t < h->fal_mpi_nin; t++) {
    fal_G *in = &h->fal_mpi_in[t];
    (void)in;
    if (h->level)
      in->level = (int *)fal_calloc(1, sizeof(int));
  }
}
static fal_G *fal_G_fresh(fal_G *h)
{
  if (!h->fal_mpi || !h->fal_mpi_stale)
    return h;
  fal_mpi_sync(FAL_MPI_SITE_GATHER);
  h->fal_mpi_stale = 0;
  fal_mpi_gather(h->fal_mpi, h->level, sizeof(int), NULL);
  return h;
}
static int64_t fal_G_mpi_wr(fal_G *h, int64_t p)
{
  if (!h->fal_mpi || !h->fal_mpi_stale || h->fal_mpi_nwr >= 64 || p < 0 || p >= h->npoints) {
    fal_G_fresh(h);
    return p;
  }
  h->fal_mpi_nwr++;
  fal_mpi_sync(FAL_MPI_SITE_GATHER);
  int o = fal_mpi_owner(h->fal_mpi, p);
  if (h->level)
    fal_mpi_bcast_from(h->level + p, sizeof *h->level, o);
  return p;
}
static void fal_G_mpi_begin(fal_G *h, int line, uint64_t mask, int ex)
{
  if (!h->fal_mpi) {
    fprintf(stderr, "falcon: a foreach over a partitioned graph before makePartition\n");
    exit(1);
  }
  fal_mpi_sync(line > 0 ? line : 0);
  size_t cur = 0;
  h->fal_mpi_mask = mask;
  h->fal_mpi_nwr = 0;
  if ((mask >> 0 & 1))
    cur += sizeof(int);
  h->fal_mpi->ex = ex;
  if (ex != FAL_EX_ALIKE)
    fal_mpi_snapshot(h->fal_mpi, h, fal_G_mpi_pack, cur);
  if (h->changed)
    h->fal_mpi_before_changed = h->changed[0];
}
static void fal_G_mpi_gp_done(fal_G *h)
{
  h->fal_mpi_stale = h->fal_mpi->nranks > 1;
  if (h->changed) /* a value changed on any rank wins */
    fal_mpi_combine(&h->changed[0], &h->fal_mpi_before_changed, sizeof(int));
}
static void fal_G_mpi_end(fal_G *h)
{
  fal_mpi_exchange(h->fal_mpi, h, fal_G_mpi_pack, fal_G_mpi_apply);
  fal_G_mpi_gp_done(h);
}
static inline void fal_G_mpi_end_alike(fal_G *h)
{
  fal_G_mpi_gp_done(h);
}
#line 14 "partition_mpi_pull.fal"
void expand(fal_point p, fal_G *hg, int lev)
{
  { const fal_point fal_p1 = p; for (int64_t fal_e2 = hg->fal_base.csr.offsets[fal_p1], fal_n2 = hg->fal_base.csr.offsets[fal_p1 + 1]; fal_e2 < fal_n2; fal_e2++) { fal_point t = hg->fal_base.csr.dst[fal_e2]; { if (!(hg->level[t] == INF)) continue;
#line 17 "partition_mpi_pull.fal"
    (FAL_ATOMIC_ANY(min, &(hg->level[t]), (lev + 1)) ? (FAL_SET_FLAG(hg->changed[0]), 1) : 0); } } }
#line 17 "partition_mpi_pull.fal"

}

void merge(fal_G *fal_g_orig, fal_point orig, fal_G *fal_g_incom, fal_point incom)
{
  if (fal_g_orig->level[orig] > fal_g_incom->level[incom])
    fal_g_orig->level[orig] = fal_g_incom->level[incom];
}

int main(int argc, char *argv[])
{
  static fal_G fal_gs_hg; fal_G *hg = &fal_gs_hg;
  fal_prop_add(&hg->fal_base, (void **)&hg->level, sizeof(int), FAL_PROP_POINT);
  fal_prop_add(&hg->fal_base, (void **)&hg->changed, sizeof(int), FAL_PROP_GRAPH);
  fal_G_read_rows(hg, argv[1]);
  fal_G_partition(hg, 1, 0, ORDERED, __FILE__, __LINE__);
  (hg->fal_merge = merge);
  { fal_G_mpi_begin(hg, 34, 0x1u, FAL_EX_ALIKE); { fal_G *fal_part = hg; int64_t fal_lo = 0, fal_hi = hg->npoints; { fal_G *hg = fal_part; 
#pragma omp parallel for schedule(dynamic, 256)
#line 34 "partition_mpi_pull.fal"
for (fal_point t = (fal_point)fal_lo; t < fal_hi; t++) {
#line 34 "partition_mpi_pull.fal"
                           hg->level[t] = INF; } } }
fal_G_mpi_end_alike(hg); }
#line 34 "partition_mpi_pull.fal"

  hg->level[fal_G_mpi_wr(hg, (0))] = 0;
  int lev = 0;
  { fal_dstate fal_md3; fal_dstate_start(&fal_md3, 1, hg->directed, hg->npoints, hg->nedges); { double fal_pt0 = fal_prof_t0(); long long fal_ra = 0; while (1) { fal_ra++; {
    hg->changed[0] = 0;
    { fal_G_mpi_begin(hg, 39, 0x1u, FAL_EX_MERGE); { fal_G *fal_part = hg; int64_t fal_lo = hg->fal_mpi->lo[hg->fal_mpi->rank], fal_hi = hg->fal_mpi->lo[hg->fal_mpi->rank + 1]; { fal_G *hg = fal_part; if (fal_md3.dir) {
#pragma omp parallel for schedule(dynamic, 1024)
for (int64_t fal_i = fal_lo; fal_i < fal_hi; fal_i++) { int fal_u; __atomic_load(&hg->level[fal_i], &fal_u, __ATOMIC_RELAXED); if (fal_u == (INF) && (lev) + 1 < fal_u) for (int64_t fal_e = hg->fal_base.csr.offsets[fal_i], fal_n = hg->fal_base.csr.offsets[fal_i + 1]; fal_e < fal_n; fal_e++) { int fal_s; __atomic_load(&hg->level[hg->fal_base.csr.dst[fal_e]], &fal_s, __ATOMIC_RELAXED); if (fal_s == (lev)) { int fal_nv = (lev) + 1; __atomic_store(&hg->level[fal_i], &fal_nv, __ATOMIC_RELAXED); FAL_SET_FLAG(hg->changed[0]); break; } } }
} else { 
#pragma omp parallel for schedule(dynamic, 256)
#line 39 "partition_mpi_pull.fal"
for (fal_point t = (fal_point)fal_lo; t < fal_hi; t++) { if (!(hg->level[t] == lev)) continue;
#line 39 "partition_mpi_pull.fal"
                                             expand(t, hg, lev); } } } }
fal_G_mpi_end(hg); } fal_md3.pulls += fal_md3.dir; if (fal_dstate_counts(&fal_md3)) { long long fal_maw = 0, fal_msc = 0; int64_t fal_mlo = hg->fal_mpi->lo[hg->fal_mpi->rank], fal_mhi = hg->fal_mpi->lo[hg->fal_mpi->rank + 1]; 
#pragma omp parallel for reduction(+ : fal_maw, fal_msc)
for (int64_t fal_i = fal_mlo; fal_i < fal_mhi; fal_i++) if (hg->level[fal_i] == (lev) + 1) { fal_maw++; fal_msc += hg->fal_base.csr.offsets[fal_i + 1] - hg->fal_base.csr.offsets[fal_i]; }
 fal_mdir_decide(&fal_md3, fal_maw, fal_msc); }
#line 39 "partition_mpi_pull.fal"

    lev++;
    if (hg->changed[0] == 0)
      break;
  } }fal_prof_end("partition_mpi_pull.fal", 37, "ranks (host)", fal_pt0, fal_ra); } fal_prof_end("partition_mpi_pull.fal", 37, "pull rounds (ranks)", fal_prof_t0(), fal_md3.pulls); }
#line 43 "partition_mpi_pull.fal"

  printf("%d levels\n", lev);
  return 0;
}
