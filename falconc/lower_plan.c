/*
 * lower_plan.c: prints a loop the planner (plan.c) moved off the host's
 * round trips: one cooperative kernel on the CUDA target, one OpenMP
 * parallel region on the CPU target.  docs/optimiser.md shows the shapes.
 */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

/* The body of one phase, bound to element `fal_i`:
 *   do { fal_point t = (fal_point)fal_i; { if (!(cond)) continue; S } } while (0);
 * (do/while so that a filter's continue ends this phase's body only when
 * phases are fused). */
static void phase_body(Ctx *c, const Step *s)
{
  const Node *n = s->stmt;
  const char *var = text_of(c, node_field(n, F_VARIABLE));
  const char *ct = s->edges ? "fal_edge" : "fal_point";
  int mark = c->nsyms;
  sym_add(c, var, s->edges ? FK_EDGE : FK_POINT, s->graph, NULL);
  putf(c, "do { %s %s = (%s)fal_i; ", ct, var, ct);
  render_foreach_body(c, n, true);
  put(c, " } while (0); ");
  sym_pop(c, mark);
}

static bool fused_next(const LoopPlan *p, int i)
{
  return i + 1 < p->nsteps && p->steps[i + 1].fuse_prev;
}

/* The source's path as the inside of a C string literal. */
static const char *path_literal(Ctx *c)
{
  StrBuf b = {0};
  emit_string_body(&b, c->src->path);
  const char *r = ctx_printf(c, "%s", b.data ? b.data : "");
  strbuf_free(&b);
  return r;
}

static const char *profile_line(Ctx *c, const LoopPlan *p, const char *plan,
                                const char *rounds, bool gpu)
{
  return ctx_printf(c, "%s(\"%s\", %u, \"%s\", fal_pt0, %s);", gpu ? "fal_gprof_end" : "fal_prof_end",
                    path_literal(c), p->loop->loc.line, plan, rounds);
}

/* ---- CUDA: frontiers in the kernel (falcon/cuda.cuh fal_dfront) ----------------- */

/* Generation counters: fal_g<j> for flag j, fal_gu for the union marks of
 * shuffle phases (every thread keeps its own: the kernel's control flow is
 * uniform).  A generation this high is read as dense (fal_ddense), so that
 * the marks (unsigned, compared by atomicMax) never wrap. */
#define DGEN_LIMIT "0x7ffffff0u"

/* After the body ran on fal_i: push the element and (for flags written
 * through neighbours) its out-neighbours whose flag is set into the next
 * generation of each written flag.  Where the current generation is dense
 * the pushes are left to the rebuild scan (fal_dw<j>), except, own = true,
 * the element's own flags in a shuffle, which has no such scan for them. */
static void dfrontier_postcheck(Ctx *c, const LoopPlan *p, const Step *s, const char *g, bool own)
{
  unsigned w = s->wown_mask | s->wnbr_mask;
  for (int j = 0; j < p->nflags; j++) {
    if (!(w >> j & 1))
      continue;
    if (!(own && (s->shuffle_mask >> j & 1)))
      putf(c, "if (!fal_dw%d) ", j);
    putf(c, "if (%s->%s[fal_i]) fal_dpush(&fal_df.l[%d], fal_i, fal_g%d + 1); ", g, p->flags[j], j, j);
  }
  if (!s->wnbr_mask)
    return;
  put(c, "if (");
  bool first = true;
  for (int j = 0; j < p->nflags; j++)
    if (s->wnbr_mask >> j & 1) {
      putf(c, "%s(!fal_dw%d && fal_dopen(&fal_df.l[%d], fal_g%d + 1, fal_df.limit))", first ? "" : " || ",
           j, j, j);
      first = false;
    }
  putf(c, ") for (int64_t fal_e = %s->fal_base.csr.offsets[fal_i]; fal_e < %s->fal_base.csr.offsets[fal_i + 1]; "
       "fal_e++) { int64_t fal_x = %s->fal_base.csr.dst[fal_e]; ", g, g, g);
  for (int j = 0; j < p->nflags; j++)
    if (s->wnbr_mask >> j & 1)
      putf(c, "if (!fal_dw%d && %s->%s[fal_x]) fal_dpush(&fal_df.l[%d], fal_x, fal_g%d + 1); ",
           j, g, p->flags[j], j, j);
  put(c, "} ");
}

/* The one grid-stride loop of a phase with lists, over segments laid end
 * to end: first the points the phase visits (`nvisit` lists: flag indices,
 * or -1 for all points; claim: each point once, the union marks of a
 * shuffle), then for each flag in `rest` the rebuild of its next list
 * from its current one (the points whose flag is still set; all points
 * when it is dense).  One loop instead of one per segment: a thread's
 * chain of dependent loads and atomics is what a small frontier waits on. */
static void dseg_loop(Ctx *c, const LoopPlan *p, const Step *s, const int *visit, int nvisit,
                      bool claim, unsigned rest)
{
  const char *g = gname(c, p->graph);
  int nseg = 0;
  int flag_of[40];
  bool is_rest[40];
  for (int v = 0; v < nvisit; v++) {
    flag_of[nseg] = visit[v];
    is_rest[nseg++] = false;
  }
  for (int j = 0; j < p->nflags; j++)
    if (rest >> j & 1) {
      flag_of[nseg] = j;
      is_rest[nseg++] = true;
    }
  put(c, "    {");
  for (int k = 0; k < nseg; k++) {
    int j = flag_of[k];
    if (j < 0)
      putf(c, " const long long fal_n%d = %s->npoints; const int32_t *fal_p%d = NULL;", k, g, k);
    else
      putf(c, " bool fal_d%d; const long long fal_n%d = fal_dlen(&fal_df.l[%d], fal_g%d, %s->npoints, "
           "fal_df.limit, &fal_d%d); const int32_t *fal_p%d = fal_d%d ? NULL : fal_df.l[%d].ids[fal_g%d & 1];",
           k, k, j, j, g, k, k, k, j, j);
  }
  put(c, "\n    if (fal_leader) fal_vis += 0");
  for (int k = 0; k < nseg; k++)
    if (!is_rest[k])
      putf(c, " + fal_n%d", k);
  put(c, ";\n    const long long fal_nt = 0");
  for (int k = 0; k < nseg; k++)
    putf(c, " + fal_n%d", k);
  put(c, ";\n    for (long long fal_k = blockIdx.x * (long long)blockDim.x + threadIdx.x; fal_k < fal_nt; "
      "fal_k += (long long)gridDim.x * blockDim.x) { long long fal_r = fal_k; int fal_seg = 0; ");
  for (int k = 0; k + 1 < nseg; k++)
    putf(c, "if (fal_r >= fal_n%d) { fal_r -= fal_n%d; fal_seg++; ", k, k);
  for (int k = 0; k + 1 < nseg; k++)
    put(c, "}");
  put(c, "\n    const int32_t *fal_p = fal_p0;");
  for (int k = 1; k < nseg; k++)
    putf(c, " if (fal_seg == %d) fal_p = fal_p%d;", k, k);
  put(c, " const int64_t fal_i = fal_p ? (int64_t)fal_p[fal_r] : (int64_t)fal_r;\n    ");
  if (nvisit > 0) {
    putf(c, "if (fal_seg < %d) { ", nvisit);
    if (claim)
      putf(c, "if (!fal_dclaim(&fal_df.l[%d], fal_i, fal_gu + 1)) continue; ", p->nflags);
    phase_body(c, s);
    dfrontier_postcheck(c, p, s, g, s->shuffle);
    put(c, "continue; }\n    ");
  }
  for (int k = nvisit; k < nseg; k++)
    putf(c, "if (fal_seg == %d) { if (%s->%s[fal_i]) fal_dpush(&fal_df.l[%d], fal_i, fal_g%d + 1); } ", k, g,
         p->flags[flag_of[k]], flag_of[k], flag_of[k]);
  put(c, "} }\n");
}

/* A phase of the kernel with lists (the CPU's emit_frontier_phase, as
 * one loop): a shuffle visits the union of its flags' lists (all points
 * when one is dense) and pushes each element's own flags, so only flags
 * outside its mask need a rebuild; a filtered phase visits its flag's
 * list, and every flag it writes gets one.  Then the length two
 * generations ahead is zeroed, the counters move on, and a grid barrier
 * ends the phase.  Returns whether it ended with one. */
static bool emit_dfrontier_phase(Ctx *c, const LoopPlan *p, const Step *s)
{
  unsigned w = s->wown_mask | s->wnbr_mask;
  put(c, "    {\n");
  for (int j = 0; j < p->nflags; j++)
    if (w >> j & 1)
      putf(c, "    const bool fal_dw%d = fal_ddense(&fal_df.l[%d], fal_g%d, fal_df.limit);\n", j, j, j);
  if (s->shuffle) {
    int visit[32], nv = 0, all = -1;
    for (int j = 0; j < p->nflags; j++)
      if (s->shuffle_mask >> j & 1)
        visit[nv++] = j;
    put(c, "    if (fal_gu >= " DGEN_LIMIT);
    for (int v = 0; v < nv; v++)
      putf(c, " || fal_ddense(&fal_df.l[%d], fal_g%d, fal_df.limit)", visit[v], visit[v]);
    put(c, ")\n");
    dseg_loop(c, p, s, &all, 1, false, w & ~s->shuffle_mask);
    put(c, "    else\n");
    dseg_loop(c, p, s, visit, nv, true, w & ~s->shuffle_mask);
  } else {
    dseg_loop(c, p, s, &s->filter, 1, false, w);
  }
  for (int j = 0; j < p->nflags; j++)
    if (w >> j & 1)
      putf(c, "    if (fal_leader) fal_df.l[%d].cnt[(fal_g%d + 2) %% 3] = 0;\n    fal_g%d++;\n", j, j, j);
  if (s->shuffle)
    put(c, "    fal_gu++;\n");
  put(c, "    }\n");
  if (!w && !s->shuffle)
    return false;
  put(c, "    fal_grid.sync();\n");
  return true;
}

/* ---- CUDA: a flag shuffle that stores only what changes -------------------------- */

/* A shuffle phase (`t.X = 0;` / `t.X = t.Y;`, plan.c shuffle_body) in a
 * scanning kernel: each store only where the value differs.  The phase
 * touches X only through its element (plan.c: a shuffle's flags are the
 * element's own), so no other thread reads or writes X[t] while it runs,
 * and skipping a store of the value X[t] already holds leaves the same
 * memory.  Most flags are 0 and stay 0 from round to round: the scan then
 * reads them and writes almost nothing. */
static void shuffle_stores(Ctx *c, const LoopPlan *p, const Step *s)
{
  const char *g = gname(c, p->graph);
  resync(c, s->stmt->start);
  put(c, "do { const int64_t fal_x = fal_i; ");
  for (int k = 0; k < s->nshuf; k++) {
    const char *x = p->flags[s->shx[k]];
    const Prop *pr = program_prop(c->prog, x);
    const char *T = pr && pr->ctype ? pr->ctype : "int";
    if (s->shy[k] < 0)
      putf(c, "{ const %s fal_v = 0; ", T);
    else
      putf(c, "{ const %s fal_v = %s->%s[fal_x]; ", T, g, p->flags[s->shy[k]]);
    putf(c, "if (%s->%s[fal_x] != fal_v) %s->%s[fal_x] = fal_v; } ", g, x, g, x);
  }
  put(c, "} while (0); ");
}

/* ---- CUDA: one cooperative kernel --------------------------------------------- */

/* A phase over a Collection's elements (plan.c plan_coll_phase): the
 * elements below its size as the phase starts, each bound as fal_i. */
static void coll_phase(Ctx *c, const Step *s)
{
  const Sym *cs = sym_find(c, s->coll, strlen(s->coll));
  if (cs)
    note_use(c, cs, s->stmt);
  /* In a kernel of 32 x FAL_BLOCK/32 blocks (loop_warp_form): a warp per
   * element where lower_warp.c's rule holds, else a thread per element
   * numbered across both dimensions. */
  WarpInfo wi;
  bool w = c->loop_warp && warp_body_check(c, s->stmt, NULL, &wi, NULL);
  putf(c, "    { fal_coll *fal_cb = %s; const int64_t fal_cn = fal_coll_size(fal_cb);\n", s->coll);
  if (w) {
    /* A warp per element while the grid has a warp for each (the
     * round's elements wait on their latency, which the lanes sharing
     * the neighbours shorten); beyond that a thread each, the kernel's
     * warp bodies told so (fal_wphase).  fal_cn is the same in every
     * thread: nothing adds to the Collection a phase visits (plan.c). */
    put(c, "    const bool fal_ws = fal_cn > (int64_t)gridDim.x * blockDim.y * FAL_LOOP_WARP_ROUNDS; "
        "fal_wphase(fal_ws);\n"
        "    if (!fal_ws) for (int64_t fal_k = blockIdx.x * (int64_t)blockDim.y + threadIdx.y; "
        "fal_k < fal_cn; fal_k += (int64_t)gridDim.x * blockDim.y) { const int64_t fal_i = "
        "*(const fal_point *)fal_coll_at(fal_cb, fal_k); ");
    WarpScope ws = warp_begin(c, &wi);
    phase_body(c, s);
    warp_end(c, ws);
    put(c, "} else\n");
  }
  if (c->loop_warp)
    put(c, "    for (int64_t fal_k = blockIdx.x * (int64_t)(blockDim.x * blockDim.y) + "
        "threadIdx.y * blockDim.x + threadIdx.x; fal_k < fal_cn; "
        "fal_k += (int64_t)gridDim.x * blockDim.x * blockDim.y) { ");
  else
    put(c, "    for (int64_t fal_k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_k < fal_cn; "
        "fal_k += (int64_t)gridDim.x * blockDim.x) { ");
  put(c, "const int64_t fal_i = *(const fal_point *)fal_coll_at(fal_cb, fal_k); ");
  phase_body(c, s);
  put(c, "} }\n");
}

/* Whether a loop kernel over Collections runs with a warp per element
 * (blocks of 32 x FAL_BLOCK/32): every phase is over a Collection, one
 * of them at least passes lower_warp.c's rule (its lanes share the
 * element's neighbour loops), and no other phase or step calls a warp
 * body (there FAL_WN would be 32 for code a thread runs alone).  Small
 * rounds wait on their elements' latency: the lanes sharing an
 * element's few neighbours shorten it (docs/optimiser.md, "A warp per
 * element"). */
static bool loop_warp_form(Ctx *c, const LoopPlan *p)
{
  if (!p->colls)
    return false;
  bool any = false;
  for (int i = 0; i < p->nsteps; i++) {
    const Step *s = &p->steps[i];
    if (s->kind == STEP_PHASE && !s->coll)
      return false;
    if (s->kind == STEP_PHASE && warp_body_check(c, s->stmt, NULL, NULL, NULL))
      any = true;
    else if (calls_warp_body(c, s->stmt))
      return false;
  }
  return any;
}

