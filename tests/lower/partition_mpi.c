#include "falcon/falcon.h"
typedef struct fal_G fal_G;
#include "falcon/mpi.h"
#define fopen(p, m) fal_mpi_fopen(p, m)
#line 1 "partition_mpi.fal"
/* falconc --mpi: a partitioned graph (§7) under MPI: each rank's points,
 * the ghost exchange after each foreach, a graph property combined, a
 * reduction over the rank's points summed by every rank, host reads
 * through fal_G_fresh.  Each foreach's record holds the point properties
 * it (or merge) may write that ghosts hold (some foreach reaches them at a
 * point other than its own, or merge names them): dist (bit 0) through
 * MIN in relax and in merge; not hits (bit 1, written with ++ at the
 * loop's own point only), so that foreach sends nothing; none of seen
 * (bit 2). */
#include <stdio.h>

/* falconc: the graph type of this program; one array per property (§3.1). */
struct fal_G {
  fal_gbase fal_base;
  int npoints;
  long nedges;
  int directed;
  int *dist; /* point property */
  int *hits; /* point property */
  char *seen; /* point property */
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
enum { FAL_MPI_REC_MAX = 1 + sizeof(int) + sizeof(int) + sizeof(char) };
static void fal_G_mpi_pack_m(const fal_G *g, fal_point p, void *rec, uint64_t m)
{
  unsigned char *w = (unsigned char *)rec;
  (void)g; (void)p; (void)w; (void)m;
  if ((m >> 0 & 1)) {
    if (g->dist)
      memcpy(w, &g->dist[p], sizeof(int));
    else
      memset(w, 0, sizeof(int));
    w += sizeof(int);
  }
  if ((m >> 1 & 1)) {
    if (g->hits)
      memcpy(w, &g->hits[p], sizeof(int));
    else
      memset(w, 0, sizeof(int));
    w += sizeof(int);
  }
  if ((m >> 2 & 1)) {
    if (g->seen)
      memcpy(w, &g->seen[p], sizeof(char));
    else
      memset(w, 0, sizeof(char));
    w += sizeof(char);
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
    if (g->dist)
      memcpy(&g->dist[p], r, sizeof(int));
    r += sizeof(int);
  }
  if ((m >> 1 & 1)) {
    if (g->hits)
      memcpy(&g->hits[p], r, sizeof(int));
    r += sizeof(int);
  }
  if ((m >> 2 & 1)) {
    if (g->seen)
      memcpy(&g->seen[p], r, sizeof(char));
    r += sizeof(char);
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
  rec += sizeof(int);
  rec += sizeof(char);
  h->fal_mpi = (fal_mpi_plan *)fal_calloc(1, sizeof *h->fal_mpi);
  fal_mpi_plan_init(h->fal_mpi, &h->fal_base.csr, rec);
  /* a one-point copy per thread: incoming records merge in parallel */
  h->fal_mpi_nin = fal_mpi_threads();
  h->fal_mpi_in = (fal_G *)fal_calloc((size_t)h->fal_mpi_nin, sizeof(fal_G));
  for (int t = 0; t < h->fal_mpi_nin; t++) {
    fal_G *in = &h->fal_mpi_in[t];
    (void)in;
    if (h->dist)
      in->dist = (int *)fal_calloc(1, sizeof(int));
    if (h->hits)
      in->hits = (int *)fal_calloc(1, sizeof(int));
    if (h->seen)
      in->seen = (char *)fal_calloc(1, sizeof(char));
  }
}
static fal_G *fal_G_fresh(fal_G *h)
{
  if (!h->fal_mpi || !h->fal_mpi_stale)
    return h;
  fal_mpi_sync(FAL_MPI_SITE_GATHER);
  h->fal_mpi_stale = 0;
  fal_mpi_gather(h->fal_mpi, h->dist, sizeof(int), NULL);
  fal_mpi_gather(h->fal_mpi, h->hits, sizeof(int), NULL);
  fal_mpi_gather(h->fal_mpi, h->seen, sizeof(char), NULL);
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
  if (h->dist)
    fal_mpi_bcast_from(h->dist + p, sizeof *h->dist, o);
  if (h->hits)
    fal_mpi_bcast_from(h->hits + p, sizeof *h->hits, o);
  if (h->seen)
    fal_mpi_bcast_from(h->seen + p, sizeof *h->seen, o);
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
  if ((mask >> 1 & 1))
    cur += sizeof(int);
  if ((mask >> 2 & 1))
    cur += sizeof(char);
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
#line 12 "partition_mpi.fal"
void relax(fal_point p, fal_G *hg)
{
  { const fal_point fal_p1 = p; for (int64_t fal_e2 = hg->fal_base.csr.offsets[fal_p1], fal_n2 = hg->fal_base.csr.offsets[fal_p1 + 1]; fal_e2 < fal_n2; fal_e2++) { fal_point t = hg->fal_base.csr.dst[fal_e2]; {
#line 15 "partition_mpi.fal"
    (FAL_ATOMIC_ANY(min, &(hg->dist[t]), (hg->dist[p] + hg->fal_base.csr.weight[fal_e2])) ? (FAL_SET_FLAG(hg->changed[0]), 1) : 0); } } }
#line 15 "partition_mpi.fal"

}

void merge(fal_G *fal_g_orig, fal_point orig, fal_G *fal_g_incom, fal_point incom)
{
  if (fal_g_orig->dist[orig] > fal_g_incom->dist[incom])
    fal_g_orig->dist[orig] = fal_g_incom->dist[incom];
}

int main(int argc, char *argv[])
{
  static fal_G fal_gs_hg; fal_G *hg = &fal_gs_hg;
  fal_prop_add(&hg->fal_base, (void **)&hg->dist, sizeof(int), FAL_PROP_POINT);
  fal_prop_add(&hg->fal_base, (void **)&hg->hits, sizeof(int), FAL_PROP_POINT);
  fal_prop_add(&hg->fal_base, (void **)&hg->seen, sizeof(char), FAL_PROP_POINT);
  fal_prop_add(&hg->fal_base, (void **)&hg->changed, sizeof(int), FAL_PROP_GRAPH);
  fal_G_read_rows(hg, argv[1]);
  fal_G_partition(hg, 0, 2, ORDERED, __FILE__, __LINE__);
  (hg->fal_merge = merge);
  { fal_G_mpi_begin(hg, 34, 0x1u, FAL_EX_ALIKE); { fal_G *fal_part = hg; int64_t fal_lo = 0, fal_hi = hg->npoints; { fal_G *hg = fal_part; 
#pragma omp parallel for schedule(dynamic, 256)
#line 34 "partition_mpi.fal"
for (fal_point t = (fal_point)fal_lo; t < fal_hi; t++) {
#line 34 "partition_mpi.fal"
                           hg->dist[t] = 1000000; } } }
fal_G_mpi_end_alike(hg); }
#line 34 "partition_mpi.fal"

  hg->dist[fal_G_mpi_wr(hg, (0))] = 0;
  { static struct { void *p; size_t n; } fal_sn3; static fal_lfix fal_lf3; int fal_tv3 = 0, fal_tok3 = !hg->fal_mpi || hg->fal_mpi->nranks < 2 || hg->fal_merge != NULL; { double fal_pt0 = fal_prof_t0(); long long fal_ra = 0; while (1) { fal_ra++; {
    hg->changed[0] = 0;
    { fal_G_mpi_begin(hg, 38, 0x1u, FAL_EX_MERGE); { fal_G *fal_part = hg; int64_t fal_lo = hg->fal_mpi->lo[hg->fal_mpi->rank], fal_hi = hg->fal_mpi->lo[hg->fal_mpi->rank + 1]; { fal_G *hg = fal_part; int *fal_snp = NULL; if (fal_tok3) { size_t fal_sb = (size_t)(fal_hi - fal_lo) * sizeof(int) + 1; if (fal_sn3.n < fal_sb) { fal_free(fal_sn3.p); fal_sn3.p = fal_alloc(fal_sb); fal_sn3.n = fal_sb; } fal_snp = (int *)fal_sn3.p; } int fal_lw = fal_snp && fal_lfix_wanted(&fal_lf3, hg->npoints, hg->nedges, fal_mpi_threads()); if (!(fal_lw && fal_tv3 && !fal_lfix_sweeps(&fal_lf3))) { 
#pragma omp parallel for schedule(dynamic, 256)
#line 38 "partition_mpi.fal"
for (fal_point t = (fal_point)fal_lo; t < fal_hi; t++) { if (fal_snp) { int fal_sv; __atomic_load(&hg->dist[t], &fal_sv, __ATOMIC_RELAXED); if (fal_tv3 && fal_sv == fal_snp[t - fal_lo]) continue; fal_snp[t - fal_lo] = fal_sv; } {
#line 38 "partition_mpi.fal"
                             relax(t, hg); } } }
if (fal_snp) { int *fal_qv = NULL; if (fal_lw) { fal_qv = (int *)fal_lfix_begin(&fal_lf3, fal_snp, (size_t)(fal_hi - fal_lo) * sizeof(int)); for (fal_point fal_q = (fal_point)fal_lo; fal_q < fal_hi; fal_q++) { int fal_v = hg->dist[fal_q]; if (memcmp(&fal_v, &fal_snp[fal_q - fal_lo], sizeof fal_v)) { fal_qv[fal_q - fal_lo] = fal_v; fal_lfix_push(&fal_lf3, (double)fal_v, fal_q); } } } fal_mpi_lfix_window(&fal_lf3, fal_lw, hg->fal_mpi, hg->npoints); if (fal_lw) { int64_t fal_lq; while (fal_lfix_take(&fal_lf3, &fal_lq)) { fal_point t = (fal_point)fal_lq; { int fal_sv = hg->dist[t]; if (!memcmp(&fal_sv, &fal_snp[t - fal_lo], sizeof fal_sv)) continue; fal_snp[t - fal_lo] = fal_sv; } do {
#line 38 "partition_mpi.fal"
                             relax(t, hg); } while (0); for (int64_t fal_le = hg->fal_base.csr.offsets[t]; fal_le < hg->fal_base.csr.offsets[t + 1]; fal_le++) { int64_t fal_x = hg->fal_base.csr.dst[fal_le]; if (fal_x >= fal_lo && fal_x < fal_hi) { int fal_xv = hg->dist[fal_x]; if (memcmp(&fal_xv, &fal_snp[fal_x - fal_lo], sizeof fal_xv) && memcmp(&fal_xv, &fal_qv[fal_x - fal_lo], sizeof fal_xv)) { fal_qv[fal_x - fal_lo] = fal_xv; fal_lfix_push(&fal_lf3, (double)fal_xv, fal_x); } } } } } if (fal_lf3.n) FAL_SET_FLAG(hg->changed[0]); } fal_tv3 = 1; } }
fal_G_mpi_end(hg); }
#line 38 "partition_mpi.fal"

    if (hg->changed[0] == 0)
      break;
  } }fal_prof_end("partition_mpi.fal", 36, "ranks (host)", fal_pt0, fal_ra); } }
#line 41 "partition_mpi.fal"

  { fal_G_mpi_begin(hg, 42, 0x0u, FAL_EX_ALIKE); { fal_G *fal_part = hg; int64_t fal_lo = hg->fal_mpi->lo[hg->fal_mpi->rank], fal_hi = hg->fal_mpi->lo[hg->fal_mpi->rank + 1]; { fal_G *hg = fal_part; 
#pragma omp parallel for schedule(dynamic, 256)
#line 42 "partition_mpi.fal"
for (fal_point t = (fal_point)fal_lo; t < fal_hi; t++) { if (!(hg->seen[t] == 0)) continue;
#line 42 "partition_mpi.fal"
                                        hg->hits[t]++; } } }
fal_G_mpi_end_alike(hg); }
#line 42 "partition_mpi.fal"

  long total = 0;
  { __typeof__(total) fal_r4 = 0;
#pragma omp parallel for reduction(+:fal_r4)
#line 44 "partition_mpi.fal"
for (int64_t fal_i4 = hg->fal_mpi->lo[hg->fal_mpi->rank]; fal_i4 < hg->fal_mpi->lo[hg->fal_mpi->rank + 1]; fal_i4++)  fal_r4 += (hg->dist[fal_i4]); fal_mpi_reduce(fal_r4, 0); total += fal_r4; }
#line 44 "partition_mpi.fal"

  printf("%ld %d\n", total, fal_G_fresh(hg)->dist[(1)]);
  return 0;
}
