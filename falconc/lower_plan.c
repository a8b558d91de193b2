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

static const char *profile_line(Ctx *c, const LoopPlan *p, const char *plan,
                                const char *rounds, bool gpu)
{
  return ctx_printf(c, "%s(\"%s\", %u, \"%s\", fal_pt0, %s);", gpu ? "fal_gprof_end" : "fal_prof_end",
                    c->src->path, p->loop->loc.line, plan, rounds);
}

/* ---- CUDA: one cooperative kernel --------------------------------------------- */

static void emit_device_loop(Ctx *c, const LoopPlan *p)
{
  const Node *loop = p->loop;
  const char *name = kernel_name(c, loop, "loop");
  KernelState saved = kernel_enter(c);
  bool saved_lk = c->loop_kernel;
  c->loop_kernel = true;
  const char *g = p->graph;
  gname(c, g);
  StrBuf body = {0}, *out = c->out;
  c->out = &body;
  put(c, "  while ");
  render(c, p->steps[0].stmt);
  put(c, " {\n");
  for (int i = 1; i < p->nsteps; i++) {
    const Step *s = &p->steps[i];
    if (s->sync_before)
      put(c, "    fal_grid.sync();\n");
    if (s->kind == STEP_PHASE) {
      if (!s->fuse_prev)
        putf(c, "    for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; "
             "fal_i < %s->%s; fal_i += (int64_t)gridDim.x * blockDim.x) { ",
             g, s->edges ? "nedges" : "npoints");
      phase_body(c, s);
      if (!fused_next(p, i))
        put(c, "}\n");
    } else {
      put(c, s->leader ? "    if (fal_leader) " : "    ");
      render(c, s->stmt);
      put(c, "\n");
    }
  }
  if (p->steps[0].sync_before)
    put(c, "    fal_grid.sync();\n");
  put(c, "    fal_rounds++;\n  }\n");
  c->out = out;
  c->loop_kernel = saved_lk;

  StrBuf params = {0}, views = {0}, args = {0};
  kernel_signature(c, &params, &views, &args, NULL, NULL);
  StrBuf *k = &c->kernels;
  /* What the loop hands back: its rounds and the host variables it wrote. */
  strbuf_printf(k, "__device__ long long fal_lr_%s;\n", name);
  for (int i = 0; i < p->nwritten; i++) {
    const Sym *s = sym_find(c, p->written[i], strlen(p->written[i]));
    strbuf_printf(k, "__device__ %s fal_lo_%s_%s;\n", s && s->ctype ? s->ctype : "int",
                  name, p->written[i]);
  }
  if (c->opt->line_directives)
    emit_line_directive(k, loop->loc.line, c->src->path);
  strbuf_printf(k, "__global__ void %s(%s)\n{\n%s"
                "  cooperative_groups::grid_group fal_grid = cooperative_groups::this_grid();\n"
                "  const bool fal_leader = blockIdx.x == 0 && threadIdx.x == 0;\n"
                "  long long fal_rounds = 0;\n%s"
                "  if (fal_leader) {\n    fal_lr_%s = fal_rounds;\n",
                name, params.data ? params.data : "", views.data ? views.data : "",
                body.data ? body.data : "", name);
  for (int i = 0; i < p->nwritten; i++)
    strbuf_printf(k, "    fal_lo_%s_%s = %s;\n", name, p->written[i], p->written[i]);
  strbuf_puts(k, "  }\n}\n");

  /* The launch: the kernel's parameters by address, in capture order. */
  StrBuf launch = {0};
  for (int i = 0; i < c->ncaps; i++) {
    const Capture *cp = &c->caps[i];
    strbuf_printf(&launch, "%s%s%s", i ? ", " : "", cp->what == CAP_GRAPH ? "(void *)" : "(void *)&",
                  cp->name);
  }
  kernel_leave(c, &saved);
  putf(c, "{ fal_cuda_use(%s->fal_base.device); double fal_pt0 = fal_prof_t0(); "
       "void *fal_args[] = {%s}; long long fal_lr = 0; "
       "fal_coop_launch((const void *)%s, fal_args, \"%s\", __FILE__, __LINE__); "
       "FAL_CUDA(cudaMemcpyFromSymbol(&fal_lr, fal_lr_%s, sizeof fal_lr)); ",
       gname(c, g), launch.data ? launch.data : "", name, name, name);
  for (int i = 0; i < p->nwritten; i++)
    putf(c, "FAL_CUDA(cudaMemcpyFromSymbol(&%s, fal_lo_%s_%s, sizeof %s)); ", p->written[i],
         name, p->written[i], p->written[i]);
  put(c, profile_line(c, p, "device", "fal_lr", true));
  put(c, " }");
  strbuf_free(&launch);
  strbuf_free(&body);
  strbuf_free(&params);
  strbuf_free(&views);
  strbuf_free(&args);
}

/* ---- CPU: one parallel region ---------------------------------------------------- */

static void emit_region_loop(Ctx *c, const LoopPlan *p)
{
  put(c, "{ double fal_pt0 = fal_prof_t0(); long long fal_lr = 0;");
  pragma_line(c, "omp parallel");
  put(c, "{\nwhile ");
  render(c, p->steps[0].stmt);
  put(c, " {\n");
  for (int i = 1; i < p->nsteps; i++) {
    const Step *s = &p->steps[i];
    if (s->sync_before) {
      pragma_line(c, "omp barrier");
      resync(c, s->stmt->start);
    }
    if (s->kind == STEP_PHASE) {
      if (!s->fuse_prev) {
        bool heavy = false;
        for (int j = i; j < p->nsteps && (j == i || p->steps[j].fuse_prev); j++)
          heavy |= p->steps[j].heavy;
        pragma_line(c, heavy ? "omp for schedule(dynamic, 256) nowait"
                             : "omp for schedule(static) nowait");
        resync(c, s->stmt->start);
        putf(c, "for (int64_t fal_i = 0; fal_i < %s->%s; fal_i++) { ", gname(c, s->graph),
             s->edges ? "nedges" : "npoints");
      }
      phase_body(c, s);
      if (!fused_next(p, i))
        put(c, "}\n");
    } else {
      if (s->leader)
        put(c, "if (omp_get_thread_num() == 0) ");
      render(c, s->stmt);
      put(c, "\n");
    }
  }
  if (p->steps[0].sync_before)
    pragma_line(c, "omp barrier");
  put(c, "if (omp_get_thread_num() == 0) fal_lr++;\n}\n}\n");
  put(c, profile_line(c, p, "region", "fal_lr", false));
  put(c, " }");
  resync(c, p->loop->end);
}

void emit_planned_loop(Ctx *c, const LoopPlan *p)
{
  if (p->kind == PLAN_DEVICE)
    emit_device_loop(c, p);
  else
    emit_region_loop(c, p);
}