/* The copies back of the host variables loop kernel `name` wrote (its
 * leader's, fal_lo_NAME_VAR), after the kernel. */
static void written_copies(StrBuf *st, const LoopPlan *p, const char *name)
{
  for (int i = 0; i < p->nwritten; i++)
    strbuf_printf(st, "FAL_CUDA(cudaMemcpyFromSymbol(&%s, fal_lo_%s_%s, sizeof %s)); ",
                  p->written[i], name, p->written[i], p->written[i]);
}

/* Whether the topology-driven loop's MINs on other parts' points may go
 * to their owners now (falcon/cuda.cuh fal_rm_ready), graph g (as the
 * host names it); makes the parts' contexts the first time. */
const char *rm_ready_expr(Ctx *c, const char *g)
{
  return ctx_printf(c, "fal_rm_ready(&%s, %s->fal_bx, %s->fal_lo, %s->fal_nparts, "
                    "(const char *)%s->fal_parts, sizeof *%s->fal_parts, (size_t)((char *)&%s->"
                    "fal_parts[0].%s - (char *)%s->fal_parts), %d, __FILE__, __LINE__)",
                    c->topo_rm, g, g, g, g, g, g, c->rm_P, g, c->rm_push ? 1 : 0);
}

/* The launch's argument slots (slot: "fal_pa" or "fal_pa[fal_pi]") for
 * the kernel's captures, in their order: the partitioned graph's is
 * `part` (its part's graph), the others' their addresses. */
static void capture_args(Ctx *c, const LoopPlan *p, StrBuf *st, const char *slot, const char *part)
{
  for (int i = 0; i < c->ncaps; i++) {
    const Capture *cp = &c->caps[i];
    if (cp->what == CAP_GRAPH && strcmp(cp->name, p->graph) == 0)
      strbuf_printf(st, "%s[%d] = (void *)%s; ", slot, i, part);
    else
      strbuf_printf(st, "%s[%d] = %s%s; ", slot, i, cp->what == CAP_GRAPH ? "(void *)" : "(void *)&",
                    cp->name);
  }
}

/* Whether a level-synchronous loop's kernel with one barrier a round
 * pulls (plan.c: the level and pull rules held, on the flag the barrier
 * combines or on none). */
static bool kernel_pulls(const LoopPlan *p)
{
  return p->pull && p->sync_P && p->level && strcmp(p->level, p->sync_P) == 0 &&
         (!p->pull_flag || (p->pull_flag_gp && p->sync_flag && strcmp(p->pull_flag, p->sync_flag) == 0));
}

/* FALCON_PROFILE: the rounds that the kernel `name` pulled, as a line of
 * their own ("pull rounds (kernel)"). */
static const char *kernel_pulls_profile(Ctx *c, const LoopPlan *p, const char *name)
{
  return ctx_printf(c, "if (fal_prof_enabled()) { long long fal_lp = 0; "
                    "FAL_CUDA(cudaMemcpyFromSymbol(&fal_lp, fal_lp_%s, sizeof fal_lp)); "
                    "fal_prof_end(\"%s\", %u, \"pull rounds (kernel)\", fal_prof_t0(), fal_lp); } ",
                    name, path_literal(c), p->loop->loc.line);
}

/* A parts plan's launch (docs/optimiser.md "Partitioned loops on the
 * devices"): the kernel once per part, each with its part's graph in place
 * of the partitioned graph and its fal_px last, all at once
 * (fal_pxh_run); then what the leader of part 0's kernel handed back.
 * Sets fal_pgo to 1 when the kernels ran the loop to its end, and leaves
 * it 0 when they could not run (fal_G_px_enter, the start line): nothing
 * changed, the host's rounds go on. */
static const char *parts_launch(Ctx *c, const LoopPlan *p, const char *name)
{
  const char *g = gname(c, p->graph);
  StrBuf st = {0};
  int na = c->ncaps + 1;
  /* own: parts that run their own rounds; rs: one barrier a round (both
   * take the kernels' contexts, df) */
  const bool own = c->px_own, rs = c->px_rs, rm = c->topo_rm && (p->topo || p->sync_P);
  const bool pw = c->px_warp; /* the warp form: each part's fal_pw last */
  strbuf_printf(&st, "if (fal_G_px_enter(%s, __FILE__, __LINE__)) { double fal_pt0 = fal_prof_t0(); "
                "fal_pxh *fal_xh = (fal_pxh *)%s->fal_pxh; void *fal_pa[FAL_PX_MAX][%d]; "
                "void **fal_pv[FAL_PX_MAX]; %s%s%s"
                "for (int fal_pi = 0; fal_pi < %s->fal_nparts; fal_pi++) { ",
                g, g, na + pw, pw ? "static fal_pwh fal_pwm; fal_pw fal_pwv[FAL_PX_MAX]; " : "",
                /* own, rs: device_loop_launch's fal_rm_ready said yes already */
                own || rs ? "int fal_rmon = 1; "
                : rm ? ctx_printf(c, "int fal_rmon = %s; ", rm_ready_expr(c, g)) : "",
                own || rs ? ctx_printf(c, "fal_rm_reset(&%s, %s->fal_bx); ", c->topo_rm, g) : "", g);
  /* the MINs on other parts' points go to their owners (plan.c plan_remote) */
  if (rm)
    strbuf_printf(&st, "%s->fal_parts[fal_pi].fal_rmt = fal_rmon ? fal_rm_part(&%s, fal_pi, %d) : fal_rmv_none(); "
                  "fal_xh->px[fal_pi].ra = %s; ", g, c->topo_rm, own || rs,
                  own || rs ? ctx_printf(c, "fal_rm_part(&%s, fal_pi, 1).ctx", c->topo_rm) : "NULL");
  capture_args(c, p, &st, "fal_pa[fal_pi]", ctx_printf(c, "&%s->fal_parts[fal_pi]", g));
  const bool kp = rs && kernel_pulls(p); /* the kernels may pull: their rule's inputs */
  if (kp)
    strbuf_printf(&st, "fal_dstate_start(&fal_xh->px[fal_pi].pd, 1, %s->directed, %s->npoints, %s->nedges); ",
                  g, g, g);
  if (p->topo && c->topo_sn) /* the parts' last-seen values, kept by the host's rounds too */
    strbuf_printf(&st, "fal_xh->px[fal_pi].seen = %s; fal_xh->px[fal_pi].tv = %s; ",
                  topo_seen_expr(c, "fal_pi", ctx_printf(c, "%s->fal_parts[fal_pi].fal_base.device", g),
                                 ctx_printf(c, "(%s->fal_lo[fal_pi + 1] - %s->fal_lo[fal_pi])", g, g)),
                  c->topo_tv);
  if (pw)
    strbuf_printf(&st, "fal_pwv[fal_pi] = fal_pw_make(&fal_pwm, fal_pi, &%s->fal_parts[fal_pi].fal_base, "
                  "%s->fal_lo[fal_pi], %s->fal_lo[fal_pi + 1], __FILE__, __LINE__); "
                  "fal_pa[fal_pi][%d] = (void *)&fal_pwv[fal_pi]; ", g, g, g, c->ncaps + 1);
  strbuf_printf(&st, "fal_pa[fal_pi][%d] = (void *)&fal_xh->px[fal_pi]; fal_pv[fal_pi] = fal_pa[fal_pi]; } "
                "int fal_pok = fal_pxh_run%s(fal_xh, %s->fal_bx, (const void *)%s, fal_pv, %s\"%s\", "
                "__FILE__, __LINE__); ", c->ncaps, pw ? "_w" : "", g, name, pw ? "1, " : "", name);
  if (rm)
    strbuf_printf(&st, "for (int fal_pi = 0; fal_pi < %s->fal_nparts; fal_pi++) { "
                  "%s->fal_parts[fal_pi].fal_rmt = fal_rmv_none(); fal_xh->px[fal_pi].ra = NULL; } ", g, g);
  if (own)
    strbuf_printf(&st, "if (fal_pok) fal_rm_report(&%s, %s->fal_bx, __FILE__, __LINE__); ", c->topo_rm, g);
  strbuf_printf(&st, "if (fal_pok) { long long fal_lr = 0; fal_pgo = 1; fal_cuda_use(%s->fal_bx->dev[0]); "
                "FAL_CUDA(cudaMemcpyFromSymbol(&fal_lr, fal_lr_%s, sizeof fal_lr)); ", g, name);
  written_copies(&st, p, name);
  if (kp)
    strbuf_printf(&st, "%s", kernel_pulls_profile(c, p, name));
  /* parts that ran their own rounds left the ghosts as they were: one
   * refresh from the owners (the exchange's, merging nothing) */
  /* (rs: the ghosts are their owners' values already, but not the
   * shadows the exchange keeps: the same refresh) */
  strbuf_printf(&st, "%sfal_G_px_leave(%s); %s } }",
                own || rs ? ctx_printf(c, "fal_G_bx_end(%s, 1, FAL_EX_OWN); ", g) : "", g,
                profile_line(c, p, own ? "parts (own rounds)" : rs ? "parts (one barrier)" : "parts",
                             "fal_lr", true));
  const char *r = ctx_printf(c, "%s", st.data);
  strbuf_free(&st);
  return r;
}

/* --mpi --target=gpu, a loop with LoopPlan.mpx (emit_mpi_loop): the launch
 * of the kernel that every rank runs on its own points, the rank's GPU
 * graph in place of the partitioned graph, its fal_px last (fal_mpx_run,
 * falcon/mpi.cuh).  Before it the GPU takes what host code wrote
 * (fal_G_mpi_dbegin); after it, if the kernels ran, the rank's ghosts
 * take their owners' values (fal_mpx_leave), the host graph learns that
 * the GPU and the other ranks hold newer values (as after an exchange),
 * the graph properties come back, and the loop's variables are rank 0's
 * (its kernel is the single process's part 0).  Sets fal_pgo as
 * parts_launch does. */
static const char *mpx_launch(Ctx *c, const LoopPlan *p, const char *name)
{
  const char *g = gname(c, p->graph), *mx = c->mpx;
  const char *P = p->sync_P ? p->sync_P : p->topo;
  StrBuf st = {0};
  const bool pw = c->px_warp; /* the warp form: the rank's fal_pw last */
  strbuf_printf(&st, "{ double fal_pt0 = fal_prof_t0(); fal_G_mpi_dbegin(%s); fal_G *fal_d = %s->fal_mpi_gpu; "
                "fal_px fal_mpxp = %s.px; void *fal_pa[%d]; ", g, g, mx, c->ncaps + 1 + pw);
  if (pw)
    strbuf_printf(&st, "static fal_pwh fal_pwm; fal_pw fal_pwv = fal_pw_make(&fal_pwm, 0, &fal_d->fal_base, "
                  "fal_mpxp.lo, fal_mpxp.hi, __FILE__, __LINE__); fal_pa[%d] = (void *)&fal_pwv; ",
                  c->ncaps + 1);
  if (p->topo && c->topo_sn) /* the rank's last-seen values, kept by the host's rounds too */
    strbuf_printf(&st, "fal_mpxp.seen = %s; fal_mpxp.tv = %s; ",
                  topo_seen_expr(c, "0", "fal_d->fal_base.device",
                                 "(fal_mpxp.hi - fal_mpxp.lo)"), c->topo_tv);
  capture_args(c, p, &st, "fal_pa", "fal_d");
  const bool kp = p->sync_P && kernel_pulls(p); /* the kernels may pull: their rule's inputs */
  if (kp)
    strbuf_printf(&st, "fal_dstate_start(&fal_mpxp.pd, 1, %s->directed, %s->npoints, %s->nedges); ", g, g, g);
  strbuf_printf(&st, "fal_pa[%d] = (void *)&fal_mpxp; fal_d->fal_rmt = fal_mpx_rmv(&%s, %s.df); "
                "int fal_pok = fal_mpx_run%s(&%s, (const void *)%s, fal_pa, %s\"%s\", __FILE__, __LINE__); "
                "fal_d->fal_rmt = fal_rmv_none(); ",
                c->ncaps, mx, mx, pw ? "_w" : "", mx, name, pw ? "1, " : "", name);
  strbuf_printf(&st, "if (fal_pok) { long long fal_lr = 0; fal_pgo = 1; "
                "FAL_CUDA(cudaMemcpyFromSymbol(&fal_lr, fal_lr_%s, sizeof fal_lr)); ", name);
  written_copies(&st, p, name);
  if (kp)
    strbuf_printf(&st, "%s", kernel_pulls_profile(c, p, name));
  for (int i = 0; i < p->nwritten; i++)
    strbuf_printf(&st, "fal_mpi_bcast0(&%s, sizeof %s); ", p->written[i], p->written[i]);
  strbuf_printf(&st, "fal_mpx_leave(&%s, %s->fal_mpi, %s->fal_mpi_did, fal_d->%s, sizeof *fal_d->%s); "
                "%s->fal_mpi_devstale = 1; %s->fal_mpi_stale = %s->fal_mpi->nranks > 1; ",
                mx, g, g, P, P, g, g, g);
  strbuf_printf(&st, "fal_G_mpi_gp_back(%s); %s } }", g,
                profile_line(c, p, p->sync_P ? "ranks (one barrier)" : "ranks (own rounds)",
                             "fal_lr", true));
  const char *r = ctx_printf(c, "%s", st.data);
  strbuf_free(&st);
  return r;
}

/* Whether phase s may write a graph property (addProperty, §3.1, the only
 * values fal_G_px_end combines between parts): then after it fal_G_px_end
 * may write the combined value (no part's value changes otherwise). */
static bool phase_writes_gprop(const Program *prog, const Step *s)
{
  for (int i = 0; i < s->nacc; i++) {
    const Prop *pr = s->acc[i].write ? program_prop(prog, s->acc[i].name) : NULL;
    if (pr && pr->kind == PK_GRAPH)
      return true;
  }
  return false;
}

/* A parts plan with gp_copy: whether the steps after phase i, up to the
 * next phase (the round taken as a cycle), read the thread's copy of the
 * graph properties (plan.c gp_copy_rule). */
static bool window_reads_copy(const LoopPlan *p, int i)
{
  for (int n = 1; n < p->nsteps; n++) {
    const Step *s = &p->steps[(i + n) % p->nsteps];
    if (s->kind == STEP_PHASE)
      break;
    for (int j = 0; j < s->nacc; j++)
      if (s->acc[j].copy)
        return true;
  }
  return false;
}

/* The loop's condition, as every thread reads it (with gp_copy, the
 * graph properties from the thread's copy). */
static void render_cond(Ctx *c, const LoopPlan *p, const char *g)
{
  c->gp_copy = p->gp_copy ? g : NULL;
  render(c, p->steps[0].stmt);
  c->gp_copy = NULL;
}

static const char *prop_ctype(Ctx *c, const char *name);

/* The phase's filter as one thread evaluates it, its variable bound (for
 * the lanes of part_phase_warp), or NULL when it has none. */
static const char *phase_filter(Ctx *c, const Step *s)
{
  const Node *n = s->stmt, *fc = node_field(n, F_CONDITION);
  if (!fc)
    return NULL;
  const char *var = text_of(c, node_field(n, F_VARIABLE));
  int mark = c->nsyms;
  sym_add(c, var, FK_POINT, s->graph, NULL);
  StrBuf b = {0}, *out = c->out;
  c->out = &b;
  render(c, fc);
  c->out = out;
  sym_pop(c, mark);
  const char *r = ctx_printf(c, "%s", b.data ? b.data : "1");
  strbuf_free(&b);
  return r;
}

/* The warp form's phase (pw_rule; docs/optimiser.md "Parts kernels with
 * a warp per point"): a thread per hub of the part takes its skip test
 * and filter (the hub's decision, fal_pw.go), a grid barrier, then blocks
 * take hubs' pieces and warps groups of 32 points from the round's
 * counters (cuda.cuh fal_pw_piece, fal_pw_group); a group's lanes take
 * the skip test, the hub test and the filter on a point each, and the
 * warp runs the body on those that passed (lower_loop.c
 * render_kernel_foreach's lanes).  fal_wr counts the phase's rounds. */
static void part_phase_warp(Ctx *c, const LoopPlan *p, const Step *s)
{
  const char *g = gname(c, p->graph);
  const char *var = text_of(c, node_field(s->stmt, F_VARIABLE));
  const char *f = phase_filter(c, s);
  const char *T = p->topo ? prop_ctype(c, p->topo) : NULL;
  /* the skip test (a topology-driven loop) and the filter, into flag x */
#define PW_TEST(x)                                                                             \
  ctx_printf(c, "%s%s",                                                                        \
             !p->topo ? ""                                                                     \
                      : ctx_printf(c, "if (fal_snp) { %s fal_sv = %s->%s[fal_i]; if (fal_tvk && " \
                                      "fal_sv == fal_snp[fal_i - fal_px.lo]) " x " = false; else " \
                                      "fal_snp[fal_i - fal_px.lo] = fal_sv; } ", T, g, p->topo),  \
             !f ? "" : ctx_printf(c, "if (" x ") { fal_point %s = (fal_point)fal_i; " x " = (%s); } ", \
                                  var, f))
  WarpInfo wi;
  warp_body_check(c, s->stmt, NULL, &wi, NULL);
  StrBuf wb = {0}, *out = c->out;
  c->out = &wb;
  WarpScope ws = warp_begin(c, &wi);
  phase_body(c, s);
  warp_end(c, ws);
  c->out = out;
  const char *body = ctx_printf(c, "%s", wb.data ? wb.data : "");
  strbuf_free(&wb);
  put(c, "    if (fal_leader) fal_pw_next(fal_pw, fal_wr);\n"
         "    if (fal_pw.hk.nh) { /* the hubs' decisions, then their pieces */\n"
         "      for (int64_t fal_q = blockIdx.x * (int64_t)(blockDim.x * blockDim.y) + threadIdx.y * "
         "blockDim.x + threadIdx.x; fal_q < fal_pw.hk.nh; fal_q += (int64_t)gridDim.x * blockDim.x * "
         "blockDim.y) { int64_t fal_i = fal_pw.hk.d[fal_pw.hk.h0 + fal_q]; bool fal_go = true; ");
  put(c, PW_TEST("fal_go"));
  putf(c, "fal_pw.go[fal_q] = fal_go; }\n"
          "      fal_grid.sync();\n"
          "      fal_bbegin();\n"
          "      if (threadIdx.x == 0 && threadIdx.y == 0)\n"
          "        fal_wdec = true; /* (decided above) */\n"
          "      __syncthreads();\n"
          "      for (int64_t fal_q; (fal_q = fal_pw_piece(fal_pw, fal_wr)) >= 0;) { int64_t fal_h = "
          "fal_pw.hk.ih[fal_q]; if (!fal_pw.go[fal_h - fal_pw.hk.h0]) continue; int64_t fal_i = "
          "fal_pw.hk.d[fal_h]; fal_hpiece(fal_pw.hk, fal_q, fal_h); %s}\n"
          "      fal_wbegin();\n    }\n", body);
  putf(c, "    for (int64_t fal_c; (fal_c = fal_pw_group(fal_pw, fal_wr, fal_px.lo, fal_px.hi)) >= 0;) {\n"
          "      unsigned fal_lm;\n"
          "      { int64_t fal_i = fal_c + threadIdx.x; bool fal_tk = false;\n"
          "        if (fal_i < fal_px.hi && !FAL_HUB(%s, (fal_point)fal_i, fal_pw.hd)) { fal_tk = true; ",
       g);
  put(c, PW_TEST("fal_tk"));
#undef PW_TEST
  putf(c, "}\n        fal_lm = __ballot_sync(0xffffffffu, fal_tk); }\n"
          "      while (fal_lm) { int64_t fal_i = fal_c + __ffs(fal_lm) - 1; fal_lm &= fal_lm - 1; %s}\n"
          "    }\n    fal_wr++;\n", body);
  if (p->topo)
    put(c, "    fal_tvk = 1;\n");
}

/* A phase of a parts kernel: a loop over the part's own points. */
static void part_phase_loop(Ctx *c, const LoopPlan *p, const Step *s)
{
  if (c->px_warp) {
    part_phase_warp(c, p, s);
    return;
  }
  put(c, "    for (int64_t fal_i = fal_px.lo + blockIdx.x * (int64_t)blockDim.x + threadIdx.x; "
         "fal_i < fal_px.hi; fal_i += (int64_t)gridDim.x * blockDim.x) { ");
  if (p->topo)
    put(c, topo_skip_code(c, gname(c, p->graph), p->topo, prop_ctype(c, p->topo), "fal_px.lo"));
  phase_body(c, s);
  put(c, "}\n");
  if (p->topo)
    put(c, "    fal_tvk = 1;\n");
}

/* One scalar step of a loop kernel: its own line, run by the leader or by
 * every thread, and with gp_copy (plan.c gp_copy_rule) the graph
 * properties that every thread reads from its copy. */
static void loop_step(Ctx *c, const LoopPlan *p, const Step *s, const char *g)
{
  /* The step's own line, so that a compiler's message about it names
   * the .fal line (phases get theirs from render_foreach_body). */
  if (c->opt->line_directives)
    emit_line_directive(c->out, s->stmt->loc.line, c->src->path);
  put(c, s->leader ? "    if (fal_leader) " : "    ");
  c->loop_step = true;
  c->gp_copy = p->gp_copy && !s->leader ? g : NULL;
  render(c, s->stmt);
  c->gp_copy = NULL;
  c->loop_step = false;
  put(c, "\n");
}

/* The steps after phase `ph` up to the next phase (after the last phase:
 * to the end of the body, the round's count, the condition and the steps
 * before the first phase), in a do-while whose break is the loop's: the
 * steps' own `break` leaves it with fal_brk set (plan.c gp_early). */
static void early_window(Ctx *c, const LoopPlan *p, int ph, int first, const char *g)
{
  put(c, "    fal_brk = 1;\n    do {\n");
  int i = ph + 1;
  for (; i < p->nsteps && p->steps[i].kind != STEP_PHASE; i++)
    loop_step(c, p, &p->steps[i], g);
  if (i == p->nsteps) { /* the round ends: count it, test the condition, start the next */
    put(c, "    fal_rounds++;\n    if (!");
    render_cond(c, p, g);
    put(c, ")\n      break;\n");
    for (i = 1; i < first; i++)
      loop_step(c, p, &p->steps[i], g);
  }
  put(c, "      fal_brk = 0;\n    } while (0);\n");
}

/* Round 0 of a parts kernel (parts_early_body, parts_own_body): the
 * condition and the steps before the first phase (steps[first]), in a
 * do-while whose break leaves fal_brk set; `what` names them. */
static void parts_round0(Ctx *c, const LoopPlan *p, const char *g, int first, const char *what)
{
  putf(c, "  int fal_brk = 1;\n  do { /* round 0: %s */\n    if (!", what);
  render_cond(c, p, g);
  put(c, ")\n      break;\n");
  for (int i = 1; i < first; i++)
    loop_step(c, p, &p->steps[i], g);
  put(c, "    fal_brk = 0;\n  } while (0);\n");
}

/* A parts plan with gp_early (plan.c): the body of its kernel.  The
 * steps between two phases run between the exchange's two barriers
 * (fal_G_px_mid, then fal_px_sync), so the second orders the leader's
 * writes before the next phase and no grid barrier starts a phase.  The
 * other parts read a part's graph properties from what it published at
 * the first (x.pub), never from its memory, which the leader may then
 * write.  A break is taken after the second barrier, which every part's
 * kernel must reach. */
static void parts_early_body(Ctx *c, const LoopPlan *p, const char *g)
{
  int first = 0, last = 0;
  for (int i = 1; i < p->nsteps; i++)
    if (p->steps[i].kind == STEP_PHASE) {
      if (!first)
        first = i;
      last = i;
    }
  parts_round0(c, p, g, first, "the condition and the steps before the first phase");
  putf(c, "  if (fal_leader) fal_G_px_before(%s, (fal_G_gb *)fal_px.gb);\n"
          "  fal_grid.sync();\n  while (!fal_brk) {\n", g);
  for (int i = first; i <= last; i++) {
    const Step *s = &p->steps[i];
    if (s->kind != STEP_PHASE)
      continue;
    part_phase_loop(c, p, s);
    putf(c, "    fal_G_px_mid(fal_grid, fal_px, %s, fal_nb, %s, &fal_gv, %d);\n", g,
         ex_name(s->part_own), window_reads_copy(p, i));
    early_window(c, p, i, first, g);
    putf(c, "    if (fal_leader && !fal_brk) fal_G_px_before(%s, (fal_G_gb *)fal_px.gb);\n"
            "    fal_px_sync(fal_grid, fal_px, fal_nb); /* the exchange's last barrier */\n"
            "    if (fal_brk)\n      break;\n", g);
  }
  put(c, "  }\n");
}

/* The start that parts_own_body and parts_rs_body share, for a loop of
 * one phase whose steps before it only zero the flag (plan.c
 * flag_loop_shape): round 0, a grid barrier, the rounds' loop opened and
 * the phase over the part's own points.  Returns the phase's step. */
static int flag_loop_head(Ctx *c, const LoopPlan *p, const char *g, const char *pre)
{
  int ph = 0;
  for (int i = 1; i < p->nsteps; i++)
    if (p->steps[i].kind == STEP_PHASE)
      ph = i;
  parts_round0(c, p, g, ph, "the condition and the flag's zeroing");
  put(c, "  fal_grid.sync();\n  while (!fal_brk) {\n");
  if (pre) /* (parts_rs_body's pull rounds: the phase in their else) */
    put(c, pre);
  part_phase_loop(c, p, &p->steps[ph]);
  return ph;
}

/* A parts plan with own_rounds (plan.c parts_own_rule), the kernel whose
 * parts run their own rounds (docs/optimiser.md "Cut edges that write
 * their owner"): round 0 as in parts_early_body (the condition, a
 * constant, and the flag's zeroing); then the phase over the part's own
 * points, whose MINs on other parts' points go to their owners
 * (fal_rmt, set by the launch), the leader's counters, and
 * fal_ra_round, which zeroes the flag for the next round and says
 * whether there is one.  No exchange: the ghosts are refreshed once,
 * after the kernels (parts_launch). */
static void parts_own_body(Ctx *c, const LoopPlan *p, const char *g)
{
  int ph = flag_loop_head(c, p, g, NULL);
  for (int i = ph + 1; i < p->nsteps; i++) /* the counters (and updatePartition: nothing) */
    if (p->steps[i].leader && !p->steps[i].brk)
      loop_step(c, p, &p->steps[i], g);
  putf(c, "    fal_rounds++;\n    if (!fal_ra_round(fal_grid, fal_px, &%s->%s[0]))\n      break;\n  }\n",
       g, p->own_flag);
}

/* A parts plan with sync_P (plan.c parts_sync_rule), the kernel with one
 * barrier between the parts a round (docs/optimiser.md
 * "Level-synchronous loops over parts"): round 0 as in parts_own_body
 * (the condition, a constant, and the flag's zeroing); then the phase over
 * the part's own points, whose MINs go to the owners and to every ghost
 * (fal_rmt with hold, set by the launch), and fal_rs_round, which takes
 * the parts' flags into the thread's copy and zeroes the flag for the next
 * round (so the steps before the phase, which only zero it, are not
 * printed again); then the steps after the phase (the break on the flag,
 * which reads the copy, and counters), run by every thread as in the
 * rounds in step. */
static void parts_rs_body(Ctx *c, const LoopPlan *p, const char *g)
{
  /* pull rounds in the kernel (docs/optimiser.md "Pull rounds inside the
   * parts' kernel"): each round pushes (the phase) or pulls (fal_kpull
   * over the part's own points), as fal_kd says; a round that counts has
   * its new points counted, by the pull itself or, after a push, by a
   * pass over the part's own points and a second barrier, and the counts
   * combined at the barrier decide the next round's direction.  Every
   * thread of every part holds the same fal_kd. */
  const bool kp = kernel_pulls(p);
  const char *T = kp ? prop_ctype(c, p->level) : NULL;
  if (kp)
    put(c, "  fal_dstate fal_kd = fal_px.pd;\n  unsigned long long fal_kc[2] = {0, 0};\n");
  const char *pre =
      !kp ? NULL
          : ctx_printf(c, "    const %s fal_kv = (%s)(%s); /* the round's value */\n"
                          "    const bool fal_kpl = fal_kd.dir, fal_kcn = fal_dstate_counts(&fal_kd);\n"
                          "    fal_kd.pulls += fal_kpl;\n"
                          "    if (fal_kpl) {\n"
                          "      fal_kpull<%s>(fal_px, %s->fal_rmt, %s->%s, %s->fal_base.csr.offsets, "
                          "%s->fal_base.csr.dst, fal_kv, %d, (%s)(%s), %s, fal_kcn);\n    } else {\n",
                       T, T, p->lev, T, g, g, p->level, g, g, p->pull_k ? 1 : 0, T,
                       p->pull_k ? p->pull_k : "0",
                       p->pull_flag ? ctx_printf(c, "&%s->%s[0]", g, p->pull_flag) : "(int *)NULL");
  int ph = flag_loop_head(c, p, g, pre);
  if (kp)
    putf(c, "    }\n    fal_gv.%s = fal_rs_round_c(fal_grid, fal_px, &%s->%s[0], fal_nb, "
            "fal_kpl && fal_kcn ? fal_kc : (unsigned long long *)NULL);\n",
         p->sync_flag, g, p->sync_flag);
  else
    putf(c, "    fal_gv.%s = fal_rs_round(fal_grid, fal_px, &%s->%s[0], fal_nb);\n", p->sync_flag,
         g, p->sync_flag);
  put(c, "    fal_brk = 1;\n    do {\n");
  for (int i = ph + 1; i < p->nsteps; i++)
    loop_step(c, p, &p->steps[i], g);
  put(c, "    fal_rounds++;\n      fal_brk = 0;\n    } while (0);\n");
  if (kp)
    putf(c, "    if (!fal_brk && fal_kcn) {\n"
            "      if (!fal_kpl) { /* the push round's new points, once its MINs are in */\n"
            "        fal_kcount<%s>(fal_px, %s->%s, %s->fal_base.csr.offsets, (%s)(fal_kv + 1));\n"
            "        (void)fal_rs_round_c(fal_grid, fal_px, &%s->%s[0], fal_nb, fal_kc);\n"
            "      }\n      fal_dstate_decide(&fal_kd, (long long)fal_kc[0], (long long)fal_kc[1]);\n    }\n",
         T, g, p->level, g, T, g, p->sync_flag);
  put(c, "  }\n");
}

/* Prints the loop's cooperative kernel into c->kernels and returns the
 * host statement that launches it and copies back what it hands over
 * (one line, no newline); *kname (if given) is the kernel's name.  fr:
 * the kernel with lists (p->frontier), which takes the lists as its last
 * parameter (fal_dfront fal_df) from the host variable `dfront`. */
static const char *device_loop_kernel(Ctx *c, const LoopPlan *p, const char **kname, bool fr,
                                      const char *dfront, const char **ok)
{
  const Node *loop = p->loop;
  const char *name = kernel_name(c, loop, fr ? "loopfr" : c->px_own ? (c->px_warp ? "loopownw" : "loopown")
                                          : c->px_rs ? (c->px_warp ? "looprsw" : "looprs") : "loop");
  bool wk = !fr && loop_warp_form(c, p);
  if (wk && c->opt->explain)
    fprintf(stderr, "%s:%u: loop kernel: blocks of 32 x 8, a warp per element in its phases over "
            "Collections that share neighbour loops while a round's elements are at most "
            "twice the grid's warps, a thread per element beyond\n", c->src->path,
            loop->loc.line);
  KernelState saved = kernel_enter(c);
  bool saved_lk = c->loop_kernel, saved_wk = c->loop_warp;
  c->loop_kernel = true;
  c->loop_warp = wk;
  const char *g = p->graph;
  gname(c, g);
  StrBuf body = {0}, *out = c->out;
  c->out = &body;
  if (fr) {
    /* The lists from a scan, as generation 1 of every flag. */
    put(c, "  unsigned fal_gu = 0");
    for (int j = 0; j < p->nflags; j++)
      putf(c, ", fal_g%d = 0", j);
    put(c, ";\n");
    putf(c, "  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; fal_i < %s->npoints; "
         "fal_i += (int64_t)gridDim.x * blockDim.x) { ", gname(c, g));
    for (int j = 0; j < p->nflags; j++)
      putf(c, "if (%s->%s[fal_i]) fal_dpush(&fal_df.l[%d], fal_i, 1); ", gname(c, g),
           p->flags[j], j);
    put(c, "}\n");
    for (int j = 0; j < p->nflags; j++)
      putf(c, "  fal_g%d = 1;\n", j);
    put(c, "  fal_grid.sync();\n");
  }
  const char *rot = p->rot, *slots = NULL;
  if (rot) {
    const Sym *fs = sym_find(c, rot, strlen(rot));
    slots = ctx_printf(c, "fal_rot_%s", name);
    strbuf_printf(&c->kernels, "__device__ %s %s[3];\n", fs && fs->ctype ? fs->ctype : "int", slots);
    /* Round 0 writes slot 0; its condition reads slot 2: F as it is. */
    putf(c, "  if (fal_leader) { %s[2] = %s; %s[0] = 0; }\n  fal_grid.sync();\n  int fal_rs = 0;\n",
         slots, rot, slots);
    c->rot_var = rot;
    c->rot_expr = ctx_printf(c, "%s[fal_rs == 0 ? 2 : fal_rs - 1]", slots);
  }
  if (p->parts && p->gp_copy) /* read before the start line's barrier */
    putf(c, "  fal_G_gb fal_gv; /* the graph properties as the last exchange left them */\n"
            "  fal_G_px_before(%s, &fal_gv);\n", g);
  const bool topo = p->topo && !fr && c->topo_sn;
  if (topo && p->parts)
    putf(c, "  %s *fal_snp = (%s *)fal_px.seen; /* the part's last-seen values, or NULL */\n"
            "  int fal_tvk = fal_px.tv;\n", prop_ctype(c, p->topo), prop_ctype(c, p->topo));
  else if (topo)
    put(c, "  int fal_tvk = fal_tv0; /* fal_snp holds the points' last-seen values */\n");
  if (p->parts) /* every part's kernel is running, or none goes on */
    put(c, c->px_own ? "  fal_ra_begin();\n  if (!fal_px_start(fal_grid, fal_px))\n    return;\n"
           : c->px_rs ? "  unsigned long long fal_nb = 0;\n  fal_ra_begin();\n"
                        "  if (!fal_px_start(fal_grid, fal_px))\n    return;\n"
                      : "  unsigned long long fal_nb = 0;\n"
                        "  if (!fal_px_start(fal_grid, fal_px))\n    return;\n");
  if (c->px_warp)
    put(c, "  unsigned fal_wr = 0; /* the phase's rounds (part_phase_warp) */\n");
  if (c->px_own) {
    parts_own_body(c, p, g);
  } else if (c->px_rs) {
    parts_rs_body(c, p, g);
  } else if (p->gp_early) {
    parts_early_body(c, p, g);
  } else {
    put(c, "  while ");
    render_cond(c, p, g);
    put(c, " {\n");
    if (rot)
      c->rot_expr = ctx_printf(c, "%s[fal_rs]", slots);
    bool synced = false; /* the last thing printed was a grid barrier */
    /* Parts: after fal_G_px_end of a phase that writes a graph property the
     * threads may still be writing the combined value (one value, lower.c),
     * so a step that writes a shared object needs a barrier first.  At the
     * top of the body: as the last round's last phase left it. */
    bool gp_pending = false;
    for (int i = 1; p->parts && !p->gp_copy && i < p->nsteps; i++)
      if (p->steps[i].kind == STEP_PHASE)
        gp_pending = phase_writes_gprop(c->prog, &p->steps[i]);
    for (int i = 1; i < p->nsteps; i++) {
      const Step *s = &p->steps[i];
      if (gp_pending && s->kind == STEP_SCALAR && (s->writes || s->opaque)) {
        put(c, "    fal_grid.sync(); /* the combined graph properties are written */\n");
        synced = true;
        gp_pending = false;
      }
      if (rot && i == 1) {
        /* F = 0, for the next round's slot (plan.c rot_rule). */
        putf(c, "    if (fal_leader) %s[fal_rs == 2 ? 0 : fal_rs + 1] = 0;\n", slots);
        continue;
      }
      /* With lists every phase has loops of its own: phases the plan fused
       * get a barrier between them instead (always legal).  With the flag's
       * slots the first phase needs no barrier: it conflicted only with the
       * condition and the zeroing, through F (plan.c rot_rule). */
      if (p->parts && s->kind == STEP_PHASE) {
        /* the graph properties before it, for the exchange after it */
        putf(c, "    if (fal_leader) fal_G_px_before(%s, (fal_G_gb *)fal_px.gb);\n    fal_grid.sync();\n",
             g);
        part_phase_loop(c, p, s);
        putf(c, "    fal_G_px_end(fal_grid, fal_px, %s, fal_nb, %s, %s, %d);\n", g,
             ex_name(s->part_own), p->gp_copy ? "&fal_gv" : "NULL",
             p->gp_copy && window_reads_copy(p, i));
        synced = true; /* but for the graph properties' writes: gp_pending */
        gp_pending = !p->gp_copy && phase_writes_gprop(c->prog, s);
        continue;
      }
      if ((s->sync_before || (fr && s->fuse_prev)) && !synced && !(rot && i == 2)) {
        put(c, "    fal_grid.sync();\n");
        gp_pending = false;
      }
      synced = false;
      if (s->kind == STEP_PHASE && s->coll) {
        coll_phase(c, s);
      } else if (s->kind == STEP_PHASE && fr) {
        synced = emit_dfrontier_phase(c, p, s);
      } else if (s->kind == STEP_PHASE) {
        if (!s->fuse_prev)
          putf(c, "    for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; "
               "fal_i < %s->%s; fal_i += (int64_t)gridDim.x * blockDim.x) { ",
               g, s->edges ? "nedges" : "npoints");
        if (topo) /* the loop's one phase: skip unchanged points */
          put(c, topo_skip_code(c, g, p->topo, prop_ctype(c, p->topo), "0"));
        if (s->shuffle && s->nshuf > 0)
          shuffle_stores(c, p, s);
        else
          phase_body(c, s);
        if (!fused_next(p, i))
          put(c, "}\n");
        if (topo)
          put(c, "    fal_tvk = 1;\n");
      } else {
        loop_step(c, p, s, g);
      }
    }
    if (p->steps[0].sync_before && !synced)
      put(c, "    fal_grid.sync();\n");
    put(c, "    fal_rounds++;\n");
    if (rot) {
      put(c, "    fal_rs = fal_rs == 2 ? 0 : fal_rs + 1;\n  }\n");
      /* The value the last condition read. */
      putf(c, "  if (fal_leader) %s = %s[fal_rs == 0 ? 2 : fal_rs - 1];\n", rot, slots);
      c->rot_var = c->rot_expr = NULL;
    } else {
      put(c, "  }\n");
    }
  }
  c->out = out;
  c->loop_kernel = saved_lk;
  c->loop_warp = saved_wk;

  StrBuf params = {0}, views = {0}, args = {0};
  kernel_signature(c, &params, &views, &args, NULL, NULL);
  if (fr)
    strbuf_puts(&params, ", fal_dfront fal_df");
  if (topo && !p->parts)
    strbuf_printf(&params, ", %s *fal_snp, int fal_tv0", prop_ctype(c, p->topo));
  if (p->parts)
    strbuf_puts(&params, ", fal_px fal_px");
  if (c->px_warp)
    strbuf_puts(&params, ", fal_pw fal_pw");
  StrBuf *k = &c->kernels;
  /* What the loop hands back: its rounds and the host variables it wrote. */
  strbuf_printf(k, "__device__ long long fal_lr_%s;\n", name);
  if (fr)
    strbuf_printf(k, "__device__ long long fal_lv_%s;\n", name);
  const bool kp = c->px_rs && kernel_pulls(p); /* its pulled rounds (FALCON_PROFILE) */
  if (kp)
    strbuf_printf(k, "__device__ long long fal_lp_%s;\n", name);
  for (int i = 0; i < p->nwritten; i++) {
    const Sym *s = sym_find(c, p->written[i], strlen(p->written[i]));
    strbuf_printf(k, "__device__ %s fal_lo_%s_%s;\n", s && s->ctype ? s->ctype : "int",
                  name, p->written[i]);
  }
  if (c->opt->line_directives)
    emit_line_directive(k, loop->loc.line, c->src->path);
  /* (the warp form of a parts kernel: blocks of 32 x FAL_BLOCK/32, and
   * registers for FAL_PW_BLOCKS of them a multiprocessor) */
  const bool w2 = wk || c->px_warp;
  strbuf_printf(k, "__global__ void %s%s(%s)\n{\n%s"
                "  cooperative_groups::grid_group fal_grid = cooperative_groups::this_grid();\n"
                "  const bool fal_leader = blockIdx.x == 0 && threadIdx.x == 0%s;\n"
                "%s  long long fal_rounds = 0;\n%s%s"
                "  if (fal_leader%s) {\n    fal_lr_%s = fal_rounds;\n",
                c->px_warp ? "__launch_bounds__(FAL_BLOCK, FAL_PW_BLOCKS) " : "",
                name, params.data ? params.data : "", views.data ? views.data : "",
                w2 ? " && threadIdx.y == 0" : "", w2 ? "  fal_wbegin();\n" : "",
                fr ? "  long long fal_vis = 0;\n" : "", body.data ? body.data : "",
                /* (ranks: each its own copy; the host takes rank 0's) */
                p->parts && !c->mpx ? " && fal_px.me == 0" : "", name);
  if (fr)
    strbuf_printf(k, "    fal_lv_%s = fal_vis;\n", name);
  if (kp)
    strbuf_printf(k, "    fal_lp_%s = fal_kd.pulls;\n", name);
  for (int i = 0; i < p->nwritten; i++)
    strbuf_printf(k, "    fal_lo_%s_%s = %s;\n", name, p->written[i], p->written[i]);
  strbuf_puts(k, "  }\n}\n");

  /* The launch: the kernel's parameters by address, in capture order.
   * Collections: the device struct's address (fal_dc_NAME), room for a
   * launch's adds before, and after the kernel the stores the host
   * handles name and the adds' errors (falcon/cuda.cuh fal_gc_loop_done);
   * *ok: the condition that each can go (fal_gc_loop_ok). */
  StrBuf launch = {0}, cpre = {0}, cpost = {0}, cok = {0};
  for (int i = 0; i < c->ncaps; i++) {
    const Capture *cp = &c->caps[i];
    if (cp->what == CAP_COLL) {
      strbuf_printf(&launch, "%s(void *)&fal_dc_%s", i ? ", " : "", cp->name);
      strbuf_printf(&cpre, "fal_coll *fal_dc_%s = fal_hc_dev(%s); fal_hc_prepare(%s, __FILE__, __LINE__); ",
                    cp->name, cp->name, cp->name);
      strbuf_printf(&cpost, "fal_gc_loop_done(%s, \"%s\", __FILE__, __LINE__); ", cp->name, cp->name);
      strbuf_printf(&cok, "%sfal_gc_loop_ok(%s, %s->fal_base.device)", cok.data ? " && " : "",
                    cp->name, g);
      continue;
    }
    strbuf_printf(&launch, "%s%s%s", i ? ", " : "", cp->what == CAP_GRAPH ? "(void *)" : "(void *)&",
                  cp->name);
  }
  if (ok)
    *ok = cok.data ? ctx_printf(c, "%s", cok.data) : NULL;
  if (fr)
    strbuf_printf(&launch, ", (void *)&%s", dfront);
  if (topo && !p->parts)
    strbuf_printf(&launch, ", (void *)&fal_snp, (void *)&%s", c->topo_tv);
  /* (a parts plan's launch reads the captures, which kernel_leave drops) */
  const char *r = !p->parts ? NULL : c->mpx ? mpx_launch(c, p, name) : parts_launch(c, p, name);
  kernel_leave(c, &saved);
  if (!p->parts) {
    StrBuf st = {0};
    strbuf_printf(&st, "{ fal_cuda_use(%s->fal_base.device); double fal_pt0 = fal_prof_t0(); %s%s"
                  "void *fal_args[] = {%s}; long long fal_lr = 0; "
                  "fal_coop_launch%s((const void *)%s, fal_args, \"%s\", __FILE__, __LINE__%s); %s"
                  "FAL_CUDA(cudaMemcpyFromSymbol(&fal_lr, fal_lr_%s, sizeof fal_lr)); ",
                  gname(c, g), cpre.data ? cpre.data : "",
                  topo ? ctx_printf(c, "%s *fal_snp = %s; ", c->topo_T,
                                    topo_seen_expr(c, "0", ctx_printf(c, "%s->fal_base.device", gname(c, g)),
                                                   ctx_printf(c, "%s->npoints", gname(c, g))))
                       : "",
                  launch.data ? launch.data : "",
                  wk ? "_dim" : p->colls ? "_cap" : "", name, name,
                  wk ? ", FAL_COLL_LOOP_BLOCKS_PER_SM, true"
                     : p->colls ? ", FAL_COLL_LOOP_BLOCKS_PER_SM" : "",
                  cpost.data ? cpost.data : "", name);
    written_copies(&st, p, name);
    strbuf_puts(&st, profile_line(c, p, fr ? "frontier" : "device", "fal_lr", true));
    if (fr)
      strbuf_printf(&st, " if (fal_prof_enabled()) { long long fal_lv = 0; "
                    "FAL_CUDA(cudaMemcpyFromSymbol(&fal_lv, fal_lv_%s, sizeof fal_lv)); "
                    "fal_prof_visits(\"%s\", %u, \"frontier\", fal_lv); }",
                    name, path_literal(c), loop->loc.line);
    strbuf_puts(&st, " }");
    r = ctx_printf(c, "%s", st.data);
    strbuf_free(&st);
  }
  strbuf_free(&launch);
  strbuf_free(&cpre);
  strbuf_free(&cpost);
  strbuf_free(&cok);
  strbuf_free(&body);
  strbuf_free(&params);
  strbuf_free(&views);
  strbuf_free(&args);
  if (kname)
    *kname = name;
  return r;
}

/* Whether a parts plan's own-rounds or one-barrier kernel (c->px_own,
 * c->px_rs) gets a warp form beside it (docs/optimiser.md "Parts kernels
 * with a warp per point"): its one phase is a foreach over the points
 * whose body passes lower_warp.c's rule and is one neighbour loop and
 * nothing else (warp_split_check: a hub's edges may go in pieces), in a
 * program that does not mutate graphs. */
static bool pw_rule(Ctx *c, const LoopPlan *p)
{
  if (!c->gpu || !p->parts || c->prog->mutates)
    return false;
  const Step *ph = NULL;
  for (int i = 0; i < p->nsteps; i++)
    if (p->steps[i].kind == STEP_PHASE) {
      if (ph)
        return false;
      ph = &p->steps[i];
    }
  if (!ph || ph->edges || ph->coll || ph->shuffle)
    return false;
  WarpInfo wi;
  return warp_body_check(c, ph->stmt, NULL, &wi, NULL) && warp_split_check(c, ph->stmt, &wi);
}

/* The launch of a px_own or px_rs kernel (of one process's parts, or of
 * MPI ranks under c->mpx), *kname (if given) the thread form's name; with
 * a warp form beside it (pw_rule: *made), the warp form where `pick`
 * holds, else the thread form. */
static const char *pw_launch(Ctx *c, const LoopPlan *p, const char *pick, const char **kname,
                             bool *made)
{
  const char *thread = device_loop_kernel(c, p, kname, false, NULL, NULL);
  *made = pw_rule(c, p);
  if (!*made)
    return thread;
  if (c->opt->explain && !c->mpx)
    fprintf(stderr, "%s:%u: parts kernel: also a warp per point (blocks of 32 x 8, hubs in pieces, "
            "work from counters) on graphs whose degree takes warps%s\n", c->src->path,
            p->loop->loc.line, c->px_own ? "; the loop moves into it at its first round" : "");
  c->px_warp = true;
  const char *warp = device_loop_kernel(c, p, NULL, false, NULL, NULL);
  c->px_warp = false;
  return ctx_printf(c, "if (%s) { %s } else { %s }", pick, warp, thread);
}

/* The launch of a planned loop's kernel.  With frontiers (p->frontier) two
 * kernels: with lists where fal_dfront_wanted says so (FALCON_FRONTIERS=on:
 * on the graphs measured the scans were faster) and their GPU memory could
 * be had, else the one that scans all points. */
static const char *device_loop_launch(Ctx *c, const LoopPlan *p, const char **kname,
                                      const char **ok, const char **first)
{
  /* (first: when the kernels would take the warp form, the condition for
   * the switch to move the loop into them at once, fal_loop_switch_first) */
  const char *g = gname(c, p->graph);
  const char *pick = ctx_printf(c, "fal_pw_pick(&%s->fal_parts[0].fal_base)", g);
  bool made = false;
  if (first)
    *first = NULL;
  if (p->parts && p->sync_P && c->topo_rm) {
    /* one barrier a round where the MINs can go to their owners and the
     * ghosts (fal_rm_ready), else rounds with the exchange */
    c->px_rs = true;
    c->ra_hold = true;
    const char *rs = pw_launch(c, p, pick, NULL, &made);
    c->px_rs = false;
    /* a kernel that pulls: into it at the first round where FALCON_PULL_IN
     * says kernel (by default the host's rounds, which pull too) */
    if (first && kernel_pulls(p))
      *first = ctx_printf(c, "fal_pull_in(0, %s->directed, %s->npoints, %s->nedges) && %s", g, g,
                          g, rm_ready_expr(c, g));
    const char *step = device_loop_kernel(c, p, kname, false, NULL, ok);
    return ctx_printf(c, "if (%s) { %s } else { %s }", rm_ready_expr(c, g), rs, step);
  }
  if (p->parts && p->own_rounds && c->topo_rm) {
    /* parts that run their own rounds where the MINs can go to their
     * owners (fal_rm_ready), else rounds in step */
    c->px_own = true;
    const char *own = pw_launch(c, p, pick, NULL, &made);
    if (first && made)
      *first = ctx_printf(c, "%s && %s", pick, rm_ready_expr(c, g));
    c->px_own = false;
    const char *step = device_loop_kernel(c, p, kname, false, NULL, ok);
    return ctx_printf(c, "if (%s) { %s } else { %s }", rm_ready_expr(c, g), own, step);
  }
  const char *plain = device_loop_kernel(c, p, kname, false, NULL, ok);
  if (!p->frontier)
    return plain;
  const char *df = ctx_printf(c, "fal_df_L%u_%d", p->loop->loc.line, ++c->uniq);
  const char *with = device_loop_kernel(c, p, NULL, true, df, NULL);
  return ctx_printf(c, "{ static fal_dfront %s; fal_cuda_use(%s->fal_base.device); "
                    "if (fal_dfront_wanted() && fal_dfront_get(&%s, %d, %s->npoints)) "
                    "%s else %s }", df, g, df, p->nflags, g, with, plain);
}

/* --gpu-loops=device: the kernel runs the whole loop. */
/* A topology-driven loop (plan.c topo_rule, or parts_topo_rule for a
 * partitioned graph; docs/optimiser.md "Loops that skip unchanged
 * points"): the last-seen values, one array per part (one for an
 * unpartitioned graph), kept by the host's rounds and the kernel alike
 * (topo_sn, static: reused by the loop's next run), valid once a round
 * has run (topo_tv); none with several parts and no updateFunction at the
 * loop's start (a ghost's value would be taken as it comes, not merged).
 * Opens a block that topo_close ends. */
static void topo_open(Ctx *c, const LoopPlan *p)
{
  if (p->sync_P && p->parts && c->gpu && !c->mpi) {
    /* a level-synchronous loop over parts (plan.c parts_sync_rule): only
     * the contexts, made with pushes; no last-seen values */
    c->rs_n = p->loop;
    c->topo_rm = ctx_printf(c, "fal_rm%d", ++c->uniq);
    c->rm_P = p->sync_P;
    c->rm_push = true;
    putf(c, "{ static fal_rmh %s; ", c->topo_rm);
    return;
  }
  if (!p->topo || p->frontier)
    return;
  int u = ++c->uniq;
  const char *g = gname(c, p->graph);
  c->topo_n = NULL;
  for (int i = 1; i < p->nsteps; i++)
    if (p->steps[i].kind == STEP_PHASE)
      c->topo_n = p->steps[i].stmt;
  c->topo_P = p->topo;
  c->topo_T = prop_ctype(c, p->topo);
  c->topo_sn = ctx_printf(c, "fal_sn%d", u);
  c->topo_tv = ctx_printf(c, "fal_tv%d", u);
  c->topo_ok = ctx_printf(c, "fal_tok%d", u);
  if (p->parts && c->mpi && !c->gpu) { /* a host rank: its last-seen values in host memory */
    c->topo_lf = ctx_printf(c, "fal_lf%d", u);
    c->topo_max = p->topo_max;
    c->topo_win = p->rank_window;
    c->topo_wflag = p->wflag; /* (set only with rank_window) */
    putf(c, "{ static struct { void *p; size_t n; } %s; static fal_lfix %s; int %s = 0, %s = "
         "!%s->fal_mpi || %s->fal_mpi->nranks < 2 || %s->fal_merge != NULL; ", c->topo_sn,
         c->topo_lf, c->topo_tv, c->topo_ok, g, g, g);
  } else if (p->parts && c->mpi) { /* one part a rank, ghosts merged where ranks meet */
    c->topo_rep = ctx_printf(c, "fal_rp%d", u);
    putf(c, "{ static fal_seen %s; static fal_rep %s; int %s = 0, %s = !%s->fal_mpi || "
         "%s->fal_mpi->nranks < 2 || %s->fal_merge != NULL; ", c->topo_sn, c->topo_rep,
         c->topo_tv, c->topo_ok, g, g, g);
  } else if (p->parts && c->gpu) {
    c->topo_rm = ctx_printf(c, "fal_rm%d", u);
    c->rm_P = p->topo;
    c->rm_push = false;
    putf(c, "{ static fal_seen %s; static fal_rmh %s; int %s = 0, %s = %s->fal_nparts < 2 || "
         "%s->fal_merge != NULL; ", c->topo_sn, c->topo_rm, c->topo_tv, c->topo_ok, g, g);
  } else if (p->parts)
    putf(c, "{ static fal_seen %s; int %s = 0, %s = %s->fal_nparts < 2 || %s->fal_merge != NULL; ",
         c->topo_sn, c->topo_tv, c->topo_ok, g, g);
  else
    putf(c, "{ static fal_seen %s; int %s = 0, %s = 1; ", c->topo_sn, c->topo_tv, c->topo_ok);
}

static void topo_close(Ctx *c, const LoopPlan *p)
{
  if (c->rs_n) { /* (its host's rounds keep the exchange: nothing to refresh) */
    put(c, " }");
    c->rs_n = NULL;
    c->topo_rm = c->rm_P = NULL;
    c->rm_push = false;
    return;
  }
  if (!c->topo_sn)
    return;
  if (c->topo_rm) /* host rounds whose MINs went to their owners left the ghosts: refresh them */
    putf(c, " if (%s.old) { %s.old = 0; fal_G_bx_end(%s, 1, FAL_EX_OWN); }", c->topo_rm, c->topo_rm,
         gname(c, p->graph));
  put(c, " }");
  c->topo_n = NULL;
  c->topo_P = c->topo_T = c->topo_sn = c->topo_tv = c->topo_ok = c->topo_rep = NULL;
  c->topo_lf = NULL;
  c->topo_max = false;
  c->topo_win = false;
  c->topo_wflag = NULL;
  c->topo_rm = c->rm_P = NULL;
}

/* While a loop whose rounds may pull prints its phase (lower.h pull_n and
 * the rest; lower_loop.c render_partitioned_foreach): its direction state
 * pd, the level, the round's value, K, and the flag as Fp; pull_g NULL. */
static void pull_ctx_open(Ctx *c, const LoopPlan *p, const char *pd, const char *Fp)
{
  for (int i = 1; i < p->nsteps; i++)
    if (p->steps[i].kind == STEP_PHASE)
      c->pull_n = p->steps[i].stmt;
  c->pull_d = pd;
  c->pull_P = p->level;
  c->pull_T = prop_ctype(c, p->level);
  c->pull_v = p->lev;
  c->pull_K = p->pull_k;
  c->pull_Fp = Fp;
  c->pull_g = NULL;
}

static void pull_ctx_close(Ctx *c)
{
  c->pull_n = NULL;
  c->pull_d = c->pull_P = c->pull_T = c->pull_v = c->pull_K = c->pull_Fp = c->pull_g = NULL;
}

/* --mpi --target=gpu, a loop with LoopPlan.mpx (docs/lowering.md "Ranks on
 * one machine run the single process's kernels"): the host's rounds as
 * emit_mpi_loop prints them, and at the top of each round a check
 * (fal_mpx_switch, falcon/mpi.cuh, which every rank answers alike) that
 * moves the rest of the loop into the kernels of the single process, one
 * a rank, as emit_auto_loop moves a loop into its kernel:
 *   { static fal_mpx M; fal_loop_sw fal_sw = {0};
 *     while (C) { if (fal_mpx_switch(&fal_sw, &M, ...)) { int fal_pgo = 0;
 *                   <mpx_launch> if (fal_pgo) break; fal_sw.state = 2; }
 *                 { <the body, as the host's rounds lower it> } } }
 * The kernel is parts_rs_body's (sync_P: one barrier a round, MINs to the
 * owner and to the other rank's copy) or parts_own_body's (own_rounds);
 * its skip of unchanged points is the parts kernel's, without the host
 * rounds' repetition (topo_rep). */
/* A planned loop's head as written, its condition rendered: `while (C) `
 * or `for (I; C; S) `, up to its body (emit_mpx_loop, emit_mpi_loop and
 * emit_auto_loop put their own code at the body's start). */
static void loop_head(Ctx *c, const Node *loop)
{
  const Node *cond = node_field(loop, F_CONDITION), *body = node_field(loop, F_BODY);
  copy_range(c, loop->start, cond->start);
  render(c, cond);
  copy_range(c, cond->end, body->start);
}

static void emit_mpx_loop(Ctx *c, const LoopPlan *p)
{
  const Node *loop = p->loop;
  const Node *body = node_field(loop, F_BODY);
  const char *g = gname(c, p->graph);
  const char *P = p->sync_P ? p->sync_P : p->topo;
  const char *mx = ctx_printf(c, "fal_mx%d", ++c->uniq), *kname = NULL;
  const char *rep = c->topo_rep;
  c->topo_rep = NULL;
  c->mpx = mx;
  if (p->sync_P) {
    c->px_rs = true;
    c->ra_hold = true;
  } else {
    c->px_own = true;
  }
  /* the warp form (pw_rule) where the rank's GPU graph takes warps; then
   * an own-rounds loop moves into the kernels at its first round
   * (fal_mpx_switch_f) */
  const char *gpick = ctx_printf(c, "%s->fal_mpi_gpu && fal_pw_pick_ranks(&%s->fal_mpi_gpu->fal_base)",
                                 g, g);
  bool pw = false;
  const char *launch = pw_launch(c, p, gpick, &kname, &pw);
  c->px_rs = c->px_own = false;
  c->mpx = NULL;
  c->topo_rep = rep;
  /* the contexts, from the graph's maps (NULL on every rank: the loop
   * keeps the exchange) */
  putf(c, "{ static fal_mpx %s; fal_loop_sw fal_sw = {0}; fal_mpx_ready(&%s, %s->fal_mpxg, "
       "%s->fal_mpi_gpu ? (void *)%s->fal_mpi_gpu->%s : NULL, %d, __FILE__, __LINE__); "
       "double fal_pt0 = fal_prof_t0(); long long fal_ra = 0; ",
       mx, mx, g, g, g, P, p->sync_P ? 1 : 0);
  loop_head(c, loop);
  /* own rounds: at once, as fal_loop_switch_first; one barrier a round
   * with pull rounds: at once where they would pull (the ranks' host
   * rounds push; FALCON_PULL_IN=host keeps them) */
  const bool kpf = p->sync_P && kernel_pulls(p);
  const bool first = (pw && !p->sync_P) || kpf;
  putf(c, "{ if (fal_mpx_switch%s(&fal_sw, &%s, %s->fal_mpi, %s->fal_mpi_gpu && "
       "fal_warp_pick(&%s->fal_mpi_gpu->fal_base), %s(const void *)%s, \"%s\", %u)) { int fal_pgo = 0; "
       "%s if (fal_pgo) break; fal_sw.state = 2; } fal_ra++; ",
       first ? "_f" : "", mx, g, g, g,
       !first ? ""
       : kpf ? ctx_printf(c, "fal_sw.state == 0 && fal_pull_in(1, %s->directed, %s->npoints, "
                          "%s->nedges), ", g, g, g)
             : ctx_printf(c, "fal_sw.state == 0 && %s, ", gpick),
       kname, path_literal(c), loop->loc.line, launch);
  bool saved = c->break_is_continue;
  c->break_is_continue = false;
  int mark = c->nsyms;
  const char *smh = c->mpx_h, *smp = c->mpx_P;
  const Node *smn = c->mpx_n;
  bool smm = c->mpx_max;
  c->mpx_h = mx;
  c->mpx_P = P;
  c->mpx_max = p->sync_P && p->sync_max;
  for (int i = 1; i < p->nsteps; i++)
    if (p->steps[i].kind == STEP_PHASE)
      c->mpx_n = p->steps[i].stmt;
  render(c, body);
  c->mpx_h = smh;
  c->mpx_n = smn;
  c->mpx_P = smp;
  c->mpx_max = smm;
  sym_pop(c, mark);
  c->break_is_continue = saved;
  /* host rounds whose MINs went to their owners left the ghosts: refresh */
  putf(c, " } if (%s.old) fal_mpx_leave(&%s, %s->fal_mpi, %s->fal_mpi_did, %s->fal_mpi_gpu->%s, "
       "sizeof *%s->fal_mpi_gpu->%s); ", mx, mx, g, g, g, P, g, P);
  /* FALCON_PROFILE: each rank's host rounds ("ranks (host)", the loop's
   * whole time, as "auto" in one process); the kernels' line after the
   * move ("ranks (own rounds)" or "ranks (one barrier)") */
  put(c, profile_line(c, p, "ranks (host)", "fal_ra", true));
  put(c, " }");
}

/* --mpi, --target=gpu (plan.c: the host runs the rounds, each foreach
 * ending in the ranks' exchange): the loop as the host lowers it, inside
 * the topology-driven loop's last-seen values when the rule holds, which
 * the rank's kernel takes (lower_loop.c render_partitioned_foreach). */
void emit_mpi_loop(Ctx *c, const LoopPlan *p)
{
  topo_open(c, p);
  /* a loop whose host rounds may pull (plan.c; docs/lowering.md "Pull
   * rounds on host ranks": host ranks, and GPU ranks that do not map
   * each other): the direction's state around the loop;
   * render_partitioned_foreach prints the phase both ways */
  const char *pd = NULL;
  if (p->pull && p->level && p->lev && (!c->gpu || p->sync_P)) {
    const char *g = gname(c, p->graph);
    pd = ctx_printf(c, "fal_md%d", ++c->uniq);
    putf(c, "{ fal_dstate %s; fal_dstate_start(&%s, 1, %s->directed, %s->npoints, %s->nedges); ", pd, pd,
         g, g, g);
    if (c->gpu) /* (the counters on the rank's GPU, fal_mdir_dcount: the
                 * loop site's, as fal_mpx's buffers, made on the first
                 * round that counts and kept, so that a return from the
                 * loop's body leaves nothing behind) */
      putf(c, "static unsigned long long *%s_d; ", pd);
    pull_ctx_open(c, p, pd, p->pull_flag); /* (the flag's name: a graph
                                            * property, each rank's copy) */
  }
  if (c->gpu && p->mpx && mpi_merge_on_gpu(c)) {
    emit_mpx_loop(c, p);
  } else {
    bool saved = c->break_is_continue;
    c->break_is_continue = false;
    int mark = c->nsyms;
    const Node *loop = p->loop, *cond = node_field(loop, F_CONDITION), *body = node_field(loop, F_BODY);
    /* (a while loop: a for loop's init and step would be copied as text) */
    if (cond && body && cond->end <= body->start && loop->end - loop->start > 5 &&
        strncmp(c->src->text + loop->start, "while", 5) == 0) {
      /* FALCON_PROFILE: the rank's rounds and the loop's whole time, as
       * emit_mpx_loop's "ranks (host)" (a host rank's, or a GPU rank's
       * loop that keeps the exchange) */
      put(c, "{ double fal_pt0 = fal_prof_t0(); long long fal_ra = 0; ");
      loop_head(c, loop);
      put(c, "{ fal_ra++; ");
      render(c, body);
      put(c, " }");
      put(c, profile_line(c, p, "ranks (host)", "fal_ra", c->gpu));
      put(c, " }");
    } else
      render_children_of(c, loop);
    sym_pop(c, mark);
    c->break_is_continue = saved;
  }
  if (pd) { /* FALCON_PROFILE: the rounds that pulled */
    putf(c, " fal_prof_end(\"%s\", %u, \"pull rounds (ranks)\", fal_prof_t0(), %s.pulls); }",
         path_literal(c), p->loop->loc.line, pd);
    pull_ctx_close(c);
  }
  topo_close(c, p);
}

static void emit_device_loop(Ctx *c, const LoopPlan *p)
{
  topo_open(c, p);
  put(c, device_loop_launch(c, p, NULL, NULL, NULL));
  topo_close(c, p);
}

/* --gpu-loops=auto (the default): the loop as the host lowers it, and at
 * the top of each round a check (fal_loop_switch, falcon/cuda.cuh) that
 * moves the rest of the loop into its cooperative kernel once the last
 * rounds were short, i.e. launch-bound:
 *   { fal_loop_sw fal_sw = {0}; ...
 *     while (C) { if (fal_loop_switch(&fal_sw, kernel, ...)) { <launch> break; }
 *                 fal_ra++; { <the body, lowered as on the host> } }
 *     <profile: "auto", the host's rounds> }
 * Legal because the kernel starts a round exactly where the host would:
 * the condition has no side effects (plan.c refuses others), the loop's
 * state is in GPU memory or in host variables passed to the kernel by
 * value and copied back after it, and the kernel runs the rounds to the
 * loop's end (its condition false or a break), so the host loop breaks. */
static void emit_auto_loop(Ctx *c, const LoopPlan *p)
{
  const char *kname = NULL, *ok = NULL, *first = NULL;
  const Node *loop = p->loop;
  topo_open(c, p);
  const char *launch = device_loop_launch(c, p, &kname, &ok, &first);
  const Node *body = node_field(loop, F_BODY);
  putf(c, "{ fal_loop_sw fal_sw = {0}; double fal_pt0 = fal_prof_t0(); long long fal_ra = 0; ");
  /* pull rounds (plan.c pull_rule, a level-synchronous loop over GPU
   * parts, or on one GPU): the direction's state, kept by the host's
   * rounds (falcon/cuda.cuh fal_pdir), one a thread (a function with the
   * loop may run in two parallel sections at once, each on its own GPU,
   * and the state holds device buffers); the kernels the loop may move
   * into push */
  const char *pd = NULL;
  if (p->parts && p->pull && p->sync_P && c->gpu && !c->mpi) {
    const char *g = gname(c, p->graph);
    pd = ctx_printf(c, "fal_pd%d", ++c->uniq);
    putf(c, "static thread_local fal_pdir %s; { int fal_ag = %s->fal_nparts > 0 && !%s->fal_shared; "
         "for (int fal_i = 0; fal_i < %s->fal_nparts; fal_i++) fal_ag &= "
         "%s->fal_parts[fal_i].fal_base.on_gpu; fal_pdir_start(&%s, %s->fal_nparts, fal_ag, "
         "%s->directed, %s->npoints, %s->nedges); %s.count = fal_pdir_count<%s>; } ",
         pd, g, g, g, g, pd, g, g, g, g, pd, prop_ctype(c, p->level));
  } else if (!p->parts && p->pull && c->gpu && !c->mpi && !p->colls) {
    /* one GPU: the graph as one part */
    const char *g = gname(c, p->graph);
    pd = ctx_printf(c, "fal_pd%d", ++c->uniq);
    putf(c, "static thread_local fal_pdir %s; fal_pdir_start1(&%s, %s->directed, %s->npoints, "
         "%s->nedges); %s.count = fal_pdir_count<%s>; ", pd, pd, g, g, g, pd,
         prop_ctype(c, p->level));
  }
  loop_head(c, loop);
  /* A phase over a Collection whose body the host's launches run with a
   * warp per element (lower_coll.c) stays with them on graphs whose
   * degree picks that kernel: the loop kernel's grid is one block per
   * multiprocessor, so a large round there takes a thread per element
   * (coll_phase) and a hub's neighbours wait on one thread. */
  bool wphase = false;
  for (int i = 0; ok && i < p->nsteps && !wphase; i++)
    wphase = p->steps[i].kind == STEP_PHASE && p->steps[i].coll &&
             warp_body_check(c, p->steps[i].stmt, NULL, NULL, NULL);
  if (p->parts) /* only where the border exchange runs: GPU parts, no GPU asked;
                 * with the warp form at once (docs/optimiser.md "Parts kernels
                 * with a warp per point") */
    putf(c, "{ if (%s->fal_bx && fal_loop_switch_%s(&fal_sw, (const void *)%s, \"%s\", %u, "
         "%s->fal_nparts, &%s->fal_base%s)) { int fal_pgo = 0; %s if (fal_pgo) break; fal_sw.state = 2; } "
         "fal_ra++; ", gname(c, p->graph), first ? "first" : "parts", kname, path_literal(c),
         loop->loc.line, gname(c, p->graph), gname(c, p->graph),
         first ? ctx_printf(c, ", fal_sw.state == 0 && %s", first) : "", launch);
  else if (ok)
    putf(c, "{ if (%s && fal_loop_switch_x(&fal_sw, (const void *)%s, \"%s\", %u, %s)) "
         "{ %s break; } fal_ra++; ", ok, kname, path_literal(c), loop->loc.line,
         wphase ? ctx_printf(c, "fal_warp_pick(&%s->fal_base) ? FAL_COLL_LOOP_NEVER : "
                             "FAL_COLL_LOOP_AFTER", gname(c, p->graph))
                : "FAL_COLL_LOOP_AFTER", launch);
  else
    putf(c, "{ if (fal_loop_switch(&fal_sw, (const void *)%s, \"%s\", %u)) { %s break; } fal_ra++; ",
         kname, path_literal(c), loop->loc.line, launch);
  bool saved = c->break_is_continue;
  c->break_is_continue = false;
  int mark = c->nsyms;
  if (pd) {
    pull_ctx_open(c, p, pd,
                  !p->pull_flag ? "(int *)NULL"
                  : p->parts    ? ctx_printf(c, "&fal_part->%s[0]", p->pull_flag)
                                : ctx_printf(c, "fal_sym_ptr(%s)", p->pull_flag));
    c->pull_g = p->parts ? NULL : p->graph;
  }
  render(c, body);
  pull_ctx_close(c);
  sym_pop(c, mark);
  c->break_is_continue = saved;
  put(c, " } ");
  /* FALCON_PROFILE: "auto" counts the rounds run from the host; the
   * kernel's own line ("device") the rounds after the move; "pull" the
   * host's rounds that pulled. */
  put(c, profile_line(c, p, "auto", "fal_ra", true));
  if (pd)
    putf(c, " fal_prof_end(\"%s\", %u, \"pull rounds\", fal_prof_t0(), %s.ds.pulls);",
         path_literal(c), loop->loc.line, pd);
  put(c, " }");
  topo_close(c, p);
}

/* ---- CPU: one parallel region ---------------------------------------------------- */

/* The round's tail (emit_region, "One single a round" in docs/optimiser.md):
 * when set, the next `omp single` a phase emitter prints (a list commit)
 * ends with it, and clears it. */
static const char *region_tail;
static bool region_tail_put; /* a single took it */

static void put_tail(Ctx *c)
{
  if (!region_tail)
    return;
  put(c, region_tail);
  region_tail = NULL;
  region_tail_put = true;
}

/* Frontiers: after phase s ran on element fal_i, push the points whose
 * flags it may have set (the element, its out-neighbours) into the next
 * lists of the flags that are not dense; the lists' dedup marks keep one
 * copy of each. */
static void frontier_postcheck(Ctx *c, const LoopPlan *p, const Step *s, const char *g)
{
  unsigned w = s->wown_mask | s->wnbr_mask;
  for (int j = 0; j < p->nflags; j++)
    if (w >> j & 1)
      putf(c, "if (!fal_fr[%d].dense && %s->%s[fal_i]) fal_fbuf_push(&fal_fb[%d], fal_i); ", j, g,
           p->flags[j], j);
  if (s->wnbr_mask) {
    put(c, "if (");
    bool first = true;
    for (int j = 0; j < p->nflags; j++)
      if (s->wnbr_mask >> j & 1) {
        putf(c, "%sfal_front_open(&fal_fr[%d])", first ? "" : " || ", j);
        first = false;
      }
    putf(c, ") for (int64_t fal_e = %s->fal_base.csr.offsets[fal_i]; fal_e < %s->fal_base.csr.offsets[fal_i + 1]; "
         "fal_e++) { int64_t fal_x = %s->fal_base.csr.dst[fal_e]; ", g, g, g);
    for (int j = 0; j < p->nflags; j++)
      if (s->wnbr_mask >> j & 1)
        putf(c, "if (!fal_fr[%d].dense && %s->%s[fal_x]) fal_fbuf_push(&fal_fb[%d], fal_x); ", j, g,
             p->flags[j], j);
    put(c, "} ");
  }
}

/* Opens a block binding the points a loop over fal_fr[j] visits: the k-th
 * is fal_d ? k : fal_ids[k], for k < fal_n (all points when dense). */
static void list_block(Ctx *c, int j)
{
  putf(c, "{ const int fal_d = fal_fr[%d].dense; const int32_t *fal_ids = fal_fr[%d].ids; "
       "const int64_t fal_n = fal_front_len(&fal_fr[%d]);\n", j, j, j);
}

/* One loop of a frontier phase: over fal_fr[j] (all points when dense),
 * or, all = true, over all points. */
static void frontier_loop(Ctx *c, const LoopPlan *p, const Step *s, int j, bool all, bool claim)
{
  const char *g = gname(c, p->graph);
  if (all)
    putf(c, "{ const int fal_d = 1; const int32_t *fal_ids = NULL; const int64_t fal_n = %s->npoints;\n", g);
  else
    list_block(c, j);
  /* Neighbour loops: guided (large chunks of a dense scan, small ones at
   * the end and for short lists); others: static. */
  put(c, "if (omp_get_thread_num() == 0) fal_vis += fal_n;\n");
  pragma_line(c, s->heavy ? "omp for schedule(guided, 16) nowait" : "omp for schedule(static) nowait");
  resync(c, s->stmt->start);
  put(c, "for (int64_t fal_k = 0; fal_k < fal_n; fal_k++) { int64_t fal_i = fal_d ? fal_k : fal_ids[fal_k]; ");
  if (claim)
    put(c, "if (!fal_front_claim(&fal_fu, fal_i)) continue; ");
  phase_body(c, s);
  frontier_postcheck(c, p, s, g);
  put(c, "} }\n");
}

/* Frontiers: a phase over its list (or, a shuffle, over the union of its
 * flags' lists, each point once; over all points when one is dense), then
 * the rebuild of the lists of the flags it writes. */
/* Returns whether it ended with the lists' commit (an omp single, whose
 * implicit barrier makes a barrier right after it redundant). */
static bool emit_frontier_phase(Ctx *c, const LoopPlan *p, const Step *s)
{
  const char *g = gname(c, p->graph);
  unsigned w = s->wown_mask | s->wnbr_mask;
  if (s->shuffle) {
    put(c, "if (");
    bool first = true;
    for (int j = 0; j < p->nflags; j++)
      if (s->shuffle_mask >> j & 1) {
        putf(c, "%sfal_fr[%d].dense", first ? "" : " || ", j);
        first = false;
      }
    put(c, ") ");
    frontier_loop(c, p, s, -1, true, false);
    put(c, "else {\n");
    for (int j = 0; j < p->nflags; j++)
      if (s->shuffle_mask >> j & 1)
        frontier_loop(c, p, s, j, false, true);
    put(c, "}\n");
  } else {
    frontier_loop(c, p, s, s->filter, false, false);
  }
  if (!w && !s->shuffle)
    return false;
  /* The rest of each written flag's next list: the old list's points
   * whose flag is still set, or, for a dense list, a scan of all points. */
  for (int j = 0; j < p->nflags; j++)
    if (w >> j & 1) {
      list_block(c, j);
      pragma_line(c, "omp for schedule(static) nowait");
      putf(c, "for (int64_t fal_k = 0; fal_k < fal_n; fal_k++) { int64_t fal_x = fal_d ? fal_k : fal_ids[fal_k]; "
           "if (%s->%s[fal_x]) fal_fbuf_push(&fal_fb[%d], fal_x); } }\n", g, p->flags[j], j);
    }
  putf(c, "for (int fal_j = 0; fal_j < %d; fal_j++) fal_fbuf_flush(&fal_fb[fal_j]);\n", p->nflags);
  pragma_line(c, "omp barrier");
  pragma_line(c, "omp single");
  put(c, "{ ");
  for (int j = 0; j < p->nflags; j++)
    if (w >> j & 1)
      putf(c, "fal_front_commit(&fal_fr[%d]); ", j);
  if (s->shuffle)
    put(c, "fal_front_commit(&fal_fu); ");
  put_tail(c);
  put(c, "}\n");
  return true;
}

/* The C type of point property `name`. */
static const char *prop_ctype(Ctx *c, const char *name)
{
  const Prop *pr = program_prop(c->prog, name);
  return pr && pr->ctype ? pr->ctype : "int";
}

/* The loop of a phase over a changed-value list (topo, level): the
 * k-th point visited is fal_d ? k : fal_ids[k], k < fal_n; then the
 * element's body. */
static void list_phase_head(Ctx *c, const Step *s, const char *dense, const char *n)
{
  putf(c, "{ const int fal_d = %s; const int32_t *fal_ids = fal_tf.ids; const int64_t fal_n = %s;\n",
       dense, n);
  put(c, "if (omp_get_thread_num() == 0) fal_vis += fal_n;\n");
  pragma_line(c, "omp for schedule(guided, 16) nowait");
  resync(c, s->stmt->start);
  put(c, "for (int64_t fal_k = 0; fal_k < fal_n; fal_k++) { int64_t fal_i = fal_d ? fal_k : fal_ids[fal_k]; ");
  phase_body(c, s);
}

/* After the post-scan: the pushes flushed, and one thread commits. */
static void list_phase_tail(Ctx *c, const char *commit)
{
  put(c, "fal_fbuf_flush(&fal_tb);\n");
  pragma_line(c, "omp barrier");
  pragma_line(c, "omp single");
  put(c, "{ ");
  put(c, commit);
  put_tail(c);
  put(c, "}\n");
}

/* A topology-driven loop's phase (plan.c topo_rule): over the points
 * whose P changed in the round before (all points in the first round or
 * when the list is dense); after an element ran, its out-neighbours whose
 * P differs from the value last seen (fal_pv) go to the next list. */
static void emit_topo_phase(Ctx *c, const LoopPlan *p, const Step *s)
{
  const char *g = gname(c, p->graph), *P = p->topo, *T = prop_ctype(c, P);
  list_phase_head(c, s, "fal_tf.dense", "fal_front_len(&fal_tf)");
  putf(c, "for (int64_t fal_e = %s->fal_base.csr.offsets[fal_i]; fal_e < %s->fal_base.csr.offsets[fal_i + 1]; "
       "fal_e++) { int64_t fal_x = %s->fal_base.csr.dst[fal_e]; %s fal_v, fal_o; "
       "__atomic_load(&%s->%s[fal_x], &fal_v, __ATOMIC_RELAXED); __atomic_load(&fal_pv[fal_x], &fal_o, "
       "__ATOMIC_RELAXED); if (fal_v != fal_o) { __atomic_store(&fal_pv[fal_x], &fal_v, __ATOMIC_RELAXED); "
       "fal_fbuf_push(&fal_tb, fal_x); } } } }\n", g, g, g, T, g, P);
  list_phase_tail(c, "fal_front_commit(&fal_tf);\n");
}

/* A level-synchronous loop's phase (plan.c level_rule): over the points
 * an element set to lev + 1 in the round before, or over all points in
 * the first round and in a round whose lev reaches the smallest level
 * above the first round's that a point had when the loop started
 * (fal_lm); after an element that passed the filter ran, its
 * out-neighbours whose level is lev + 1 go to the next list. */
static void emit_level_phase(Ctx *c, const LoopPlan *p, const Step *s)
{
  const char *g = gname(c, p->graph), *P = p->level, *v = p->lev, *T = prop_ctype(c, P);
  list_phase_head(c, s, ctx_printf(c, "fal_tf.dense || (%s) >= fal_lm", v),
                  ctx_printf(c, "fal_d ? %s->npoints : fal_tf.n", g));
  putf(c, "if (%s->%s[fal_i] == (%s)) for (int64_t fal_e = %s->fal_base.csr.offsets[fal_i]; "
       "fal_e < %s->fal_base.csr.offsets[fal_i + 1]; fal_e++) { int64_t fal_x = %s->fal_base.csr.dst[fal_e]; "
       "%s fal_v; __atomic_load(&%s->%s[fal_x], &fal_v, __ATOMIC_RELAXED); "
       "if (fal_v == (%s) + 1) fal_fbuf_push(&fal_tb, fal_x); } } }\n", g, P, v, g, g, g, T, g, P, v);
  /* A round that scanned because of a starting level: the next such. */
  list_phase_tail(c, ctx_printf(c, "{ if ((%s) >= fal_lm) { fal_lm = fal_lmax; for (int64_t fal_x = 0; "
                                "fal_x < %s->npoints; fal_x++) if (%s->%s[fal_x] > (%s) + 1 && %s->%s[fal_x] < fal_lm) "
                                "fal_lm = %s->%s[fal_x]; } fal_front_commit(&fal_tf); }\n",
                                v, g, g, P, v, g, P, g, P));
}

/* A pull round's scan on the CPU, as C text ending in a newline: each
 * point i of [lo, hi) of graph g whose level P (of C type T) is K (K
 * NULL: any) and above v + 1 looks through its in-edges (off[i] ..
 * off[i + 1] into src) for a neighbour at v, and at the first takes
 * v + 1, runs on_set (C statements, each ending in "; ") and stops
 * looking.  It writes only point i, with relaxed atomics, as the push it
 * replaces reads and writes the levels.  The CPU region's pull
 * (emit_pull_phase, counting as it goes) and host ranks' (lower_loop.c
 * render_partitioned_foreach, over the rank's own points). */
const char *cpu_pull_scan(Ctx *c, const char *g, const char *T, const char *P, const char *K,
                          const char *v, const char *lo, const char *hi, const char *off,
                          const char *src, const char *on_set)
{
  return ctx_printf(c, "for (int64_t fal_i = %s; fal_i < %s; fal_i++) { %s fal_u; "
                    "__atomic_load(&%s->%s[fal_i], &fal_u, __ATOMIC_RELAXED); if (%s%s%s(%s) + 1 < fal_u) "
                    "for (int64_t fal_e = %s[fal_i], fal_n = %s[fal_i + 1]; fal_e < fal_n; fal_e++) { "
                    "%s fal_s; __atomic_load(&%s->%s[%s[fal_e]], &fal_s, __ATOMIC_RELAXED); "
                    "if (fal_s == (%s)) { %s fal_nv = (%s) + 1; __atomic_store(&%s->%s[fal_i], &fal_nv, "
                    "__ATOMIC_RELAXED); %sbreak; } } }\n",
                    lo, hi, T, g, P, K ? "fal_u == (" : "", K ? K : "", K ? ") && " : "", v, off, off,
                    T, g, P, src, v, T, v, g, P, on_set);
}

/* A level-synchronous phase the pull rule (plan.c pull_rule) kept, in the
 * region that scans all points: each round pushes (every point whose
 * level is lev lowers its out-neighbours' to lev + 1, as the program's
 * body does) or pulls (every point the push could set looks through its
 * in-neighbours for one whose level is lev, and stops at the first).
 * Both count the points they set (fal_aw) and those points' out-edges
 * (fal_sc); after the round one thread picks the next direction by the
 * rule of direction-optimising BFS (Beamer et al., the constants 15 and
 * 18 of GAPBS): push until the next frontier's out-edges exceed 1/15 of
 * the edges not yet explored from, then pull until a round sets fewer
 * points than the round before and fewer than 1/18 of all points
 * (fal_dstate_decide, falcon/frontier.h).
 * FALCON_DIRECTION=push or pull forces one (fal_dir_forced). */
static void emit_pull_phase(Ctx *c, const LoopPlan *p, const Step *s)
{
  const char *g = gname(c, p->graph), *P = p->level, *v = p->lev, *T = prop_ctype(c, P);
  const char *K = p->pull_k, *F = p->pull_flag;
  if (F && p->pull_flag_gp) /* a graph property of the (shared) partitioned graph */
    F = ctx_printf(c, "%s->%s[0]", g, F);
  const char *kf = K ? ctx_printf(c, "fal_u == (%s) && ", K) : "";
  const char *set = F ? ctx_printf(c, "FAL_SET_FLAG(%s); ", F) : "";
  putf(c, "{ long long fal_sc1 = 0, fal_aw1 = 0; if (omp_get_thread_num() == 0) fal_vis += %s->npoints;\n"
       "if (fal_ds.dir) {\n", g);
  pragma_line(c, "omp for schedule(dynamic, 1024) nowait");
  resync(c, s->stmt->start);
  put(c, cpu_pull_scan(c, g, T, P, K, v, "0", ctx_printf(c, "%s->npoints", g), "fal_io", "fal_is",
                       ctx_printf(c, "%sfal_aw1++; fal_sc1 += %s->fal_base.csr.offsets[fal_i + 1] - "
                                  "%s->fal_base.csr.offsets[fal_i]; ", set, g, g)));
  put(c, "} else {\n");
  /* Most points of a push round's scan are not in the frontier: chunks
   * of 2,048 (H100 machine's host, 16 threads: bfs.fal kron-20 5.15 ->
   * 4.31 ms, Slashdot 0.534 -> 0.439 against chunks of 256) */
  pragma_line(c, "omp for schedule(dynamic, 2048) nowait");
  resync(c, s->stmt->start);
  putf(c, "for (int64_t fal_i = 0; fal_i < %s->npoints; fal_i++) { %s fal_t; "
       "__atomic_load(&%s->%s[fal_i], &fal_t, __ATOMIC_RELAXED); if (fal_t == (%s)) "
       "for (int64_t fal_e = %s->fal_base.csr.offsets[fal_i], fal_n = %s->fal_base.csr.offsets[fal_i + 1]; "
       "fal_e < fal_n; fal_e++) { int64_t fal_x = %s->fal_base.csr.dst[fal_e]; %s fal_u; "
       "__atomic_load(&%s->%s[fal_x], &fal_u, __ATOMIC_RELAXED); "
       "if (%sFAL_ATOMIC_ANY(min, &%s->%s[fal_x], (%s) + 1)) { %sfal_aw1++; "
       "fal_sc1 += %s->fal_base.csr.offsets[fal_x + 1] - %s->fal_base.csr.offsets[fal_x]; } } }\n}\n",
       g, T, g, P, v, g, g, g, T, g, P, kf, g, P, v, set, g, g);
  put(c, "__atomic_add_fetch(&fal_sc, fal_sc1, __ATOMIC_RELAXED); "
         "__atomic_add_fetch(&fal_aw, fal_aw1, __ATOMIC_RELAXED); }\n");
  pragma_line(c, "omp barrier");
  pragma_line(c, "omp single");
  /* (fal_ds.dir: the direction of the round just run, before the rule
   * picks the next one; FALCON_PROFILE's "pull rounds" line) */
  put(c, "{ fal_ds.pulls += fal_ds.dir; if (fal_ds.counting) fal_dstate_decide(&fal_ds, fal_aw, fal_sc); "
         "fal_sc = fal_aw = 0;\n");
  put_tail(c);
  put(c, "}\n");
}

/* The indices of the loop's first and last phase (0 and 0: none). */
static void phase_span(const LoopPlan *p, int *first, int *last)
{
  *first = *last = 0;
  for (int i = 1; i < p->nsteps; i++)
    if (p->steps[i].kind == STEP_PHASE) {
      *last = i;
      if (!*first)
        *first = i;
    }
}

/* The tail of a round as one thread runs it, or NULL where the loop does
 * not have that shape.  Legal when every step outside the phases (after
 * the last, before the first) is a scalar step the plan gives to one
 * thread (a shared variable written, no call, no reduction, no break):
 * the others only wait for it, and the condition (no side effects, plan.c)
 * is read by that thread after the barrier that ends the round, where
 * the others read it today, so they get the value it would give them.
 * The steps before the first phase then run right after the condition
 * in the same thread, as in the loop's own order.  Saves the barrier
 * between reading the condition and the first step's write, and the one
 * before the first phase. */
static const char *round_tail(Ctx *c, const LoopPlan *p, const char **head)
{
  int first, last;
  phase_span(p, &first, &last);
  if (!first)
    return NULL;
  /* (The planner refuses declarations in the loop body: no step moved
   * into the single's block leaves the phases' scope.) */
  for (int i = 1; i < p->nsteps; i++) {
    const Step *s = &p->steps[i];
    if (i >= first && i <= last)
      continue;
    if (s->kind != STEP_SCALAR || !s->leader || s->redux || s->opaque)
      return NULL;
  }
  StrBuf b = {0}, *out = c->out;
  c->out = &b;
  put(c, "\n");
  put(c, "fal_go = !!");
  render(c, p->steps[0].stmt);
  put(c, "; if (fal_go) {");
  for (int i = 1; i < first; i++) {
    resync(c, p->steps[i].stmt->start);
    render(c, p->steps[i].stmt);
    put(c, "\n");
  }
  put(c, "}\n");
  *head = ctx_printf(c, "%s", b.data);
  b.len = 0;
  put(c, "\n");
  for (int i = last + 1; i < p->nsteps; i++) {
    resync(c, p->steps[i].stmt->start);
    render(c, p->steps[i].stmt);
    put(c, "\n");
  }
  c->out = out;
  const char *r = ctx_printf(c, "%s%s", b.data, *head);
  strbuf_free(&b);
  return r;
}

/* One parallel region running the loop: with the frontier lists (fr),
 * the changed-value list of a topology-driven loop (topo), or scanning
 * all points, fusing what the plan fused. */
static void emit_region(Ctx *c, const LoopPlan *p, bool fr, bool topo, bool level)
{
  const bool pull = p->pull && !fr && !topo && !level;
  const char *g = fr || topo || level || pull ? gname(c, p->graph) : NULL;
  const char *plan = fr || topo || level ? "frontier" : pull ? "region, push/pull" : "region";
  put(c, "{ double fal_pt0 = fal_prof_t0(); long long fal_lr = 0, fal_vis = 0; int fal_go = 0; (void)fal_go;");
  if (topo) {
    /* The first round visits every point (a dense list); fal_pv: the
     * value of P each point had when last looked at. */
    const char *T = prop_ctype(c, p->topo);
    putf(c, " fal_front fal_tf; fal_front_init(&fal_tf, %s->npoints); fal_tf.dense = 1; "
         "%s *fal_pv = (%s *)fal_alloc(((size_t)%s->npoints + 1) "
         "* sizeof *fal_pv); memcpy(fal_pv, %s->%s, (size_t)%s->npoints * sizeof *fal_pv);",
         g, T, T, g, g, p->topo, g);
  }
  if (fr) {
    /* The lists, and at the loop's start every flag's list from a scan. */
    putf(c, " fal_front fal_fr[%d], fal_fu; for (int fal_j = 0; fal_j < %d; fal_j++) "
         "fal_front_init(&fal_fr[fal_j], %s->npoints); fal_front_init(&fal_fu, %s->npoints);",
         p->nflags, p->nflags, g, g);
  }
  if (level) {
    /* fal_lm: the smallest level above lev a point has at the start (a
     * round whose lev reaches it scans all points); fal_lmax: none. */
    const char *T = prop_ctype(c, p->level);
    putf(c, " fal_front fal_tf; fal_front_init(&fal_tf, %s->npoints); fal_tf.dense = 1; "
         "%s fal_lmax = (%s)~(%s)0 > 0 ? (%s)~(%s)0 : (%s)(((unsigned long long)1 "
         "<< (8 * sizeof(%s) - 1)) - 1); %s fal_lm = fal_lmax;",
         g, T, T, T, T, T, T, T, T);
  }
  if (pull) {
    /* fal_ds (falcon/frontier.h fal_dstate, the same state and rule as
     * the GPUs' and the MPI ranks' rounds): whether the next round pulls,
     * the out-edges not yet explored from; fal_sc and fal_aw: the round's
     * counts.  In-edges: the out-edges of an undirected graph, the
     * in-edge lists of a directed one where the program built them (else
     * the rounds all push). */
    putf(c, " long long fal_sc = 0, fal_aw = 0; const int64_t *fal_io = "
         "%s->directed ? %s->fal_base.csr.in_offsets : %s->fal_base.csr.offsets; const fal_point "
         "*fal_is = %s->directed ? %s->fal_base.csr.in_src : %s->fal_base.csr.dst; fal_dstate fal_ds; "
         "fal_dstate_init(&fal_ds, fal_io && fal_is, fal_dir_forced(), %s->nedges, %s->npoints);",
         g, g, g, g, g, g, g, g);
  }
  pragma_line(c, "omp parallel");
  put(c, "{\n");
  if (topo || level)
    put(c, "fal_fbuf fal_tb; fal_tb.f = &fal_tf; fal_tb.n = 0;\n");
  if (level) {
    pragma_line(c, ctx_printf(c, "omp for schedule(static) reduction(min: fal_lm)"));
    putf(c, "for (int64_t fal_x = 0; fal_x < %s->npoints; fal_x++) if (%s->%s[fal_x] > (%s) && "
         "%s->%s[fal_x] < fal_lm) fal_lm = %s->%s[fal_x];\n", g, g, p->level, p->lev, g, p->level, g,
         p->level);
  }
  if (fr) {
    putf(c, "fal_fbuf fal_fb[%d]; for (int fal_j = 0; fal_j < %d; fal_j++) { fal_fb[fal_j].f = &fal_fr[fal_j]; "
         "fal_fb[fal_j].n = 0; }\n", p->nflags, p->nflags);
    pragma_line(c, "omp for schedule(static) nowait");
    putf(c, "for (int64_t fal_x = 0; fal_x < %s->npoints; fal_x++) { ", g);
    for (int j = 0; j < p->nflags; j++)
      putf(c, "if (%s->%s[fal_x]) fal_fbuf_push(&fal_fb[%d], fal_x); ", g, p->flags[j], j);
    put(c, "}\n");
    putf(c, "for (int fal_j = 0; fal_j < %d; fal_j++) fal_fbuf_flush(&fal_fb[fal_j]);\n", p->nflags);
    pragma_line(c, "omp barrier");
    pragma_line(c, "omp single");
    putf(c, "for (int fal_j = 0; fal_j < %d; fal_j++) fal_front_commit(&fal_fr[fal_j]);\n", p->nflags);
  }
  /* One single a round: the steps after the last phase, the condition
   * and the steps before the first phase, run by one thread in one
   * `omp single` (the commit's, where the last phase has one) that hands
   * the condition's value to the others in fal_go. */
  const char *head = NULL, *tail = round_tail(c, p, &head);
  int first_phase, last_phase;
  phase_span(p, &first_phase, &last_phase);
  if (tail) {
    pragma_line(c, "omp single");
    putf(c, "{ %s}\n", head);
    put(c, "while (fal_go) {\n");
  } else {
    put(c, "while ");
    render(c, p->steps[0].stmt);
    put(c, " {\n");
  }
  bool synced = tail != NULL; /* the last thing printed was a barrier */
  region_tail_put = false;
  for (int i = tail ? first_phase : 1; i < p->nsteps; i++) {
    const Step *s = &p->steps[i];
    if (tail && i > last_phase)
      break; /* the steps after the last phase are in the tail */
    /* The last phase may end with a single (a list commit) that can take
     * the tail; fused phases print none (and skip i past the last one). */
    region_tail = tail && i == last_phase ? tail : NULL;
    /* With lists every phase has loops of its own: phases the plan fused
     * get a barrier between them instead (always legal). */
    if (s->sync_before || (fr && s->fuse_prev)) {
      if (!synced)
        pragma_line(c, "omp barrier");
      resync(c, s->stmt->start);
    }
    synced = false;
    if (s->kind == STEP_PHASE && fr) {
      synced = emit_frontier_phase(c, p, s);
    } else if (s->kind == STEP_PHASE && topo) {
      emit_topo_phase(c, p, s);
      synced = true; /* the commit's single ends with a barrier */
    } else if (s->kind == STEP_PHASE && level) {
      emit_level_phase(c, p, s);
      synced = true;
    } else if (s->kind == STEP_PHASE && pull) {
      emit_pull_phase(c, p, s);
      synced = true;
    } else if (s->kind == STEP_PHASE) {
      /* The phase and the phases fused with it: one loop. */
      int last = i;
      bool heavy = false, filtered = false, out = false;
      for (int j = i; j < p->nsteps && (j == i || p->steps[j].fuse_prev); j++) {
        last = j;
        heavy |= p->steps[j].heavy;
        out |= p->steps[j].nbr_out;
        filtered |= node_field(p->steps[j].stmt, F_CONDITION) != NULL;
      }
      const char *g = gname(c, s->graph);
      const char *n = s->edges ? "nedges" : "npoints";
      putf(c, "if (omp_get_thread_num() == 0) fal_vis += %s->%s;\n", g, n);
      /* Every point walks its whole neighbour lists: on graphs of low
       * average degree each thread takes a contiguous share of about
       * equal points plus edges; on skewed graphs, and where a filter
       * makes a point's work unknown, dynamic chunks (docs/optimiser.md,
       * "Edge-balanced loops"; the schedule changes no result, §4.1). */
      bool balanced = heavy && !filtered && !s->edges && !c->prog->mutates;
      if (balanced) {
        putf(c, "if (fal_edge_balanced(&%s->fal_base.csr)) { int64_t fal_lo, fal_hi; "
             "fal_edge_share(%s->fal_base.csr.%s, %s->npoints, &fal_lo, &fal_hi);\n", g, g,
             out ? "offsets" : "in_offsets", g);
        resync(c, s->stmt->start);
        put(c, "for (int64_t fal_i = fal_lo; fal_i < fal_hi; fal_i++) { ");
        for (int j = i; j <= last; j++)
          phase_body(c, &p->steps[j]);
        put(c, "} } else {\n");
      }
      /* (fal_chunk, falcon/falcon.h: at most 64 chunks a thread) */
      pragma_line(c, heavy ? ctx_printf(c, "omp for schedule(dynamic, fal_chunk(%s->%s)) nowait", g, n)
                           : "omp for schedule(static) nowait");
      resync(c, s->stmt->start);
      putf(c, "for (int64_t fal_i = 0; fal_i < %s->%s; fal_i++) { ", g, n);
      for (int j = i; j <= last; j++)
        phase_body(c, &p->steps[j]);
      put(c, balanced ? "} }\n" : "}\n");
      i = last; /* the fused phases are printed */
    } else {
      /* The step's own line, for the C compiler's messages. */
      if (!(s->sync_before || (fr && s->fuse_prev)))
        resync(c, s->stmt->start);
      if (s->leader)
        put(c, "if (omp_get_thread_num() == 0) ");
      c->region = s->redux;
      render(c, s->stmt);
      c->region = false;
      put(c, "\n");
    }
  }
  region_tail = NULL;
  if (tail && !region_tail_put) {
    /* The last phase printed no single of its own. */
    if (!synced)
      pragma_line(c, "omp barrier");
    pragma_line(c, "omp single");
    putf(c, "{ %s}\n", tail);
  } else if (!tail && p->steps[0].sync_before && !synced) {
    pragma_line(c, "omp barrier");
  }
  put(c, "if (omp_get_thread_num() == 0) fal_lr++;\n}\n}\n");
  if (fr)
    putf(c, "for (int fal_j = 0; fal_j < %d; fal_j++) fal_front_free(&fal_fr[fal_j]); "
         "fal_front_free(&fal_fu);\n", p->nflags);
  if (topo)
    put(c, "fal_front_free(&fal_tf); fal_free(fal_pv);\n");
  if (level)
    put(c, "fal_front_free(&fal_tf);\n");
  put(c, profile_line(c, p, plan, "fal_lr", false));
  putf(c, " fal_prof_visits(\"%s\", %u, \"%s\", fal_vis);", path_literal(c), p->loop->loc.line,
       plan);
  if (pull) /* the rounds that pulled, as the GPUs' and ranks' loops print them */
    putf(c, " fal_prof_end(\"%s\", %u, \"pull rounds\", fal_prof_t0(), fal_ds.pulls);",
         path_literal(c), p->loop->loc.line);
  put(c, " }");
}

/* A loop with frontiers is printed twice: the list form, and the plain
 * region for graphs where lists do not pay (fal_front_wanted,
 * falcon/frontier.h), chosen when the loop starts. */
static void emit_region_loop(Ctx *c, const LoopPlan *p)
{
  if (p->frontier || p->topo || p->level) {
    const char *g = gname(c, p->graph);
    putf(c, "if (fal_front_wanted(%s->npoints, %s->nedges)) ", g, g);
    emit_region(c, p, p->frontier, p->topo != NULL, p->level != NULL);
    put(c, " else ");
  }
  emit_region(c, p, false, false, false);
  resync(c, p->loop->end);
}

void emit_planned_loop(Ctx *c, const LoopPlan *p)
{
  /* A loop with Collections moves to the device only while they can go
   * (fal_gc_loop_ok): the auto form, which keeps the host's rounds too
   * (FALCON_GPU_LOOPS=device moves it at once). */
  /* A parts plan too: its kernels run only where every part is a GPU part
   * (fal_G_px_enter), so the host's rounds are always there. */
  if (p->kind == PLAN_DEVICE && (c->opt->gpu_loops == GPU_LOOPS_AUTO || p->colls || p->parts))
    emit_auto_loop(c, p);
  else if (p->kind == PLAN_DEVICE)
    emit_device_loop(c, p);
  else
    emit_region_loop(c, p);
}
