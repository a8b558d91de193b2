/*
 * lower_loop.c: foreach loops and kernels (§4.1), single (§4.3),
 * reductions (§4.4), parallel sections (§4.5) and loops over partitioned
 * graphs (§7).
 */
#include "lower.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- foreach (§4.1) -------------------------------------------------------- */

typedef enum Domain { D_POINTS, D_EDGES, D_OUT, D_IN, D_ALL, D_VIEW } Domain;

/* What a foreach iterates: the graph and, for neighbours, the point. */
typedef struct Iter {
  Domain dom;
  const char *graph;
  const Node *point; /* D_OUT, D_IN, D_ALL */
  const char *view;  /* D_VIEW: the element kind (§3.6) */
} Iter;

static bool classify_iterable(Ctx *c, const Node *it, Iter *out)
{
  if (!it || it->kind != K_FIELD_EXPRESSION)
    return false;
  EType a = expr_type(c, node_field(it, F_ARGUMENT));
  char *f = text_of(c, node_field(it, F_FIELD));
  if (a.kind == FK_GRAPH && strcmp(f, "points") == 0)
    *out = (Iter){D_POINTS, a.graph, NULL, NULL};
  else if (a.kind == FK_GRAPH && strcmp(f, "edges") == 0)
    *out = (Iter){D_EDGES, a.graph, NULL, NULL};
  else if (a.kind == FK_POINT && strcmp(f, "outnbrs") == 0)
    *out = (Iter){D_OUT, a.graph, node_field(it, F_ARGUMENT), NULL};
  else if (a.kind == FK_POINT && strcmp(f, "innbrs") == 0)
    *out = (Iter){D_IN, a.graph, node_field(it, F_ARGUMENT), NULL};
  else if (a.kind == FK_POINT && strcmp(f, "nbrs") == 0)
    *out = (Iter){D_ALL, a.graph, node_field(it, F_ARGUMENT), NULL};
  else if (a.kind == FK_GRAPH && view_prop(c, f))
    *out = (Iter){D_VIEW, a.graph, NULL, view_prop(c, f)->name};
  else
    return false;
  return true;
}

/* Renders `{ if (!(cond)) continue; body }` with `var` bound. */
void render_foreach_body(Ctx *c, const Node *n, bool parallel)
{
  const Node *cond = node_field(n, F_CONDITION);
  bool saved_break = c->break_is_continue;
  c->break_is_continue = parallel;
  c->foreach_depth++;
  StrBuf b = {0}, *out = c->out;
  c->out = &b;
  put(c, "{ ");
  if (cond) {
    put(c, "if (!");
    if (c->warp && !c->warp_nbr && parallel) { /* the warp's point: lane 0's answer */
      put(c, "fal_wb(!!(");
      render(c, cond);
      put(c, "))");
    } else {
      render(c, cond);
    }
    put(c, ") continue; ");
  }
  /* The body keeps its source line and column (#line), wherever the
   * lowering puts it: in a loop header's line, in a kernel. */
  const Node *body = node_field(n, F_BODY);
  if (body)
    line_mark(c, body->start);
  render(c, body);
  put(c, " }");
  c->out = out;
  if (parallel && c->cs && c->cs->used)
    coll_single_wrap(c, c->cs, b.data);
  else
    put(c, b.data);
  strbuf_free(&b);
  c->foreach_depth--;
  c->break_is_continue = saved_break;
}

static const char *redux_form(Ctx *c, const Node *stmt, const Node **target,
                              const Node **operand);
static bool shared_variable(Ctx *c, const Node *at, const Node *name);
static const Node *decl_declarator(const Ctx *c, const Node *decl, const Node *name);

/* ---- reductions into per-thread copies (§4.4) ---------------------------- */

/* A reduction's C operator and the name of its atomic (FAL_ATOMIC_ANY). */
static const char *const redux_ops[][2] = {{"+", "add"}, {"-", "sub"}, {"*", "mul"},
                                           {"|", "or"},  {"&", "and"}, {"^", "xor"}};

static const char *const rl_types[] = {"int", "unsigned", "unsigned int", "long", "unsigned long",
                                       "long long", "unsigned long long", "float", "double"};

/* The type of `name` (used at `at`) where its nearest declaration, inside
 * a function, declares it as a plain variable (`T name` or `T name = e`),
 * as the declaration spells it; NULL for anything else (file scope, a
 * pointer or array, a parameter, not found). */
static const char *local_decl_type(Ctx *c, const Node *at, const Node *name)
{
  for (const Node *a = at->parent; a; a = a->parent) {
    if (a->kind == K_FUNCTION_DEFINITION || a->kind == K_TRANSLATION_UNIT)
      return NULL;
    for (const Node *ch = a->child; ch; ch = ch->next) {
      const Node *d = ch->kind == K_DECLARATION ? decl_declarator(c, ch, name) : NULL;
      if (!d)
        continue;
      const Node *id = d->kind == K_INIT_DECLARATOR ? node_field(d, F_DECLARATOR) : d;
      const Node *ty = node_field(ch, F_TYPE);
      if (!id || id->kind != K_IDENTIFIER || !ty)
        return NULL;
      /* one space between words: "unsigned  long" is "unsigned long" */
      char *t = text_of(c, ty), *o = t;
      for (char *q = t; *q; q++)
        if (*q != ' ' && *q != '\t' && *q != '\n')
          *o++ = *q;
        else if (o > t && o[-1] != ' ')
          *o++ = ' ';
      *o = '\0';
      return t;
    }
  }
  return NULL;
}

/* The host variables of parallel foreach n that its threads may reduce
 * into their own copies, combining them once when the loop ends: every
 * statement of n (its condition and body) that names the variable is
 * `v op= e;` or `v = v op e;` with one operator (+ and - count as one),
 * and nothing else in n names it, not even a declaration; v is a local
 * variable (not file scope, which the functions n calls could read) of
 * an arithmetic type (an integer for | & ^) declared outside n; and n
 * holds no `return` (on the GPU every lane of a warp combines its copy).
 * Then no thread reads v inside the loop, and the order of the updates
 * was unspecified anyway: a sum in copies differs from a sum of atomics
 * by floating-point rounding only.  The count; *out the variables. */
static int redux_locals(Ctx *c, const Node *n, RLocal **out)
{
  *out = NULL;
  for (const Node *m = n->child; m; m = node_next(m, n, true))
    if (m->kind == K_RETURN_STATEMENT)
      return 0;
  RLocal *v = NULL; /* op NULL: refused */
  int nv = 0;
  const Node **targets = NULL;
  int nt = 0;
  for (const Node *m = n->child; m; m = node_next(m, n, true)) {
    const Node *t, *e;
    const char *op = m->kind == K_EXPRESSION_STATEMENT ? redux_form(c, m, &t, &e) : NULL;
    if (!op)
      continue;
    targets = xrealloc(targets, (size_t)(nt + 2) * sizeof *targets);
    targets[nt++] = t;
    /* `v = v op e` (not `v op= e`): the v on the right is the same use */
    const Node *as = node_unparen(node_named_child(m, 0));
    const Node *r = node_unparen(node_field(as, F_RIGHT));
    if (r && strcmp(r->type, "binary_expression") == 0 &&
        node_text_is(c->src, node_field(as, F_OPERATOR), "="))
      targets[nt++] = node_unparen(node_field(r, e == node_field(r, F_RIGHT) ? F_LEFT : F_RIGHT));
    char *name = text_of(c, t);
    const char *cls = strcmp(op, "sub") == 0 ? "add" : op;
    /* The CUDA target knows the host's variables; on the CPU target
     * plain C ones are found by their declaration. */
    const Sym *sym = ident_sym(c, t);
    const char *ctype = sym ? (sym->kind == FK_CVAR && !sym->global ? sym->ctype : NULL)
                            : local_decl_type(c, m, t);
    bool ok = ctype && shared_variable(c, m, t);
    bool known = false, bits = strcmp(cls, "or") == 0 || strcmp(cls, "and") == 0 ||
                              strcmp(cls, "xor") == 0;
    for (size_t i = 0; ok && i < sizeof rl_types / sizeof rl_types[0]; i++)
      if (strcmp(ctype, rl_types[i]) == 0)
        known = !bits || i < 7;
    ok = ok && known;
    int at = -1;
    for (int i = 0; i < nv; i++)
      if (strcmp(v[i].name, name) == 0)
        at = i;
    if (at < 0) {
      v = xrealloc(v, (size_t)(nv + 1) * sizeof *v);
      v[nv] = (RLocal){xstrdup(name), cls, xstrdup(ok ? ctype : "")};
      at = nv++;
    }
    if (!ok || (v[at].op && strcmp(v[at].op, cls) != 0))
      v[at].op = NULL;
  }
  /* Every other mention of a kept name refuses it. */
  for (const Node *m = n->child; m && nv; m = node_next(m, n, true)) {
    if (m->kind != K_IDENTIFIER)
      continue;
    bool target = false;
    for (int i = 0; i < nt && !target; i++)
      target = targets[i] == m;
    for (int i = 0; i < nv && !target; i++)
      if (node_text_is(c->src, m, v[i].name))
        v[i].op = NULL;
  }
  free(targets);
  int k = 0;
  for (int i = 0; i < nv; i++) {
    if (!v[i].op) {
      free(v[i].name);
      free(v[i].ctype);
      continue;
    }
    v[k++] = v[i];
  }
  if (!k) {
    free(v);
    v = NULL;
  }
  *out = v;
  return k;
}

/* The C operator of an atomic's name (redux_form). */
static const char *rl_op(const char *op)
{
  for (size_t i = 0; i < sizeof redux_ops / sizeof redux_ops[0]; i++)
    if (strcmp(redux_ops[i][1], op) == 0)
      return redux_ops[i][0];
  return "+";
}

static void redux_locals_free(RLocal *v, int n)
{
  for (int i = 0; i < n; i++) {
    free(v[i].name);
    free(v[i].ctype);
  }
  free(v);
}

static const RLocal *rl_find(const Ctx *c, const char *name)
{
  for (int i = 0; i < c->nrl; i++)
    if (strcmp(c->rl[i].name, name) == 0)
      return &c->rl[i];
  return NULL;
}

/* CPU: the loop's reduction clauses, ` reduction(+:s) ...`. */
static const char *rl_clauses(Ctx *c, const RLocal *v, int n)
{
  const char *out = "";
  for (int i = 0; i < n; i++) {
    out = ctx_printf(c, "%s reduction(%s:%s)", out, rl_op(v[i].op), v[i].name);
  }
  return out;
}

/* GPU: each thread's copies, declared before the kernel's loop, and
 * their combination after it (falcon/cuda.cuh fal_rl_flush). */
static void rl_kernel_begin(StrBuf *k, const RLocal *v, int n)
{
  for (int i = 0; i < n; i++) {
    const char *id = strcmp(v[i].op, "mul") == 0 ? "1" : strcmp(v[i].op, "and") == 0 ? "~0" : "0";
    strbuf_printf(k, "  %s fal_rl_%s = (%s)%s;\n", v[i].ctype, v[i].name, v[i].ctype, id);
  }
}

static void rl_kernel_end(StrBuf *k, const RLocal *v, int n)
{
  for (int i = 0; i < n; i++)
    strbuf_printf(k, "  fal_rl_flush_%s(fal_rd_%s, fal_rl_%s);\n", v[i].op, v[i].name,
                  v[i].name);
}

/* The C type, bound and symbol of the element of a loop over g.points,
 * g.edges or a view (§4.1, §3.6), from host code (g) or a kernel. */
static const char *elem_ctype(const Iter *it)
{
  return it->dom == D_EDGES ? "fal_edge" : it->dom == D_VIEW ? "int" : "fal_point";
}

static const char *loop_limit(Ctx *c, const Iter *it, const char *g)
{
  if (it->dom == D_VIEW)
    return ctx_printf(c, "%s->n%s", g, it->view);
  if (it->dom == D_EDGES && c->prog->mutates)
    return ctx_printf(c, "fal_edge_slots(&%s->fal_base.csr)", g);
  return ctx_printf(c, "%s->%s", g, it->dom == D_EDGES ? "nedges" : "npoints");
}

static void bind_loop_var(Ctx *c, const Iter *it, const char *var)
{
  if (it->dom == D_VIEW) {
    Sym *s = sym_add(c, var, FK_ELEM, it->graph, NULL);
    s->ctype = xstrdup(it->view);
  } else {
    sym_add(c, var, it->dom == D_EDGES ? FK_EDGE : FK_POINT, it->graph, NULL);
  }
}

/* foreach (t In g.points) S  ==>  [#pragma omp parallel for]
 *                                 for (fal_point t = 0; t < g->npoints; t++) S
 * (also g.edges and views, §3.6).  With a single on a Collection in S the
 * loop runs twice (§4.3, lower_view.c). */
static bool own_rebound(const Node *m);

/* Whether foreach n's condition or body may give its variable another
 * element (own_rebound: assigned, ++/--, its address taken). */
static bool loop_var_rebound(Ctx *c, const Node *n, const char *var)
{
  const Node *parts[2] = {node_field(n, F_CONDITION), node_field(n, F_BODY)};
  for (int i = 0; i < 2; i++)
    for (const Node *m = parts[i]; m; m = node_next(m, parts[i], true))
      if (m->kind == K_IDENTIFIER && node_text_is(c->src, m, var) && own_rebound(m))
        return true;
  return false;
}

/* After a host rank's sweep of its topology-driven phase (the for loop
 * that c->rskip starts; lower_plan.c topo_open), the rest of the phase to
 * the rank's own fixpoint, where fal_lfix_wanted says so (falcon/
 * frontier.h; docs/lowering.md "Host ranks run the phase to their own
 * fixpoint"): the own points whose P moved since their last visit go into
 * a heap, P's lowest first (the highest for MAX); each is visited as the
 * sweep visits it (skipped when P is still its last visit's, else the
 * filter and the body), and then its own out-neighbours whose P moved
 * since their last visit and last push are pushed.  The phase's MINs
 * reach out-neighbours only (plan.c topo_phase), so every own point whose
 * P moves is pushed: the heap ends empty at the rank's fixpoint.  L: the
 * loop's counter, decl: the variable's declaration from it (a rebound
 * variable), body: the element's code (its `continue` ends the visit).
 * Values compare by their bytes, so that a NaN that stays NaN is not a
 * move (with `!=` two NaN neighbours would push each other for ever). */
static void render_local_fixpoint(Ctx *c, const char *g, const char *L, const char *decl,
                                  const char *body)
{
  const char *T = c->topo_T, *P = c->topo_P, *lf = c->topo_lf;
  const char *neg = c->topo_max ? "-" : "";
  /* With the window (plan.c rank_window_rule): every rank makes the
   * window's reduction each round, whether its heap is on or not */
  const bool w = c->topo_win;
  if (w && c->topo_wflag) /* fal_lw: before the sweep (render_foreach_all) */
    putf(c, "\nif (fal_snp) { %s *fal_qv = NULL; if (fal_lw) { ", T);
  else if (w)
    putf(c, "\nif (fal_snp) { int fal_lw = fal_lfix_wanted(&%s, %s->npoints, %s->nedges, "
         "fal_mpi_threads()); %s *fal_qv = NULL; if (fal_lw) { ", lf, g, g, T);
  else
    putf(c, "\nif (fal_snp && fal_lfix_wanted(&%s, %s->npoints, %s->nedges, fal_mpi_threads())) { "
         "%s *", lf, g, g, T);
  putf(c, "fal_qv = (%s *)fal_lfix_begin(&%s, fal_snp, (size_t)(fal_hi - fal_lo) * sizeof(%s)); "
       "for (fal_point fal_q = (fal_point)fal_lo; fal_q < fal_hi; fal_q++) { %s fal_v = %s->%s[fal_q]; "
       "if (memcmp(&fal_v, &fal_snp[fal_q - fal_lo], sizeof fal_v)) { fal_qv[fal_q - fal_lo] = fal_v; "
       "fal_lfix_push(&%s, %s(double)fal_v, fal_q); } } ",
       T, lf, T, T, g, P, lf, neg);
  if (w)
    putf(c, "} fal_mpi_lfix_window(&%s, fal_lw, %s->fal_mpi, %s->npoints); if (fal_lw) { ", lf, g, g);
  putf(c, "int64_t fal_lq; while (fal_lfix_%s(&%s, &fal_lq)) { fal_point %s = (fal_point)fal_lq; %s"
       "{ %s fal_sv = %s->%s[%s]; if (!memcmp(&fal_sv, &fal_snp[%s - fal_lo], sizeof fal_sv)) continue; "
       "fal_snp[%s - fal_lo] = fal_sv; } do %s while (0); ",
       w ? "take" : "pop", lf, L, decl, T, g, P, L, L, L, body);
  putf(c, "for (int64_t fal_le = %s->fal_base.csr.offsets[%s]; fal_le < %s->fal_base.csr.offsets[%s + 1]; "
       "fal_le++) { int64_t fal_x = %s->fal_base.csr.dst[fal_le]; if (fal_x >= fal_lo && fal_x < fal_hi) "
       "{ %s fal_xv = %s->%s[fal_x]; if (memcmp(&fal_xv, &fal_snp[fal_x - fal_lo], sizeof fal_xv) && "
       "memcmp(&fal_xv, &fal_qv[fal_x - fal_lo], sizeof fal_xv)) { fal_qv[fal_x - fal_lo] = fal_xv; "
       "fal_lfix_push(&%s, %s(double)fal_xv, "
       "fal_x); } } } } }%s",
       g, L, g, L, g, T, g, P, lf, neg, w && !c->topo_wflag ? " }" : "");
  /* Points the window left in the heap were changed by this round's
   * MINs; without a sweep next round nothing else would visit them, so
   * the round says there is more (as a MIN that lowered one would) */
  if (w && c->topo_wflag)
    putf(c, " if (%s.n) FAL_SET_FLAG(%s->%s[0]); }", lf, g, c->topo_wflag);
}

static void render_foreach_all(Ctx *c, const Node *n, const Iter *it,
                               const char *var, bool parallel, bool ranged)
{
  bool edges = it->dom == D_EDGES;
  int mark = c->nsyms;
  bind_loop_var(c, it, var);
  bool sp = c->single_points, se = c->single_edges;
  c->single_points = c->single_edges = false;
  CollSingle cs, *scs;
  coll_single_enter(c, &cs, &scs, parallel, ranged ? NULL : var);
  /* Host reductions into each thread's copy (a reduction clause).  Not
   * in a parallel section: two sections' loops would be two OpenMP teams
   * combining into one variable, which OpenMP does not make atomic. */
  bool in_sections = false;
  for (const Node *a = n->parent; a && !in_sections; a = a->parent)
    in_sections = a->kind == K_PARALLEL_SECTIONS_STATEMENT;
  RLocal *rl = NULL, *saved_rl = c->rl;
  int nrl = parallel && !ranged && !c->in_kernel && !in_sections ? redux_locals(c, n, &rl) : 0;
  int saved_nrl = c->nrl;
  c->rl = rl;
  c->nrl = nrl;
  char *body;
  {
    StrBuf b = {0}, *saved = c->out;
    c->out = &b;
    render_foreach_body(c, n, parallel);
    c->out = saved;
    body = ctx_own(c, b.data ? b.data : xstrdup(""));
  }
  c->rl = saved_rl;
  c->nrl = saved_nrl;
  const char *clauses = rl_clauses(c, rl, nrl);
  redux_locals_free(rl, nrl);
  coll_single_leave(c, &cs, scs);
  /* What runs before the loop; the whole is one statement (braces), also
   * as the body of an unbraced if. */
  StrBuf pre = {0}, *saved = c->out;
  c->out = &pre;
  /* Hidden locks of single (p) are cleared before each loop (§4.3). */
  if (c->single_points)
    putf(c, "fal_single_reset(&%s->fal_base, 0); ", it->graph);
  if (c->single_edges)
    putf(c, "fal_single_reset(&%s->fal_base, 1); ", it->graph);
  c->single_points |= sp;
  c->single_edges |= se;
  if (parallel && !ranged)
    ready_sets(c);
  if (parallel && !ranged && c->prog->mutates)
    putf(c, "fal_G_settle(%s); ", it->graph);
  /* CPU, the points of a graph nothing mutates: the schedule is chosen
   * when the loop starts (fal_sched_points): contiguous shares on graphs
   * of low average degree, dynamic chunks on skewed ones. */
  bool runtime_sched = parallel && !ranged && !c->gpu && it->dom == D_POINTS && !c->prog->mutates;
  if (runtime_sched)
    putf(c, "fal_sched_points(&%s->fal_base.csr); ", gname(c, it->graph));
  c->out = saved;
  bool wrap = pre.len > 0;
  if (wrap)
    putf(c, "{ %s", pre.data);
  strbuf_free(&pre);
  const char *limit = ranged ? "fal_hi" : loop_limit(c, it, gname(c, it->graph));
  if (cs.used) {
    put(c, "{ ");
    coll_single_phases(c, &cs, limit, NULL);
  }
  /* A host rank's phase whose heap alone visits what changed after the
   * first round (plan.c rank_window_rule, p->wflag): the sweep only in the first
   * round, or where the rank's heap is off */
  const bool nosweep = ranged && c->rskip && c->topo_lf && c->topo_wflag;
  if (nosweep)
    putf(c, "int fal_lw = fal_snp && fal_lfix_wanted(&%s, %s->npoints, %s->nedges, "
         "fal_mpi_threads()); if (!(fal_lw && %s && !fal_lfix_sweeps(&%s))) { ", c->topo_lf,
         it->graph, it->graph, c->topo_tv, c->topo_lf);
  if (parallel) {
    /* Dynamic chunks: per-point work follows the degree, which is skewed
     * on social graphs. */
    pragma_line(c, ctx_printf(c, "%s%s",
                              it->dom != D_POINTS ? "omp parallel for schedule(static)"
                              : runtime_sched     ? "omp parallel for schedule(runtime)"
                                                  : "omp parallel for schedule(dynamic, 256)",
                              clauses));
    resync(c, n->start);
  }
  /* A body that gives the loop variable another element (`t = 0;`)
   * changes its own copy, as a GPU thread's does, and the loop goes on
   * over a hidden counter (docs/language-choices.md) */
  const bool rb = loop_var_rebound(c, n, var);
  const char *L = rb ? ctx_printf(c, "fal_lv%d", c->uniq++) : var;
  const char *decl = rb ? ctx_printf(c, "%s %s = %s; ", ranged ? "fal_point" : elem_ctype(it), var, L) : "";
  const char *inner = rb ? ctx_printf(c, "{ %s%s }", decl, body) : body;
  if (ranged && c->rskip) { /* a host rank's topology-driven phase: the skip first */
    putf(c, "for (fal_point %s = (fal_point)fal_lo; %s < fal_hi; %s++) { %s%s%s }%s", L,
         L, L, decl, c->rskip, body, nosweep ? " }" : "");
    if (c->topo_lf)
      render_local_fixpoint(c, it->graph, L, decl, body);
  } else if (ranged) /* one part of a partitioned graph (§7) */
    putf(c, "for (fal_point %s = (fal_point)fal_lo; %s < fal_hi; %s++) %s", L, L, L, inner);
  else if (c->prog->mutates && it->dom != D_VIEW) /* skip deleted elements (§6) */
    putf(c, "for (%s %s = 0; %s < %s; %s++) { %sif (!fal_live_%s(&%s->fal_base.csr, %s)) "
         "continue; %s }", elem_ctype(it), L, L, limit, L, decl, edges ? "edge" : "point",
         gname(c, it->graph), var, body);
  else
    putf(c, "for (%s %s = 0; %s < %s; %s++) %s", elem_ctype(it), L, L, limit, L, inner);
  if (cs.used)
    put(c, " } fal_pend_free(fal_pend); }");
  if (wrap)
    put(c, " }");
  strbuf_free(&cs.begins);
  sym_pop(c, mark);
}

/* Device code of a program whose kernels may add edges reads edel with
 * acquire (fal_live_edge_sync, falcon/cuda.cuh, §6). */
static const char *live_edge_fn(const Ctx *c)
{
  return c->gpu && c->in_kernel && c->prog->par_mutates ? "fal_live_edge_sync"
                                                        : "fal_live_edge";
}

/* foreach (t In p.outnbrs) S  ==>
 *   { const fal_point P = p; for (int64_t E = off[P]; E < off[P+1]; E++)
 *     { fal_point t = dst[E]; S } }
 * innbrs walks the in-edge CSR; nbrs does both on a directed graph. */
/* A loop body without loops in it (C loops or foreach): GPU neighbour
 * loops over such a body are unrolled by four (FAL_UNROLL). */
static bool flat_body(const Node *loop)
{
  for (const Node *n = loop->child; n; n = node_next(n, loop, true))
    if (n->kind == K_LOOP_STATEMENT || n->kind == K_FOREACH_STATEMENT)
      return false;
  return true;
}

static void render_nbr_loop(Ctx *c, const Node *n, const Iter *it,
                            const char *var, const char *p, bool in, bool split)
{
  int id = ++c->uniq;
  const char *g = gname(c, it->graph);
  const char *e = ctx_printf(c, "fal_e%d", id);
  const char *edge = in ? ctx_printf(c, "%s->fal_base.csr.in_edge[%s]", g, e) : e;
  const Node *off = node_field(n, F_OFFSET);
  char *start = off ? render_str(c, node_field(off, F_VALUE)) : NULL;
  int mark = c->nsyms;
  Sym *s = sym_add(c, var, FK_POINT, g, edge);
  s->from = text_of(c, it->point) ? xstrdup(text_of(c, it->point)) : NULL;
  s->in_edge = in;
  const char *stop = c->prog->mutates && !in
                         ? ctx_printf(c, "fal_nbr_end(&%s->fal_base.csr, %s)", g, p)
                         : ctx_printf(c, "%s->fal_base.csr.%s[%s + 1]", g,
                                      in ? "in_offsets" : "offsets", p);
  /* CPU, a graph nothing mutates: the end read once (the atomics in the
   * body would make the compiler read it again every edge). */
  const char *endv = !c->gpu && !c->prog->mutates ? ctx_printf(c, "fal_n%d", id) : NULL;
  /* In a warp body's neighbour loop lane l takes edges l, l + 32, ...
   * (FAL_WL, FAL_WN: 0 and 1 in a thread per point, falcon/cuda.cuh). */
  if (endv) /* for (int64_t E = off[P], N = off[P + 1]; E < N; E++) */
    putf(c, "for (int64_t %s = %s->fal_base.csr.%s[%s]%s%s%s, %s = %s; %s < %s; %s++) { fal_point %s = %s->fal_base.csr.%s[%s]; ",
         e, g, in ? "in_offsets" : "offsets", p, start ? " + (" : "",
         start ? start : "", start ? ")" : "", endv, stop, e, endv, e,
         var, g, in ? "in_src" : "dst", e);
  else
  putf(c, "%sfor (int64_t %s = %s->fal_base.csr.%s[%s]%s%s%s%s; %s < %s; %s%s) { %sfal_point %s = %s->fal_base.csr.%s[%s]; ",
       c->gpu && flat_body(n) ? "FAL_UNROLL " : "", e, g, in ? "in_offsets" : "offsets", p, start ? " + (" : "",
       start ? start : "", start ? ")" : "", split ? " + FAL_WL" : "", e, stop, e,
       split ? " += FAL_WN" : "++",
       c->prog->mutates && !in
           ? ctx_printf(c, "if (!%s(&%s->fal_base.csr, %s)) continue; ", live_edge_fn(c), g, e)
           : "",
       var, g, in ? "in_src" : "dst", e);
  render_foreach_body(c, n, false);
  put(c, " }");
  sym_pop(c, mark);
}

static void render_foreach_nbrs(Ctx *c, const Node *n, const Iter *it,
                                const char *var)
{
  const char *p = ctx_printf(c, "fal_p%d", ++c->uniq);
  putf(c, "{ const fal_point %s = ", p);
  render(c, it->point);
  put(c, "; ");
  /* A warp body's loop: the lanes share the edges; each sum starts from
   * 0 in every lane and the warp's total joins the value before. */
  bool split = c->warp && !c->warp_nbr;
  const char *sums[W_MAXSUMS];
  int nsums = split ? warp_sums(c, n, sums, W_MAXSUMS) : 0;
  for (int i = 0; i < nsums; i++)
    putf(c, "decltype(%s) fal_wr_%s = %s; %s = 0; ", sums[i], sums[i], sums[i], sums[i]);
  c->warp_nbr++;
  if (it->dom != D_IN)
    render_nbr_loop(c, n, it, var, p, false, split);
  if (it->dom == D_ALL)
    putf(c, " if (%s->directed) ", gname(c, it->graph));
  if (it->dom != D_OUT)
    render_nbr_loop(c, n, it, var, p, true, split);
  c->warp_nbr--;
  for (int i = 0; i < nsums; i++)
    putf(c, " %s = fal_wr_%s + fal_wsum(%s);", sums[i], sums[i], sums[i]);
  put(c, " }");
}

/* ---- CUDA target: kernels ------------------------------------------------ */

KernelState kernel_enter(Ctx *c)
{
  KernelState k = {c->in_kernel, c->element, c->hd, c->single_points, c->single_edges,
                   c->kernel_mark, c->caps, c->ncaps};
  c->in_kernel = true;
  c->element = true;
  c->hd = false;
  c->single_points = c->single_edges = false;
  c->kernel_mark = c->nsyms;
  c->caps = NULL;
  c->ncaps = 0;
  return k;
}

void kernel_leave(Ctx *c, const KernelState *k)
{
  for (int i = 0; i < c->ncaps; i++) {
    free(c->caps[i].name);
    free(c->caps[i].ctype);
  }
  free(c->caps);
  c->in_kernel = k->in_kernel;
  c->element = k->element;
  c->hd = k->hd;
  c->single_points = k->single_points;
  c->single_edges = k->single_edges;
  c->kernel_mark = k->kernel_mark;
  c->caps = k->caps;
  c->ncaps = k->ncaps;
}

/* Kernel parameters, the pointer views of captured graphs and Sets, the
 * launch arguments, and what the host does before and after the launch
 * (Collections get room for what the kernel may add, and are checked;
 * Sets are sized), from the captures. */
void kernel_signature(Ctx *c, StrBuf *params, StrBuf *views, StrBuf *args,
                      StrBuf *pre, StrBuf *post)
{
  for (int i = 0; i < c->ncaps; i++) {
    const Capture *k = &c->caps[i];
    const char *sep = i ? ", " : "";
    if (k->what == CAP_GRAPH || k->what == CAP_SET) {
      const char *t = k->what == CAP_GRAPH ? "fal_G" : "fal_set";
      strbuf_printf(params, "%s%s fal_kv_%s", sep, t, k->name);
      strbuf_printf(views, "  %s *%s = &fal_kv_%s;\n", t, k->name, k->name);
      strbuf_printf(args, "%s*%s%s%s", sep, k->what == CAP_SET ? "fal_hs_dev(" : "",
                    k->name, k->what == CAP_SET ? ")" : "");
      /* The kernel may mutate the graph (§6): room for overflowing edges
       * before, the counts (and growth) after. */
      if (k->what == CAP_GRAPH && c->prog->par_mutates && pre && post) {
        strbuf_printf(pre, "fal_gpu_mut_prepare(&%s->fal_base, __FILE__, __LINE__); ", k->name);
        strbuf_printf(post, " fal_G_gpu_settle(%s, __FILE__, __LINE__);", k->name);
      }
    } else if (k->what == CAP_COLL) {
      strbuf_printf(params, "%sfal_coll *%s", sep, k->name);
      strbuf_printf(args, "%sfal_hc_dev(%s)", sep, k->name);
      if (pre)
        strbuf_printf(pre, "fal_hc_prepare(%s, __FILE__, __LINE__); ", k->name);
      if (post)
        strbuf_printf(post, " fal_hc_check(%s, \"%s\", __FILE__, __LINE__);", k->name, k->name);
    } else if (k->what == CAP_REDUX) {
      /* §4.4: the kernel's atomics go to a device copy of the variable,
       * which the host reads back after the launch. */
      int slot = 0;
      for (int j = 0; j < i; j++)
        slot += c->caps[j].what == CAP_REDUX;
      strbuf_printf(params, "%s%s *fal_rd_%s", sep, k->ctype, k->name);
      strbuf_printf(args, "%sfal_hred_buf(%d, %s)", sep, slot, k->name);
      if (post)
        strbuf_printf(post, " %s = fal_hred_get(%d, %s);", k->name, slot, k->name);
    } else {
      strbuf_printf(params, "%s%s %s", sep, k->ctype, k->name);
      strbuf_printf(args, "%s%s", sep, k->name);
    }
  }
}

const char *kernel_name(Ctx *c, const Node *n, const char *what)
{
  return ctx_printf(c, "fal_%s_L%u_%d", what, n->loc.line, ++c->uniq);
}

/* A repeated phase (c->topo_rep): a visit past the skip, with the
 * last-seen values valid, sets the rank's word to the launch's number
 * (cuda.cuh fal_rep).  Read first: each SM stores a few times, not once
 * per point. */
static const char *topo_visit(Ctx *c)
{
  return c->topo_rep ? "if (fal_svis && fal_tvk && *fal_svis != fal_ep) *fal_svis = fal_ep; " : "";
}

/* One lane's record of a visited point's value (and its visit). */
static const char *topo_record(Ctx *c, const char *lo)
{
  return c->topo_rep ? ctx_printf(c, "{ fal_snp[fal_i - %s] = fal_sv; %s}", lo, topo_visit(c))
                     : ctx_printf(c, "fal_snp[fal_i - %s] = fal_sv;", lo);
}

/* A topology-driven parts loop's phase (plan.c parts_topo_rule;
 * docs/optimiser.md "Loops that skip unchanged points"), in a
 * loop of a thread per point fal_i from lo, in a parts kernel
 * (lower_plan.c) or in the host's rounds: skip the point when its P (of
 * C type T, in graph g) is the value the part saw when it last visited
 * it (fal_snp, valid once fal_tvk is set), else record the value and
 * visit.  P only moves one way, so an equal value is an unchanged one. */
const char *topo_skip_code(Ctx *c, const char *g, const char *P, const char *T, const char *lo)
{
  return ctx_printf(c, "if (fal_snp) { %s fal_sv = %s->%s[fal_i]; if (fal_tvk && fal_sv == "
                    "fal_snp[fal_i - %s]) continue; fal_snp[fal_i - %s] = fal_sv; %s} ",
                    T, g, P, lo, lo, topo_visit(c));
}

/* The same test where one thread decides for a hub's pieces or a lane
 * for its point (render_kernel_foreach): `flag = false` when the point
 * is unchanged, else the record (and visit). */
static const char *topo_test(Ctx *c, const char *g, const char *lo, const char *flag)
{
  return ctx_printf(c, "if (fal_snp) { %s fal_sv = %s->%s[fal_i]; if (fal_tvk && fal_sv == "
                    "fal_snp[fal_i - %s]) %s = false; else %s }",
                    c->topo_T, g, c->topo_P, lo, flag, topo_record(c, lo));
}

/* The last-seen array for part `part` (0 for an unpartitioned graph) of
 * n points on device dev (lower_plan.c topo_open), as a T *, or NULL
 * when the loop may not skip (topo_ok). */
const char *topo_seen_expr(Ctx *c, const char *part, const char *dev, const char *n)
{
  return ctx_printf(c, "%s ? (%s *)fal_seen_get(&%s, %s, %s, (size_t)%s * sizeof(%s)) : NULL",
                    c->topo_ok, c->topo_T, c->topo_sn, part, dev, n, c->topo_T);
}


/* foreach (t In g.points) S, g on a GPU  ==>
 *   __global__ void fal_foreach_L<line>(fal_G fal_kv_g, captures...)
 *   { fal_G *g = &fal_kv_g;
 *     for (int64_t i = <global thread id>; i < g->npoints; i += <grid size>)
 *       { fal_point t = i; S } }
 * and at the foreach: the launch, sized from the device (§4.1). */
static void render_kernel_foreach(Ctx *c, const Node *n, const Iter *it,
                                  const char *var, bool ranged)
{
  const char *name = kernel_name(c, n, "foreach");
  /* a topology-driven parts loop's phase (lower_plan.c emit_auto_loop) */
  const bool topo = c->topo_n == n && it->dom == D_POINTS &&
                    !(c->prog->mutates && !ranged);
  const char *lo = ranged ? "fal_lo" : "0";
  /* the range's and the last-seen values' parameters, and their arguments */
  const char *tp = topo ? ctx_printf(c, "%s *fal_snp, int fal_tvk%s", c->topo_T,
                                     c->topo_rep ? ", unsigned *fal_svis, unsigned fal_ep, int fal_chk" : "") : "";
  const char *ta = topo ? ctx_printf(c, "fal_snp, %s%s", c->topo_tv,
                                     c->topo_rep ? ctx_printf(c, ", fal_svis, %s.ep, %s.chk", c->topo_rep,
                                                              c->topo_rep) : "") : "";
  /* a repeated phase's launch after one that visited nothing returns at
   * once: a thread of each block reads the word (the word only grows,
   * and no thread of such a launch writes it, so every block decides the
   * same) */
  const char *rret = topo && c->topo_rep
                         ? "  if (fal_svis && fal_chk) {\n    __shared__ int fal_rq;\n"
                           "    if (threadIdx.x == 0 && threadIdx.y == 0)\n"
                           "      fal_rq = *(volatile unsigned *)fal_svis + 1 < fal_ep;\n"
                           "    __syncthreads();\n    if (fal_rq)\n      return;\n  }\n"
                         : "";
  const char *rng = ranged ? ctx_printf(c, "int64_t fal_lo, int64_t fal_hi%s%s", *tp ? ", " : "", tp) : tp;
  const char *rargs = ranged ? ctx_printf(c, "fal_lo, fal_hi%s%s", *ta ? ", " : "", ta) : ta;
  RLocal *rl = NULL, *saved_rl = c->rl;
  int nrl = redux_locals(c, n, &rl), saved_nrl = c->nrl;
  KernelState saved = kernel_enter(c);
  c->rl = rl;
  c->nrl = nrl;
  int mark = c->nsyms;
  gname(c, it->graph);
  bind_loop_var(c, it, var);
  CollSingle cs, *scs;
  coll_single_enter(c, &cs, &scs, true, ranged ? NULL : "fal_i");
  StrBuf body = {0}, *out = c->out;
  c->out = &body;
  bool sorted = c->sorts;
  c->sorts = false;
  render_foreach_body(c, n, true);
  c->out = out;
  /* The same body with a warp per point (lower_warp.c), when the rule
   * holds; the host picks one of the two kernels per launch. */
  StrBuf wbody = {0};
  const char *why = NULL;
  WarpInfo wi;
  bool warp = it->dom == D_POINTS && !cs.used &&
              warp_body_check(c, n, var, &wi, &why);
  /* The filter alone, as a thread evaluates it (the warp kernel's lanes,
   * below) */
  const Node *fcond = node_field(n, F_CONDITION);
  StrBuf lcond = {0};
  if (warp && fcond) {
    c->out = &lcond;
    render(c, fcond);
    c->out = out;
  }
  if (warp) {
    WarpScope ws = warp_begin(c, &wi);
    c->out = &wbody;
    render_foreach_body(c, n, true);
    c->out = out;
    warp_end(c, ws);
  }
  if (it->dom == D_POINTS)
    warp_explain(c, n, warp, why, "point");
  bool mut = c->prog->mutates && !ranged && it->dom != D_VIEW;
  /* A block per hub (docs/optimiser.md "A block per hub"): the warp
   * kernel's first fal_hb blocks take the hub list, each hub with the
   * whole block as its lanes; the other blocks skip points of fal_hd edges
   * or more and give the rest a warp each. */
  bool hub = warp && !mut;
  /* A hub over several blocks (docs/optimiser.md): its pieces, when the
   * body is one neighbour loop and nothing else (warp_split_check) */
  bool split = hub && warp_split_check(c, n, &wi);
  if (hub && c->opt->explain)
    fprintf(stderr, "%s:%u: foreach: points of FALCON_HUB_DEGREE (1024) edges or more get a "
            "block each (the warp kernel's first blocks)%s\n", c->src->path, n->loc.line,
            split ? "; a hub's edges in pieces of FALCON_HUB_PIECE (16384), a block each" : "");
  c->rl = saved_rl;
  c->nrl = saved_nrl;
  coll_single_leave(c, &cs, scs);
  sym_pop(c, mark);
  StrBuf params = {0}, views = {0}, args = {0}, pre = {0}, post = {0};
  kernel_signature(c, &params, &views, &args, &pre, &post);
  /* sortEdges in the kernel (§3.1): the GPU graphs no longer hold the
   * structure of the host graph they were copied from (hg = g pulls it). */
  for (int i = 0; c->sorts && i < c->ncaps; i++)
    if (c->caps[i].what == CAP_GRAPH)
      strbuf_printf(&post, " %s->fal_base.structure_of = NULL; "
                    "%s->fal_base.csr.unsorted = 1;", c->caps[i].name, c->caps[i].name);
  c->sorts = sorted;
  if (cs.used) /* the two phases of a single on a Collection (§4.3) */
    coll_single_params(c, &params, &args);
  bool more = c->ncaps || cs.used;
  StrBuf *k = &c->kernels;
  if (c->opt->line_directives)
    emit_line_directive(k, n->loc.line, c->src->path);
  strbuf_printf(k, "__global__ void %s(%s%s%s)\n{\n%s%s", name, params.data ? params.data : "",
                *rng && more ? ", " : "", rng, views.data ? views.data : "", rret);
  const char *limit = ranged ? "fal_hi" : loop_limit(c, it, it->graph);
  rl_kernel_begin(k, rl, nrl);
  strbuf_printf(k, "  for (int64_t fal_i = %sblockIdx.x * (int64_t)blockDim.x + threadIdx.x; "
                "fal_i < %s; fal_i += (int64_t)gridDim.x * blockDim.x) "
                "{ %s%s %s = (%s)fal_i; %s%s }\n",
                ranged ? "fal_lo + " : "", limit,
                topo ? topo_skip_code(c, it->graph, c->topo_P, c->topo_T, lo) : "", elem_ctype(it), var, elem_ctype(it),
                mut ? ctx_printf(c, "if (!%s(&%s->fal_base.csr, %s)) continue; ",
                                 it->dom == D_EDGES ? live_edge_fn(c) : "fal_live_point",
                                 it->graph, var) : "",
                body.data ? body.data : "");
  rl_kernel_end(k, rl, nrl);
  strbuf_puts(k, "}\n");
  if (warp) { /* blocks of 32 x FAL_BLOCK/32: threadIdx.y is the warp */
    if (c->opt->line_directives)
      emit_line_directive(k, n->loc.line, c->src->path);
    strbuf_printf(k, "__global__ void %s_w(%s%s%s%s)\n{\n%s", name,
                  params.data ? params.data : "", (*rng || hub) && more ? ", " : "",
                  rng,
                  !hub ? "" : *rng ? ", fal_hubk fal_hk, int64_t fal_hd, unsigned fal_hb"
                                     : "fal_hubk fal_hk, int64_t fal_hd, unsigned fal_hb",
                  views.data ? views.data : "");
    strbuf_puts(k, rret);
    strbuf_puts(k, hub ? "  if (blockIdx.x < fal_hb) fal_bbegin(); else fal_wbegin();\n"
                       : "  fal_wbegin();\n");
    if (topo && hub)
      strbuf_puts(k, "  __shared__ int fal_hsk; /* the block's hub is skipped */\n");
    rl_kernel_begin(k, rl, nrl);
    const char *thead = !topo ? "" : ctx_printf(c, "if (fal_snp) { __syncthreads(); if (threadIdx.x == 0 && "
                                      "threadIdx.y == 0) { %s fal_sv = %s->%s[fal_i]; fal_hsk = "
                                      "fal_tvk && fal_sv == fal_snp[fal_i - %s]; if (!fal_hsk) "
                                      "%s } __syncthreads(); "
                                      "if (fal_hsk) continue; } ",
                                      c->topo_T, it->graph, c->topo_P, lo, topo_record(c, lo));
    if (hub && !split)
      strbuf_printf(k, "  if (blockIdx.x < fal_hb) {\n"
                    "  for (int64_t fal_h = fal_hk.h0 + blockIdx.x; fal_h < fal_hk.h0 + fal_hk.nh; "
                    "fal_h += fal_hb) "
                    "{ int64_t fal_i = fal_hk.d[fal_h]; %s%s %s = (%s)fal_i; %s }\n  } else\n",
                    thead, elem_ctype(it), var, elem_ctype(it), wbody.data ? wbody.data : "");
    /* the pieces of a hub decide once whether it runs: the first to come
     * takes the skip test (a topology-driven loop: recording the value)
     * and the filter, as one thread evaluates it (fal_hclaim) */
    if (split)
      strbuf_printf(k, "  if (blockIdx.x < fal_hb) {\n"
                    "  for (int64_t fal_q = fal_hk.q0 + blockIdx.x; fal_q < fal_hk.q1; fal_q += fal_hb) "
                    "{ int64_t fal_h = fal_hk.ih[fal_q]; int64_t fal_i = fal_hk.d[fal_h];\n"
                    "    if (fal_hpiece(fal_hk, fal_q, fal_h)) {\n"
                    "      __syncthreads(); /* the last piece's threads have read fal_wdec */\n"
                    "      if (threadIdx.x == 0 && threadIdx.y == 0) {\n"
                    "        if (fal_hclaim(fal_hk, fal_h)) { bool fal_go = true; "
                    "%s%sfal_hpub(fal_hk, fal_h, fal_go); fal_wdec = fal_go; }\n"
                    "        else fal_wdec = fal_hwait(fal_hk, fal_h);\n"
                    "      }\n      __syncthreads();\n      if (!fal_wdec) continue;\n"
                    "    } else { %s}\n"
                    "    { %s %s = (%s)fal_i; %s } }\n  } else\n",
                    topo ? ctx_printf(c, "%s ", topo_test(c, it->graph, lo, "fal_go")) : "",
                    fcond && lcond.data ? ctx_printf(c, "if (fal_go) { %s %s = (%s)fal_i; fal_go = (%s); } ",
                                                     elem_ctype(it), var, elem_ctype(it), lcond.data)
                                        : "",
                    thead, elem_ctype(it), var, elem_ctype(it), wbody.data ? wbody.data : "");
    /* A filtered phase (docs/optimiser.md "Filters by lanes"): each warp
     * takes 32 points at a time, its lanes evaluate the filter (the warp
     * rule keeps it free of effects) and the hub test on a point each,
     * and the warp runs the body on those that passed, one after another
     * (the body checks the filter again, as lane 0 sees it then).  A
     * round that expands few points no longer pays a warp's turn for
     * every point; the order of a foreach's elements is unspecified
     * (§4.1), and a filter found false is that element's whole turn. */
    /* A topology-driven phase's lanes also take its skip test, a point
     * each: the lane records the value it saw and the body runs later
     * (docs/optimiser.md "Filters by lanes": a later body reads a value
     * at least as new as the one recorded, and one that moved on is
     * visited again next round). */
    /* hub: a warp kernel, no mutation.  A topology-driven phase always
     * takes the lanes: loops are not planned in programs that mutate
     * graphs (plan.c), so topo implies hub. */
    const bool lanes = hub && ((fcond && lcond.data) || topo);
    const char *ltest = !lanes ? "" : !topo ? ctx_printf(c, "fal_tk = (%s);", lcond.data)
                        : ctx_printf(c, "fal_tk = true; %s%s", topo_test(c, it->graph, lo, "fal_tk"),
                                     fcond && lcond.data
                                         ? ctx_printf(c, " if (fal_tk) fal_tk = (%s);", lcond.data)
                                         : "");
    if (lanes)
      strbuf_printf(k, "  for (int64_t fal_c = %s((blockIdx.x - fal_hb) * (int64_t)blockDim.y + "
                    "threadIdx.y) * 32; fal_c < %s; fal_c += (int64_t)(gridDim.x - fal_hb) * "
                    "blockDim.y * 32) {\n"
                    "    unsigned fal_lm;\n"
                    "    { int64_t fal_i = fal_c + threadIdx.x; bool fal_tk = false;\n"
                    "      if (fal_i < %s) { %s %s = (%s)fal_i; if (!FAL_HUB(%s, %s, fal_hd)) "
                    "{ %s } }\n"
                    "      fal_lm = __ballot_sync(0xffffffffu, fal_tk); }\n"
                    "    while (fal_lm) { int64_t fal_i = fal_c + __ffs(fal_lm) - 1; "
                    "fal_lm &= fal_lm - 1; { %s %s = (%s)fal_i; %s } }\n  }\n",
                    ranged ? "fal_lo + " : "", limit, limit, elem_ctype(it), var, elem_ctype(it),
                    it->graph, var, ltest, elem_ctype(it), var, elem_ctype(it),
                    wbody.data ? wbody.data : "");
    else
      strbuf_printf(k, "  for (int64_t fal_i = %s%s * (int64_t)blockDim.y + threadIdx.y; "
                  "fal_i < %s; fal_i += (int64_t)%s * blockDim.y) "
                  "{ %s %s = (%s)fal_i; %s%s%s }\n",
                  ranged ? "fal_lo + " : "", hub ? "(blockIdx.x - fal_hb)" : "blockIdx.x", limit,
                  hub ? "(gridDim.x - fal_hb)" : "gridDim.x",
                  elem_ctype(it), var, elem_ctype(it),
                  mut ? ctx_printf(c, "if (!fal_live_point(&%s->fal_base.csr, %s)) continue; ",
                                   it->graph, var) : "",
                  hub ? ctx_printf(c, "if (FAL_HUB(%s, %s, fal_hd)) continue; ", it->graph, var)
                      : "",
                  wbody.data ? wbody.data : "");
    rl_kernel_end(k, rl, nrl);
    strbuf_puts(k, "}\n");
  }
  if (hub)
    c->hubs = true;
  redux_locals_free(rl, nrl);
  bool sp = c->single_points, se = c->single_edges;
  char *a = xstrdup(args.data ? args.data : "");
  kernel_leave(c, &saved);
  const char *g = gname(c, it->graph);
  putf(c, "{ fal_cuda_use(%s->fal_base.device); ", g);
  if (topo && !ranged) { /* the graph's last-seen values (lower_plan.c topo_open) */
    putf(c, "%s *fal_snp = %s; ", c->topo_T,
         topo_seen_expr(c, "0", ctx_printf(c, "%s->fal_base.device", g),
                        ctx_printf(c, "%s->npoints", g)));
    strbuf_printf(&post, " %s = 1;", c->topo_tv);
  }
  if (sp)
    putf(c, "fal_gpu_single_reset(&%s->fal_base, 0, __FILE__, __LINE__); ", g);
  if (se)
    putf(c, "fal_gpu_single_reset(&%s->fal_base, 1, __FILE__, __LINE__); ", g);
  const char *hlimit = loop_limit(c, it, g);
  if (cs.used)
    coll_single_phases(c, &cs, hlimit, ctx_printf(c, "%s->fal_base.device", g));
  put(c, pre.data ? pre.data : "");
  if (hub) /* hubs (of the range: a partition part's, §7) in front; a part
             * is never mutable, so every ranged warp kernel is here */
    putf(c, "if (fal_warp_pick(&%s->fal_base)) { const fal_hubs *fal_hb = fal_hubs_of(&%s->fal_base); "
         "int64_t fal_h0 = 0, fal_nh = !fal_hb ? 0 : %s; "
         "fal_hubk fal_hk = fal_hubk_of(fal_hb, fal_h0, fal_nh); "
         "unsigned fal_hbk = fal_nh ? fal_hub_grid(%s) : 0; "
         "%s_w<<<fal_hbk + fal_cuda_grid((int64_t)(%s) * 32), dim3(32, FAL_BLOCK / 32)>>>"
         "(%s%s%s%sfal_hk, "
         "fal_nh ? fal_hb->deg : INT64_MAX, fal_hbk); } else "
         "%s<<<fal_cuda_grid(%s), FAL_BLOCK>>>(%s%s%s); FAL_CHECK_LAUNCH(\"%s\");%s }",
         g, g, ranged ? "fal_hubs_range(fal_hb, fal_lo, fal_hi, &fal_h0)" : "fal_hb->n",
         split ? "fal_hk.q1 - fal_hk.q0" : "fal_nh", name,
         ranged ? "fal_hi - fal_lo" : hlimit, a, *a && *rargs ? ", " : "", rargs,
         *a || *rargs ? ", " : "",
         name, ranged ? "fal_hi - fal_lo" : hlimit, a, *rargs && *a ? ", " : "",
         rargs, name, post.data ? post.data : "");
  else if (ranged)
    putf(c, "%s<<<fal_cuda_grid(fal_hi - fal_lo), FAL_BLOCK>>>(%s%s%s); "
         "FAL_CHECK_LAUNCH(\"%s\");%s }", name, a, *a ? ", " : "", rargs, name,
         post.data ? post.data : "");
  else if (warp)
    putf(c, "if (fal_warp_pick(&%s->fal_base)) %s_w<<<fal_cuda_grid((int64_t)(%s) * 32), "
         "dim3(32, FAL_BLOCK / 32)>>>(%s); else %s<<<fal_cuda_grid(%s), FAL_BLOCK>>>(%s); "
         "FAL_CHECK_LAUNCH(\"%s\");%s }",
         g, name, hlimit, a, name, hlimit, a, name, post.data ? post.data : "");
  else
    putf(c, "%s<<<fal_cuda_grid(%s), FAL_BLOCK>>>(%s%s%s); FAL_CHECK_LAUNCH(\"%s\");%s%s }",
         name, hlimit, a, *a && *rargs ? ", " : "", rargs, name, post.data ? post.data : "",
         cs.used ? " }" : "");
  free(a);
  strbuf_free(&wbody);
  strbuf_free(&lcond);
  strbuf_free(&cs.begins);
  strbuf_free(&pre);
  strbuf_free(&post);
  strbuf_free(&body);
  strbuf_free(&params);
  strbuf_free(&views);
  strbuf_free(&args);
}

/* --mpi: the point properties that a foreach over a partitioned graph may
 * write, as a mask of their indices among the point properties: `x.f`
 * (f a point property, x any point) written by an assignment, ++/--, `&`,
 * or passed to a call (MIN, MAX, the atomics, or any function), in the
 * body and in the Falcon functions it calls, and likewise in every merge
 * function (its writes travel in phase 2).  A call through anything but a
 * name gives every property. */
typedef struct MpiWalk {
  Ctx *c;
  uint64_t mask;
  const Node **seen;
  int nseen;
} MpiWalk;

static int point_prop_index(const Program *p, const char *name)
{
  for (int i = 0, k = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT) {
      if (strcmp(p->props[i].name, name) == 0)
        return k;
      k++;
    }
  return -1;
}

static void mpi_writes(MpiWalk *w, const Node *root)
{
  for (int i = 0; i < w->nseen; i++)
    if (w->seen[i] == root)
      return;
  w->seen = xrealloc(w->seen, (size_t)(w->nseen + 1) * sizeof *w->seen);
  w->seen[w->nseen++] = root;
  Ctx *c = w->c;
  for (const Node *m = root; m; m = node_next(m, root, true)) {
    if (m->kind == K_FIELD_EXPRESSION && node_field(m, F_FIELD)) {
      char *f = text_of(c, node_field(m, F_FIELD));
      int k = point_prop_index(c->prog, f);
      if (k < 0)
        continue;
      bool wr = access_written(m, NULL);
      if (wr)
        w->mask |= k < 64 ? (uint64_t)1 << k : 0;
    } else if (m->kind == K_CALL_EXPRESSION) {
      const Node *fn = node_field(m, F_FUNCTION);
      if (fn && fn->kind == K_IDENTIFIER) {
        const FuncInfo *fi = program_func(c->prog, text_of(c, fn));
        if (fi && fi->def)
          mpi_writes(w, fi->def);
      } else if (!fn || fn->kind != K_FIELD_EXPRESSION) {
        w->mask = ~(uint64_t)0; /* through a pointer: anything */
      }
    }
  }
}

static bool name_is_one_of(Ctx *c, const Node *id, char *const *own, int nown)
{
  if (!id || id->kind != K_IDENTIFIER)
    return false;
  for (int i = 0; i < nown; i++)
    if (node_text_is(c->src, id, own[i]))
      return true;
  return false;
}

/* Whether identifier m (one of the own names) is given another point:
 * assigned, incremented, or its address taken.  Then `m.f` after it may
 * be any point's, and the walks below give up. */
static bool own_rebound(const Node *m)
{
  const Node *up = m;
  while (up->parent && up->parent->kind == K_PARENTHESIZED_EXPRESSION)
    up = up->parent;
  const Node *par = up->parent;
  return par && ((par->kind == K_ASSIGNMENT_EXPRESSION && node_field(par, F_LEFT) == up) ||
                 par->kind == K_UPDATE_EXPRESSION || par->kind == K_POINTER_EXPRESSION);
}

/* The parameters of Falcon function fi that receive the arguments of
 * call m: names[i] for args[i] (NULL where m passes more); at most max.
 * The count. */
static int call_params(Ctx *c, const Node *m, const FuncInfo *fi, const Node **args,
                       char **names, int max)
{
  const Node *ps = function_params(fi->def), *al = node_field(m, F_ARGUMENTS);
  const Node *p = ps ? ps->child : NULL;
  int n = 0;
  for (const Node *a = al ? al->child : NULL; a && n < max; a = a->next) {
    if (!a->named || a->kind == K_COMMENT)
      continue; /* punctuation */
    while (p && p->kind != K_PARAMETER_DECLARATION)
      p = p->next;
    const Node *pn = p ? declarator_name(node_field(p, F_DECLARATOR)) : NULL;
    args[n] = a;
    names[n++] = pn ? text_of(c, pn) : NULL;
    if (p)
      p = p->next;
  }
  return n;
}

/* --mpi, host ranks: a walk of code run for a foreach's point (its
 * condition or body, and the Falcon functions they call) that finds the
 * point properties it reaches at a point other than its own: `x.f` (f a
 * point property) with x not one of `own` (the loop variable, or a
 * parameter that received it), and whether it writes one there (as in
 * mpi_writes).  Anything unsure (a name of `own` declared again or given
 * another point, a call through a pointer, calls deeper than 8, more
 * than `budget` nodes) sets `unsure`.  Two rules read it:
 *  - mpi_own_only: every point-property write of the body is to the
 *    loop's own point, so no ghost changes, and the exchange skips its
 *    first phase (one message per neighbouring rank per round);
 *  - mpi_ghost_mask (docs/lowering.md "What ghosts hold"): the
 *    properties that some code may reach at a ghost.  Ghosts are read
 *    and written only by the foreaches over a partitioned graph's points
 *    (host code gathers from the owners, fal_G_fresh; a foreach over
 *    another graph that names it gathers first), so a property counts
 *    when such a foreach reaches it at another point, or a merge function
 *    names it (it sees the incoming copy's).  A property no code reaches
 *    at a ghost need not travel to the ghosts after a foreach that writes
 *    it; PageRank's `next`, `delta` and `rank` do not, its `contrib`
 *    (read at in-neighbours) does. */
typedef struct OwnWalk {
  Ctx *c;
  uint64_t other;   /* properties reached at other points (a mask like
                     * mpi_write_mask's; past the 64th: every bit) */
  bool wrote_other; /* one of them written */
  bool unsure;
  long budget;      /* nodes left to visit */
} OwnWalk;

static void own_walk(OwnWalk *w, const Node *root, char **own, int nown, int depth)
{
  Ctx *c = w->c;
  if (!root || w->unsure)
    return;
  if (depth > 8) {
    w->unsure = true;
    return;
  }
  for (const Node *m = root; m; m = node_next(m, root, true)) {
    if (--w->budget < 0 ||
        (m->kind == K_FOREACH_STATEMENT && name_is_one_of(c, node_field(m, F_VARIABLE), own, nown)) ||
        (m->kind == K_IDENTIFIER && name_is_one_of(c, m, own, nown) && own_rebound(m))) {
      w->unsure = true;
      return;
    }
    if (m->kind == K_DECLARATION || m->kind == K_PARAMETER_DECLARATION)
      for (const Node *d = m->child; d; d = d->next)
        if (name_is_one_of(c, declarator_name(d), own, nown)) {
          w->unsure = true;
          return;
        }
    if (m->kind == K_FIELD_EXPRESSION && node_field(m, F_FIELD)) {
      int k = point_prop_index(c->prog, text_of(c, node_field(m, F_FIELD)));
      if (k < 0 || name_is_one_of(c, node_unparen(node_field(m, F_ARGUMENT)), own, nown))
        continue;
      w->other |= k < 64 ? (uint64_t)1 << k : ~(uint64_t)0;
      if (access_written(m, NULL))
        w->wrote_other = true;
    } else if (m->kind == K_CALL_EXPRESSION) {
      const Node *fn = node_field(m, F_FUNCTION);
      if (!fn || (fn->kind != K_IDENTIFIER && fn->kind != K_FIELD_EXPRESSION)) {
        w->unsure = true; /* through a pointer: anything */
        return;
      }
      const FuncInfo *fi = fn->kind == K_IDENTIFIER ? program_func(c->prog, text_of(c, fn)) : NULL;
      if (!fi || !fi->def)
        continue;
      /* the parameters that receive an own point are the callee's own */
      const Node *args[64];
      char *names[64], *sub[16];
      int nsub = 0, na = call_params(c, m, fi, args, names, 64);
      for (int i = 0; i < na; i++)
        if (names[i] && name_is_one_of(c, args[i], own, nown) && nsub < 16)
          sub[nsub++] = names[i];
      own_walk(w, node_field(fi->def, F_BODY), sub, nsub, depth + 1);
    }
  }
}

static bool mpi_own_only(Ctx *c, const Node *body, char *own)
{
  OwnWalk w = {c, 0, false, false, LONG_MAX};
  own_walk(&w, body, &own, 1, 0);
  return !w.unsure && !w.wrote_other;
}

static uint64_t mpi_ghost_mask(Ctx *c, const Node *at)
{
  if (c->mpi_gmask_done)
    return c->mpi_gmask;
  const Node *root = at;
  while (root->parent)
    root = root->parent;
  OwnWalk w = {c, 0, false, false, 1L << 22};
  for (const Node *m = root; m && !w.unsure; m = node_next(m, root, true)) {
    if (m->kind != K_FOREACH_STATEMENT)
      continue;
    /* foreach (t In g.points), g partitioned */
    const Node *it = node_unparen(node_field(m, F_ITERABLE));
    const Node *gb = it && it->kind == K_FIELD_EXPRESSION ? node_unparen(node_field(it, F_ARGUMENT)) : NULL;
    const Node *f = it && it->kind == K_FIELD_EXPRESSION ? node_field(it, F_FIELD) : NULL;
    if (!gb || gb->kind != K_IDENTIFIER || !f || !node_text_is(c->src, f, "points"))
      continue;
    char *g = text_of(c, gb);
    if (!program_parted(c->prog, g))
      continue;
    char *own = text_of(c, node_field(m, F_VARIABLE));
    if (!own) {
      w.unsure = true;
      break;
    }
    own_walk(&w, node_field(m, F_CONDITION), &own, 1, 0);
    own_walk(&w, node_field(m, F_BODY), &own, 1, 0);
  }
  for (int i = 0; i < c->prog->nfuncs; i++)
    if (c->prog->funcs[i].merge && c->prog->funcs[i].def)
      own_walk(&w, c->prog->funcs[i].def, NULL, 0, 0); /* every property it names */
  c->mpi_gmask = w.unsure ? ~(uint64_t)0 : w.other;
  c->mpi_gmask_done = true;
  return c->mpi_gmask;
}

/* The border exchange's rule (CUDA target, docs/lowering.md "Partitioned
 * graphs (§7)"): a part keeps current values of its own points and of its
 * ghosts only, so a foreach may use it when every point property that its
 * condition and body (and the Falcon functions they call) read or write is
 * reached through the loop's point (`own`: the loop variable, or a
 * parameter that received it) or through a neighbour of it (`nbr`: the
 * variable of a foreach over own.outnbrs, own.innbrs or own.nbrs, or a
 * parameter that received one), and no edge property is touched (edges
 * are not exchanged).  *wrote_nbr tells whether a neighbour's property is
 * written (then ghosts change, and owners merge them).  Anything unsure
 * (a name of the sets declared again, a call through a pointer, deep
 * calls) answers false, and the foreach copies every property. */
typedef struct BxNames {
  char *own[16], *nbr[16];
  int nown, nnbr;
} BxNames;

/* The parameters of Falcon function fi that receive, at call m, an own
 * point or a neighbour of s: the callee's own points and neighbours. */
static BxNames bind_call(Ctx *c, const Node *m, const FuncInfo *fi, const BxNames *s)
{
  BxNames sub = {{0}, {0}, 0, 0};
  const Node *args[64];
  char *names[64];
  int na = call_params(c, m, fi, args, names, 64);
  for (int i = 0; i < na; i++) {
    if (names[i] && name_is_one_of(c, args[i], s->own, s->nown) && sub.nown < 16)
      sub.own[sub.nown++] = names[i];
    else if (names[i] && name_is_one_of(c, args[i], s->nbr, s->nnbr) && sub.nnbr < 16)
      sub.nbr[sub.nnbr++] = names[i];
  }
  return sub;
}

/* Whether m names an own point or a neighbour of s and gives it another
 * point (own_rebound). */
static bool bx_rebound(Ctx *c, const Node *m, const BxNames *s)
{
  return m->kind == K_IDENTIFIER && own_rebound(m) &&
         (name_is_one_of(c, m, s->own, s->nown) || name_is_one_of(c, m, s->nbr, s->nnbr));
}

static bool bx_local(Ctx *c, const Node *root, const BxNames *in, int depth, bool *wrote_nbr)
{
  if (!root)
    return true;
  if (depth > 8)
    return false;
  BxNames s = *in;
  /* the neighbour loops over an own point, anywhere in root */
  for (const Node *m = root; m; m = node_next(m, root, true)) {
    if (m->kind != K_FOREACH_STATEMENT)
      continue;
    const Node *it = node_field(m, F_ITERABLE), *var = node_field(m, F_VARIABLE);
    if (it && it->kind == K_FIELD_EXPRESSION && var && var->kind == K_IDENTIFIER &&
        name_is_one_of(c, node_field(it, F_ARGUMENT), s.own, s.nown) &&
        node_field(it, F_FIELD) &&
        is_one_of(text_of(c, node_field(it, F_FIELD)), (const char *const[]){"outnbrs", "innbrs", "nbrs", NULL})) {
      if (s.nnbr == 16)
        return false;
      s.nbr[s.nnbr++] = text_of(c, var);
    }
  }
  for (const Node *m = root; m; m = node_next(m, root, true)) {
    if (m->kind == K_FOREACH_STATEMENT && m != root &&
        name_is_one_of(c, node_field(m, F_VARIABLE), s.own, s.nown))
      return false;
    if (m->kind == K_DECLARATION || m->kind == K_PARAMETER_DECLARATION)
      for (const Node *d = m->child; d; d = d->next)
        if (name_is_one_of(c, declarator_name(d), s.own, s.nown) ||
            name_is_one_of(c, declarator_name(d), s.nbr, s.nnbr))
          return false;
    if (bx_rebound(c, m, &s))
      return false;
    if (m->kind == K_FIELD_EXPRESSION && node_field(m, F_FIELD)) {
      const Prop *pr = program_prop(c->prog, text_of(c, node_field(m, F_FIELD)));
      if (!pr || pr->kind == PK_GRAPH || pr->kind == PK_VIEW)
        continue;
      if (pr->kind == PK_EDGE)
        return false;
      const Node *base = node_unparen(node_field(m, F_ARGUMENT));
      bool own = name_is_one_of(c, base, s.own, s.nown);
      if (!own && !name_is_one_of(c, base, s.nbr, s.nnbr))
        return false;
      bool wr = access_written(m, NULL);
      if (wr && !own)
        *wrote_nbr = true;
    } else if (m->kind == K_CALL_EXPRESSION) {
      const Node *fn = node_field(m, F_FUNCTION);
      if (!fn || (fn->kind != K_IDENTIFIER && fn->kind != K_FIELD_EXPRESSION))
        return false;
      const FuncInfo *fi = fn->kind == K_IDENTIFIER ? program_func(c->prog, text_of(c, fn)) : NULL;
      if (!fi || !fi->def)
        continue;
      BxNames sub = bind_call(c, m, fi, &s);
      if (!bx_local(c, node_field(fi->def, F_BODY), &sub, depth + 1, wrote_nbr))
        return false;
    }
  }
  return true;
}

/* --mpi: whether each rank may read only the out-edges of its own points
 * of partitioned graph `graph` (fal_mpi_gbase_read; docs/lowering.md
 * "What each rank keeps").  That holds when no code reaches an edge that
 * leaves a point of another rank:
 *  - in a foreach over graph.points (its condition, its body and the Falcon
 *    functions they call, parameters bound as in bx_local), neighbour loops
 *    walk only the loop's own point, getweight/getedge take the own point
 *    and one of its out-neighbours (and the program builds no in-edges,
 *    whose weights another rank may hold), and no edge property or edge
 *    loop appears;
 *  - everywhere else (main, functions that host code calls, functions
 *    nothing calls such as the merge function), no edge is reached at all,
 *    of any graph, and the graph itself is named only as `graph.x` or in a
 *    declaration.
 * A program that mutates a graph reads it whole. */
typedef struct RowsWalk {
  Ctx *c;
  const char *graph;
  char **host;   /* Falcon functions that host code may call */
  int nhost;
  const char *why;
  const Node *at;
} RowsWalk;

static bool rows_fail(RowsWalk *w, const Node *at, const char *why)
{
  if (!w->why) {
    w->why = why;
    w->at = at;
  }
  return false;
}

static const char *const rows_nbr_fields[] = {"outnbrs", "innbrs", "nbrs", NULL};

/* `foreach (t In graph.points)` */
static bool rows_points_loop(RowsWalk *w, const Node *m)
{
  if (m->kind != K_FOREACH_STATEMENT)
    return false;
  const Node *it = node_field(m, F_ITERABLE);
  if (!it || it->kind != K_FIELD_EXPRESSION || !node_field(it, F_FIELD))
    return false;
  const Node *g = node_unparen(node_field(it, F_ARGUMENT));
  return g && g->kind == K_IDENTIFIER && node_text_is(w->c->src, g, w->graph) &&
         node_text_is(w->c->src, node_field(it, F_FIELD), "points");
}

/* An edge reached: an edge property, an edge loop or g.edges, getweight
 * or getedge (method names). */
static bool rows_edge_field(RowsWalk *w, const Node *m)
{
  if (m->kind != K_FIELD_EXPRESSION || !node_field(m, F_FIELD))
    return false;
  char *f = text_of(w->c, node_field(m, F_FIELD));
  const Prop *pr = program_prop(w->c->prog, f);
  return (pr && pr->kind == PK_EDGE) || strcmp(f, "edges") == 0;
}

static bool rows_body(RowsWalk *w, const Node *root, const BxNames *in, int depth)
{
  Ctx *c = w->c;
  if (!root)
    return true;
  if (depth > 8)
    return rows_fail(w, root, "calls nested too deeply to follow");
  BxNames s = *in;
  for (const Node *m = root; m; m = node_next(m, root, true)) {
    if (m->kind != K_FOREACH_STATEMENT)
      continue;
    const Node *it = node_field(m, F_ITERABLE), *var = node_field(m, F_VARIABLE);
    if (!it || it->kind != K_FIELD_EXPRESSION || !node_field(it, F_FIELD))
      continue;
    char *f = text_of(c, node_field(it, F_FIELD));
    if (strcmp(f, "edges") == 0)
      return rows_fail(w, m, "a loop over edges");
    if (!is_one_of(f, rows_nbr_fields))
      continue;
    if (!name_is_one_of(c, node_unparen(node_field(it, F_ARGUMENT)), s.own, s.nown))
      return rows_fail(w, m, "a neighbour loop over a point that another rank may own");
    if (var && var->kind == K_IDENTIFIER && s.nnbr < 16 && strcmp(f, "innbrs") != 0)
      s.nbr[s.nnbr++] = text_of(c, var);
  }
  for (const Node *m = root; m; m = node_next(m, root, true)) {
    if (m->kind == K_DECLARATION || m->kind == K_PARAMETER_DECLARATION)
      for (const Node *d = m->child; d; d = d->next)
        if (name_is_one_of(c, declarator_name(d), s.own, s.nown) ||
            name_is_one_of(c, declarator_name(d), s.nbr, s.nnbr))
          return rows_fail(w, m, "a name of the loop's point declared again");
    if (bx_rebound(c, m, &s))
      return rows_fail(w, m, "the loop's point (or a neighbour's name) given another point");
    if (rows_edge_field(w, m))
      return rows_fail(w, m, "an edge property or the edges of the graph");
    if (m->kind != K_CALL_EXPRESSION)
      continue;
    const Node *fn = node_field(m, F_FUNCTION);
    if (fn && fn->kind == K_FIELD_EXPRESSION && node_field(fn, F_FIELD)) {
      char *meth = text_of(c, node_field(fn, F_FIELD));
      if (strcmp(meth, "getweight") && strcmp(meth, "getedge"))
        continue;
      const Node *args = node_field(m, F_ARGUMENTS);
      if (c->prog->uses_in_edges ||
          !name_is_one_of(c, node_unparen(node_named_child(args, 0)), s.own, s.nown) ||
          !name_is_one_of(c, node_unparen(node_named_child(args, 1)), s.nbr, s.nnbr))
        return rows_fail(w, m, "an edge look-up other than from the loop's point to "
                               "one of its out-neighbours");
      continue;
    }
    const FuncInfo *fi = fn && fn->kind == K_IDENTIFIER ? program_func(c->prog, text_of(c, fn)) : NULL;
    if (!fi || !fi->def)
      continue;
    BxNames sub = bind_call(c, m, fi, &s);
    if (!rows_body(w, node_field(fi->def, F_BODY), &sub, depth + 1))
      return false;
  }
  return true;
}

static bool rows_is_host(const RowsWalk *w, const char *name)
{
  for (int i = 0; i < w->nhost; i++)
    if (strcmp(w->host[i], name) == 0)
      return true;
  return false;
}

/* Host code `root` (foreach loops over graph.points left out: rows_body
 * checks them): no edge reached, the graph named only as graph.x or in a
 * declaration; the Falcon functions it calls join the host ones. */
static bool rows_host(RowsWalk *w, const Node *root)
{
  Ctx *c = w->c;
  for (const Node *m = root; m; ) {
    if (rows_points_loop(w, m)) {
      const Node *var = node_field(m, F_VARIABLE);
      BxNames own = {{0}, {0}, 0, 0};
      if (var && var->kind == K_IDENTIFIER)
        own.own[own.nown++] = text_of(c, var);
      if (!rows_body(w, node_field(m, F_CONDITION), &own, 0) ||
          !rows_body(w, node_field(m, F_BODY), &own, 0))
        return false;
      m = node_next(m, root, false);
      continue;
    }
    if (m->kind == K_FOREACH_STATEMENT) {
      const Node *it = node_field(m, F_ITERABLE);
      if (it && it->kind == K_FIELD_EXPRESSION && node_field(it, F_FIELD) &&
          (is_one_of(text_of(c, node_field(it, F_FIELD)), rows_nbr_fields) ||
           node_text_is(c->src, node_field(it, F_FIELD), "edges")))
        return rows_fail(w, m, "host code reaches edges");
    }
    if (rows_edge_field(w, m))
      return rows_fail(w, m, "host code reaches edges");
    if (m->kind == K_CALL_EXPRESSION) {
      const Node *fn = node_field(m, F_FUNCTION);
      if (fn && fn->kind == K_FIELD_EXPRESSION && node_field(fn, F_FIELD) &&
          (node_text_is(c->src, node_field(fn, F_FIELD), "getweight") ||
           node_text_is(c->src, node_field(fn, F_FIELD), "getedge")))
        return rows_fail(w, m, "host code reaches edges");
      const FuncInfo *fi = fn && fn->kind == K_IDENTIFIER ? program_func(c->prog, text_of(c, fn)) : NULL;
      if (fi && fi->def && !rows_is_host(w, fi->name)) {
        w->host = xrealloc(w->host, (size_t)(w->nhost + 1) * sizeof *w->host);
        w->host[w->nhost++] = fi->name;
      }
    }
    if (m->kind == K_IDENTIFIER && node_text_is(c->src, m, w->graph)) {
      const Node *up = m->parent;
      bool ok = up && ((up->kind == K_FIELD_EXPRESSION && node_field(up, F_ARGUMENT) == m) ||
                       up->kind == K_DECLARATION || up->kind == K_INIT_DECLARATOR ||
                       up->kind == K_PARAMETER_DECLARATION);
      if (!ok)
        return rows_fail(w, m, "host code names the graph itself (a copy or a call "
                               "may reach any edge)");
    }
    m = node_next(m, root, true);
  }
  return true;
}

/* Whether a call names function `name` anywhere in `root`. */
static bool rows_called(Ctx *c, const Node *root, const char *name)
{
  for (const Node *m = root; m; m = node_next(m, root, true))
    if (m->kind == K_CALL_EXPRESSION) {
      const Node *fn = node_field(m, F_FUNCTION);
      if (fn && fn->kind == K_IDENTIFIER && node_text_is(c->src, fn, name))
        return true;
    }
  return false;
}

bool mpi_rows_ok(Ctx *c, const Node *at, const char *graph, const char **why)
{
  const Node *root = at;
  while (root->parent)
    root = root->parent;
  RowsWalk w = {c, graph, NULL, 0, NULL, NULL};
  if (c->prog->mutates) {
    *why = "the program changes a graph (§6)";
    return false;
  }
  if (c->prog->uses_sources) {
    *why = "the program uses every edge's source";
    return false;
  }
  /* main, and the functions that nothing calls (the merge function) */
  for (int i = 0; i < c->prog->nfuncs; i++) {
    const FuncInfo *f = &c->prog->funcs[i];
    if (f->def && (strcmp(f->name, "main") == 0 || !rows_called(c, root, f->name))) {
      w.host = xrealloc(w.host, (size_t)(w.nhost + 1) * sizeof *w.host);
      w.host[w.nhost++] = f->name;
    }
  }
  bool ok = true;
  for (int i = 0; ok && i < w.nhost; i++) { /* grows as host calls are found */
    const FuncInfo *f = program_func(c->prog, w.host[i]);
    ok = !f || !f->def || rows_host(&w, f->def);
  }
  /* code outside every Falcon function (initialisers) */
  for (const Node *m = root->child; ok && m; m = m->next)
    if (m->kind != K_FUNCTION_DEFINITION)
      ok = rows_host(&w, m);
  free(w.host);
  if (!ok)
    *why = ctx_printf(c, "%s (line %u)", w.why, w.at ? w.at->loc.line : 0);
  return ok;
}

/* merges: and the merge functions' writes (phase 1 runs: not for a
 * foreach that writes only its own points) */
static uint64_t mpi_write_mask(Ctx *c, const Node *foreach, bool merges)
{
  MpiWalk w = {c, 0, NULL, 0};
  mpi_writes(&w, foreach);
  for (int i = 0; merges && i < c->prog->nfuncs; i++)
    if (c->prog->funcs[i].merge && c->prog->funcs[i].def)
      mpi_writes(&w, c->prog->funcs[i].def);
  free(w.seen);
  return w.mask;
}

/* --mpi: a foreach over another graph whose body names a partitioned
 * graph may read any of its points, so every rank's values are gathered
 * first (once; nothing if they are current).  Per element that would be
 * a collective call inside a parallel loop. */
static void mpi_fresh_before(Ctx *c, const Node *n)
{
  for (int i = 0; i < c->prog->nparted; i++) {
    const char *g = c->prog->parted[i];
    for (const Node *m = n; m; m = node_next(m, n, true))
      if (m->kind == K_IDENTIFIER && node_text_is(c->src, m, g)) {
        /* CUDA: the body may write its points too (they go to the parts) */
        putf(c, c->mpi && !c->gpu ? "fal_G_fresh(%s); " : "fal_G_fresh(fal_G_markall(%s)); ", g);
        break;
      }
  }
}

/* A foreach that leaves every copy of a point alike (docs/lowering.md
 * "A foreach that writes alike on every copy"): its condition and body
 * read no point, edge or graph property, call nothing, hold no
 * neighbour loop, reduction, single or section, name no file-scope
 * variable, and write nothing but the loop point's point properties with a
 * plain `=` (`t.dist = INF`).  What
 * it writes at point t then depends only on t and on values every part
 * has alike, so each part may run it over every point it holds, its
 * ghosts with its own points, and no exchange has to follow: the ghosts
 * already hold what their owners wrote. */
static bool bx_alike(Ctx *c, const Node *root, const char *var)
{
  if (!root)
    return true;
  for (const Node *m = root; m; m = node_next(m, root, true)) {
    switch (m->kind) {
    case K_CALL_EXPRESSION:
    case K_REDUCTION_EXPRESSION:
    case K_FOREACH_STATEMENT:
    case K_SINGLE_STATEMENT:
    case K_PARALLEL_SECTIONS_STATEMENT:
    case K_POINTER_EXPRESSION:
    case K_UPDATE_EXPRESSION:
      return false;
    case K_IDENTIFIER: {
      /* a file-scope variable: on the CUDA target each device keeps its
       * own copy, which loops on the parts may have left different */
      const Sym *sy = sym_find(c, c->src->text + m->start, m->end - m->start);
      if (sy && sy->global)
        return false;
      break;
    }
    case K_ASSIGNMENT_EXPRESSION: {
      const Node *l = node_unparen(node_field(m, F_LEFT)), *op = node_field(m, F_OPERATOR);
      if (!op || !node_text_is(c->src, op, "=") || !l || l->kind != K_FIELD_EXPRESSION ||
          !node_field(l, F_FIELD))
        return false;
      const Prop *pr = program_prop(c->prog, text_of(c, node_field(l, F_FIELD)));
      const Node *b = node_unparen(node_field(l, F_ARGUMENT));
      if (!pr || pr->kind != PK_POINT || !b || b->kind != K_IDENTIFIER || !node_text_is(c->src, b, var))
        return false;
      break;
    }
    case K_FIELD_EXPRESSION: {
      const Node *f = node_field(m, F_FIELD);
      const Prop *pr = f ? program_prop(c->prog, text_of(c, f)) : NULL;
      if (!pr)
        break; /* not a property (hg.npoints, a struct's field) */
      /* only as the left side of the checked assignment above */
      const Node *up = m->parent;
      while (up && up->kind == K_PARENTHESIZED_EXPRESSION)
        up = up->parent;
      if (!up || up->kind != K_ASSIGNMENT_EXPRESSION || node_unparen(node_field(up, F_LEFT)) != m)
        return false;
      break;
    }
    default:
      break;
    }
  }
  return true;
}

/* A pull round of a level-synchronous loop (plan.c pull_rule;
 * docs/optimiser.md "Pull rounds on GPU parts"), in the host's round:
 * records the range [lo, hi) and arrays of graph (or GPU part) `g`, part
 * `pi` of the loop's fal_pdir (c->pull_d), for the count after the round,
 * and when the fal_pdir says so (and `cond`, C code, when not NULL) launches the
 * pull kernel over that range instead of the phase; opens the `else`
 * that the phase's launch fills (the caller closes it).  Over parts every
 * part then pulls (fal_pdir pulls only when all are GPU parts), so no
 * round mixes directions. */
static void pull_launch(Ctx *c, const char *g, const char *pi, const char *lo, const char *hi,
                        const char *cond)
{
  const char *d = c->pull_d, *P = c->pull_P, *T = c->pull_T;
  putf(c, "%s.P[%s] = (const void *)%s->%s; %s.off[%s] = %s->fal_base.csr.offsets; "
       "%s.lo[%s] = %s; %s.hi[%s] = %s; ", d, pi, g, P, d, pi, g, d, pi, lo, d, pi, hi);
  putf(c, "if (%s.ds.dir%s%s) { fal_cuda_use(%s->fal_base.device); "
       "fal_pull_kernel<%s><<<fal_cuda_grid(%s - %s), FAL_BLOCK>>>(%s->%s, "
       "%s->fal_base.csr.offsets, %s->fal_base.csr.dst, (int64_t)(%s), (int64_t)(%s), (%s)(%s), %d, "
       "(%s)(%s), %s, fal_pdir_cnt(&%s, %s)); FAL_CHECK_LAUNCH(\"fal_pull_kernel\"); } else { ",
       d, cond ? " && " : "", cond ? cond : "", g, T, hi, lo, g, P, g, g, lo, hi, T, c->pull_v, c->pull_K ? 1 : 0, T,
       c->pull_K ? c->pull_K : "0", c->pull_Fp, d, pi);
}

/* foreach (t In hg.points) S, hg partitioned (§7)  ==>
 *   { fal_G_parts_push(hg);                  copies of the current values
 *     for each GPU part: launch S over the part's points (asynchronous)
 *     for each host part: an OpenMP loop of S over the part's points
 *       (parts that share the host graph: one loop over all points)
 *     fal_G_parts_pull(hg); }                ghosts merged, results back
 * Inside, `hg` names the part being processed. */
static void render_partitioned_foreach(Ctx *c, const Node *n, const Iter *it,
                                       const char *var)
{
  const char *g = it->graph;
  if (c->mpi) {
    for (const Node *up = n->parent; up; up = up->parent)
      if (up->kind == K_PARALLEL_SECTIONS_STATEMENT) {
        error_at(c->src, n->loc, "with --mpi, a foreach over a partitioned graph "
                 "cannot run inside parallel sections: its exchange is a step "
                 "that every rank takes together (§7)");
        return;
      }
    /* --mpi: this rank's points of the host graph itself; then the changed
     * ghosts and borders travel (fal_G_mpi_end). */
    char *own = text_of(c, node_field(n, F_VARIABLE));
    bool one = own && mpi_own_only(c, node_field(n, F_BODY), own);
    /* --target=gpu: on the rank's GPU when it has one */
    /* lower_plan.c emit_mpx_loop: the loop's phase, whose MINs go to
     * their owners (and pushes to the other rank's copy) where the ranks
     * reach each other's GPUs: no exchange (FAL_EX_OWNERS, fal_G_mpi_end_rm) */
    const bool mh = c->gpu && c->mpx_h && c->mpx_n == n;
    /* bx_alike: every rank runs it over all its points (a rank's arrays
     * hold every point), and nothing travels (FAL_EX_ALIKE) */
    const bool alike = !mh && c->topo_n != n && bx_alike(c, node_field(n, F_CONDITION), own) &&
                       bx_alike(c, node_field(n, F_BODY), own);
    /* host ranks: only what some code reaches at a ghost travels
     * (mpi_ghost_mask); a foreach that writes only its own points and
     * none of that has nothing to send (FAL_EX_ALIKE's exchange: none),
     * though it runs over the rank's own points.  GPU ranks (their
     * staging, merges and pushes) send every property they write. */
    uint64_t wmask = mpi_write_mask(c, n, c->gpu || alike || !one);
    if (!c->gpu && !alike)
      wmask &= mpi_ghost_mask(c, n);
    const bool quiet = !c->gpu && !alike && one && wmask == 0 && c->topo_n != n;
    /* host ranks: the loop's phase, which may pull (lower_plan.c
     * emit_mpi_loop: c->pull_d is its fal_dstate) */
    const bool mpl = c->pull_d && c->pull_n == n && !alike && !quiet && c->topo_n != n;
    if (c->opt->explain && !c->gpu && !alike)
      fprintf(stderr, "%s:%u: foreach over partitioned '%s' (--mpi): %s\n", c->src->path,
              n->loc.line, g,
              quiet ? "it writes only its own points, and nothing it writes is read at another "
                      "point: no exchange"
              : one ? "its own points' changed values go to the ranks that hold them as ghosts"
                    : "changed ghosts go to their owners, then owners' changed values to the ghosts");
    if (mh)
      putf(c, "{ void *fal_mxh = fal_mpx_host(&%s); ", c->mpx_h);
    putf(c, "{ fal_G_mpi_begin(%s, %d, 0x%llxu, %s); { fal_G *fal_part = %s; int64_t fal_lo = %s, "
         "fal_hi = %s; ", g, (int)n->loc.line, (unsigned long long)wmask,
         alike || quiet ? "FAL_EX_ALIKE" : mh ? ctx_printf(c, "fal_mxh ? FAL_EX_OWNERS : %s", ex_name(one))
                                    : ex_name(one),
         c->gpu ? ctx_printf(c, "%s->fal_mpi_gpu ? %s->fal_mpi_gpu : %s", g, g, g) : g,
         alike ? "0" : ctx_printf(c, "%s->fal_mpi->lo[%s->fal_mpi->rank]", g, g),
         alike ? ctx_printf(c, "%s->npoints", g)
               : ctx_printf(c, "%s->fal_mpi->lo[%s->fal_mpi->rank + 1]", g, g));
    if (c->gpu) {
      put(c, "if (fal_part->fal_base.on_gpu) { ");
      if (mh)
        putf(c, "fal_part->fal_rmt = fal_mpx_ctx(&%s, fal_mxh); ", c->mpx_h);
      if (c->topo_n == n) /* lower_plan.c emit_mpi_loop: a topology-driven loop */
        putf(c, "%s *fal_snp = %s; ", c->topo_T,
             topo_seen_expr(c, "0", "fal_part->fal_base.device", "(fal_hi - fal_lo)"));
      /* repeated to the rank's own fixpoint before the exchange, while
       * the kernel visits points that changed (docs/lowering.md "GPU
       * ranks repeat a phase until it settles") */
      bool rep = c->topo_n == n && c->topo_rep;
      if (rep)
        putf(c, "fal_mpi_plan *fal_mp = %s->fal_mpi; fal_rep_round(&%s); for (;;) { unsigned *fal_svis = "
             "fal_snp ? fal_rep_arm(&%s) : NULL; ", g, c->topo_rep, c->topo_rep);
      putf(c, "fal_G *%s = fal_part; ", g);
      if (mpl) /* a pull round on the rank's GPU (fal_pull_kernel), unless
                * the ranks map each other (their MINs go to the owners) */
        putf(c, "if (%s.dir%s) { fal_cuda_use(%s->fal_base.device); fal_pull_kernel<%s><<<"
                "fal_cuda_grid(fal_hi - fal_lo), FAL_BLOCK>>>(%s->%s, %s->fal_base.csr.offsets, "
                "%s->fal_base.csr.dst, fal_lo, fal_hi, (%s)(%s), %d, (%s)(%s), %s, "
                "(unsigned long long *)NULL); FAL_CHECK_LAUNCH(\"fal_pull_kernel\"); } else { ",
             c->pull_d, mh ? " && !fal_mxh" : "", g, c->pull_T, g, c->pull_P, g, g, c->pull_T,
             c->pull_v, c->pull_K ? 1 : 0, c->pull_T, c->pull_K ? c->pull_K : "0",
             c->pull_Fp ? ctx_printf(c, "&%s->%s[0]", g, c->pull_Fp) : "(int *)NULL");
      render_kernel_foreach(c, n, it, var, true);
      if (mpl)
        put(c, " }");
      if (rep)
        putf(c, " int fal_rfirst = !%s; %s = 1; fal_mp->dev_reps++; if (!fal_rep_next(&%s, "
             "fal_snp != NULL, fal_rfirst)) break; }", c->topo_tv, c->topo_tv, c->topo_rep);
      else if (c->topo_n == n)
        putf(c, " %s = 1;", c->topo_tv);
      if (mh)
        put(c, " fal_part->fal_rmt = fal_rmv_none();");
      put(c, " } else ");
    }
    putf(c, "{ fal_G *%s = fal_part; ", g);
    if (c->topo_n == n && !c->gpu) {
      /* a host rank's topology-driven phase (plan.c parts_topo_rule):
       * it skips the own points whose P is what it was at their last
       * visit (the argument of docs/lowering.md "GPU ranks repeat a phase
       * until it settles", first half).  It runs once a round: repeated
       * to its fixpoint, each sweep scans every own point, and road-FLA
       * SSSP with 2 ranks took 6.0 s (2,500 to 3,100 sweeps) against
       * 1.5 s once a round (827 rounds), 7.1 s before the skip. */
      putf(c, "%s *fal_snp = NULL; if (%s) { size_t fal_sb = (size_t)(fal_hi - fal_lo) * sizeof(%s) + 1; "
           "if (%s.n < fal_sb) { fal_free(%s.p); %s.p = fal_alloc(fal_sb); %s.n = fal_sb; } fal_snp = (%s *)%s.p; } ",
           c->topo_T, c->topo_ok, c->topo_T, c->topo_sn, c->topo_sn, c->topo_sn, c->topo_sn,
           c->topo_T, c->topo_sn);
      c->rskip = ctx_printf(c, "if (fal_snp) { %s fal_sv; __atomic_load(&%s->%s[%s], &fal_sv, "
                            "__ATOMIC_RELAXED); if (%s && fal_sv == fal_snp[%s - fal_lo]) continue; "
                            "fal_snp[%s - fal_lo] = fal_sv; } ",
                            c->topo_T, g, c->topo_P, var, c->topo_tv, var, var);
      render_foreach_all(c, n, it, var, true, true);
      c->rskip = NULL;
      putf(c, " %s = 1;", c->topo_tv);
    } else if (mpl) {
      /* a pull round (plan.c pull_rule; docs/lowering.md "Pull rounds on
       * host ranks"): each own point not yet set looks for a neighbour at
       * the round's value among its out-neighbours (undirected: its
       * in-neighbours), whose ghosts the last exchange refreshed; it
       * writes only its own point, as the CPU's region does */
      putf(c, "if (%s.dir) {\n#pragma omp parallel for schedule(dynamic, 1024)\n%s} else { ",
           c->pull_d,
           cpu_pull_scan(c, g, c->pull_T, c->pull_P, c->pull_K, c->pull_v, "fal_lo", "fal_hi",
                         ctx_printf(c, "%s->fal_base.csr.offsets", g),
                         ctx_printf(c, "%s->fal_base.csr.dst", g),
                         c->pull_Fp ? ctx_printf(c, "FAL_SET_FLAG(%s->%s[0]); ", g, c->pull_Fp) : ""));
      render_foreach_all(c, n, it, var, true, true);
      put(c, " }");
    } else
      render_foreach_all(c, n, it, var, true, true);
    /* after the exchange: the round's own new points and their out-edges
     * (on the rank's GPU where it has one), summed over the ranks, pick
     * the next direction */
    const char *mc = "";
    if (mpl) {
      const char *hc = ctx_printf(
          c, "\n#pragma omp parallel for reduction(+ : fal_maw, fal_msc)\n"
             "for (int64_t fal_i = fal_mlo; fal_i < fal_mhi; fal_i++) if (%s->%s[fal_i] == (%s) + 1) "
             "{ fal_maw++; fal_msc += %s->fal_base.csr.offsets[fal_i + 1] - "
             "%s->fal_base.csr.offsets[fal_i]; }\n",
          g, c->pull_P, c->pull_v, g, g);
      const char *dc =
          !c->gpu ? hc
                  : ctx_printf(c, "if (%s->fal_mpi_gpu) { fal_cuda_use(%s->fal_mpi_gpu->fal_base.device); "
                                  "fal_mdir_dcount<%s>(&%s_d, %s->fal_mpi_gpu->%s, "
                                  "%s->fal_mpi_gpu->fal_base.csr.offsets, fal_mlo, fal_mhi, "
                                  "(long long)(%s), &fal_maw, &fal_msc); } else {%s}",
                               g, g, c->pull_T, c->pull_d, g, c->pull_P, g, c->pull_v, hc);
      mc = ctx_printf(c, " %s.pulls += %s.dir%s; if (fal_dstate_counts(&%s)) { long long fal_maw = 0, "
                         "fal_msc = 0; int64_t fal_mlo = %s->fal_mpi->lo[%s->fal_mpi->rank], fal_mhi = "
                         "%s->fal_mpi->lo[%s->fal_mpi->rank + 1]; %s fal_mdir_decide(&%s, fal_maw, "
                         "fal_msc); }",
                      c->pull_d, c->pull_d, mh ? " && !fal_mxh" : "", c->pull_d, g, g, g, g, dc,
                      c->pull_d);
    }
    if (mh) /* (FALCON_MPX_HOST=gather: the borders merged, the ghosts refreshed) */
      putf(c, " } }\nif (fal_mxh) { fal_G_mpi_end_rm(%s); fal_mpx_gather(&%s, %s->fal_mpi, "
           "%s->fal_mpi_did, %s->fal_mpi_gpu->%s, %d); } else fal_G_mpi_end(%s); }%s }", g, c->mpx_h, g,
           g, g, c->mpx_P, c->mpx_max ? 1 : 0, g, mc);
    else
      putf(c, " } }\n%s(%s); }%s", alike || quiet ? "fal_G_mpi_end_alike" : "fal_G_mpi_end", g, mc);
    return;
  }
  /* CUDA target: the border exchange when the rule holds (bx_local);
   * otherwise the host graph is brought up to date and every property
   * travels.  fal_G_bx_begin falls back to the copies at run time when
   * the exchange cannot run (host parts, devices without peer access). */
  BxNames own = {{0}, {0}, 0, 0};
  bool wrote_nbr = false, local = false;
  if (c->gpu) {
    own.own[own.nown++] = (char *)var;
    local = bx_local(c, node_field(n, F_CONDITION), &own, 0, &wrote_nbr) &&
            bx_local(c, node_field(n, F_BODY), &own, 0, &wrote_nbr);
  }
  /* bx_alike: each part runs it over all its points, ghosts too, and
   * nothing is exchanged after it (fal_G_bx_end's FAL_EX_ALIKE) */
  const bool alike = local && !wrote_nbr && c->topo_n != n &&
                     bx_alike(c, node_field(n, F_CONDITION), var) &&
                     bx_alike(c, node_field(n, F_BODY), var);
  /* the phase of a loop that may pull (emit_auto_loop's host rounds) */
  const bool pl = c->gpu && local && !alike && c->pull_n == n && c->pull_d && !c->pull_g;
  if (c->gpu && c->opt->explain)
    fprintf(stderr, "%s:%u: foreach over partitioned '%s': %s\n", c->src->path, n->loc.line, g,
            !local ? "every property copied to and from each part (it reaches points that "
                     "are neither its own nor their neighbours, or edge properties)"
            : alike ? "each part writes its ghosts as their owners do (it writes only its "
                      "point, from no property): no exchange"
            : wrote_nbr ? "border exchange when every part is on a GPU (changed ghosts merged "
                          "by their owners, then every ghost refreshed)"
                        : "border exchange when every part is on a GPU (its own points only: "
                          "ghosts refreshed from their owners)");
  /* Each part's range: its own points; an alike loop's, every point (a
   * part's arrays hold every point) when the exchange runs, and without
   * it (fal_bxon 0: every property copied, then fal_G_parts_pull merges
   * each copy that changed a point) its own points, as before, so that a
   * merge function that is not idempotent (a sum) still sees one changed
   * copy of each point.  Parts that share the host graph: one loop over
   * all points. */
  const char *part_loop = ctx_printf(c,
      "for (int fal_pi = 0; fal_pi < %s->fal_nparts; fal_pi++) { fal_G *fal_part = "
      "&%s->fal_parts[fal_pi]; int64_t fal_lo = %s%s->fal_lo[fal_pi], fal_hi = %s%s->fal_lo[fal_pi + 1]; "
      "if (%s->fal_shared) { if (fal_pi > 0) break; fal_hi = %s->fal_lo[%s->fal_nparts]; } ",
      g, g, alike ? "fal_bxon ? 0 : " : "", g,
      alike ? ctx_printf(c, "fal_bxon ? %s->fal_lo[%s->fal_nparts] : ", g, g) : "", g, g, g, g);
  if (local)
    putf(c, "{ int fal_bxon = fal_G_bx_begin(%s, %s); ", g, ex_name(!wrote_nbr));
  else if (c->gpu)
    putf(c, "{ fal_G_fresh(%s); fal_G_parts_push(%s); ", g, g);
  else
    putf(c, "{ fal_G_parts_push(%s); ", g);
  if (c->gpu) {
    /* a topology-driven loop's phase (lower_plan.c topo_open): its MINs
     * on other parts' points go to their owners (plan.c plan_remote), so
     * the exchange after it merges nothing new.  (A level-synchronous
     * loop's host rounds keep the exchange: on kron-22 BFS its MINs to
     * the owners and the ghosts cost more than the exchange they save,
     * docs/optimiser.md "Level-synchronous loops over parts".) */
    const bool rm = c->topo_n == n && c->topo_rm && local;
    if (rm)
      putf(c, "int fal_rmon = %s; ", rm_ready_expr(c, g));
    put(c, part_loop);
    put(c, "if (fal_part->fal_base.on_gpu) { ");
    if (c->topo_n == n) /* lower_plan.c emit_auto_loop: a topology-driven loop */
      putf(c, "%s *fal_snp = %s; ", c->topo_T,
           topo_seen_expr(c, "fal_pi", "fal_part->fal_base.device", "(fal_hi - fal_lo)"));
    if (rm)
      putf(c, "fal_part->fal_rmt = fal_rmon ? fal_rm_part(&%s, fal_pi, 0) : fal_rmv_none(); ", c->topo_rm);
    if (pl)
      pull_launch(c, "fal_part", "fal_pi", "fal_lo", "fal_hi", "fal_bxon");
    putf(c, "fal_G *%s = fal_part; ", g);
    render_kernel_foreach(c, n, it, var, true);
    if (pl)
      put(c, " }");
    put(c, rm ? " fal_part->fal_rmt = fal_rmv_none(); } } " : " } } ");
    if (c->topo_n == n)
      putf(c, "%s = 1; ", c->topo_tv);
  }
  put(c, part_loop);
  putf(c, "if (!fal_part->fal_base.on_gpu) { fal_G *%s = fal_part; ", g);
  render_foreach_all(c, n, it, var, true, true);
  if (local && c->gpu && c->topo_n == n && c->topo_rm) /* ghosts refreshed after the loop */
    putf(c, " } }\nif (fal_rmon) %s.old = 1; fal_G_bx_end(%s, fal_bxon, fal_rmon ? FAL_EX_OWNERS : %s); }",
         c->topo_rm, g, ex_name(!wrote_nbr));
  else if (pl) /* the round's new points counted after the exchange; the next direction;
                 * after a pull round (it wrote own points only) the ghosts are refreshed */
    putf(c, " } }\nfal_pdir_arm(&%s, %s->fal_bx, fal_bxon, (long long)(%s)); fal_G_bx_end(%s, "
         "fal_bxon, fal_bxon && %s.ds.dir ? FAL_EX_OWN : %s); fal_pdir_next(&%s, %s->fal_bx, fal_bxon); }",
         c->pull_d, g, c->pull_v, g, c->pull_d, ex_name(!wrote_nbr), c->pull_d, g);
  else if (local)
    putf(c, " } }\nfal_G_bx_end(%s, fal_bxon, %s); }", g,
         alike ? "FAL_EX_ALIKE" : ex_name(!wrote_nbr));
  else
    putf(c, " } }\nfal_G_parts_pull(%s); }", g);
}

/* plan.c: whether foreach n over a partitioned graph takes the border
 * exchange (bx_local), and whether it writes through neighbours. */
bool part_foreach_local(Ctx *c, const Node *n, bool *wrote_nbr)
{
  BxNames own = {{0}, {0}, 0, 0};
  own.own[own.nown++] = text_of(c, node_field(n, F_VARIABLE));
  *wrote_nbr = false;
  return bx_local(c, node_field(n, F_CONDITION), &own, 0, wrote_nbr) &&
         bx_local(c, node_field(n, F_BODY), &own, 0, wrote_nbr);
}

void render_foreach(Ctx *c, const Node *n)
{
  if (render_foreach_coll(c, n))
    return;
  const Node *it_node = node_field(n, F_ITERABLE);
  const Node *var_node = node_field(n, F_VARIABLE);
  Iter it;
  if (!classify_iterable(c, it_node, &it)) {
    EType t = expr_type(c, it_node);
    if (t.kind == FK_NONE && it_node)
      report_unsupported(c, it_node, "foreach over a Collection or Set (§3.5)");
    else
      error_at(c->src, it_node ? it_node->loc : n->loc,
               "cannot iterate over this: use g.points, g.edges, a graph view "
               "g.name (§3.6), p.outnbrs, p.innbrs or p.nbrs (§4.1)");
    return;
  }
  if (node_field(n, F_OFFSET) && it.dom != D_OUT && it.dom != D_IN &&
      it.dom != D_ALL) {
    error_at(c->src, node_field(n, F_OFFSET)->loc,
             "an offset '(+ k)' applies to neighbour loops only (§4.1)");
    return;
  }
  char *var = text_of(c, var_node);
  bool parallel = !c->element && c->foreach_depth == 0;
  if ((c->mpi || c->gpu) && parallel && host_code(c) && !program_parted(c->prog, it.graph))
    mpi_fresh_before(c, n);
  if (parallel && program_parted(c->prog, it.graph) && !graph_on_gpu(c, it.graph)) {
    if (it.dom == D_POINTS)
      render_partitioned_foreach(c, n, &it, var);
    else
      report_unsupported(c, n, "a parallel foreach over the edges or a view "
                                "of a partitioned graph (§7)");
  } else if (parallel && c->gpu &&
             (it.dom == D_POINTS || it.dom == D_EDGES || it.dom == D_VIEW) &&
             graph_on_gpu(c, it.graph)) {
    /* the phase of a loop that may pull, on one GPU (lower_plan.c
     * emit_auto_loop's host rounds): the pull kernel over every point
     * when the loop's fal_pdir says so, else the phase; then the counts
     * and the next direction (falcon/cuda.cuh fal_pdir_round) */
    const bool pl = c->pull_n == n && c->pull_d && c->pull_g && it.dom == D_POINTS &&
                    strcmp(c->pull_g, it.graph) == 0;
    if (pl) {
      put(c, "{ ");
      pull_launch(c, it.graph, "0", "0", ctx_printf(c, "%s->npoints", it.graph), NULL);
    }
    render_kernel_foreach(c, n, &it, var, false);
    if (pl)
      putf(c, " } fal_pdir_round(&%s, (long long)(%s)); }", c->pull_d, c->pull_v);
  }
  else if (it.dom == D_POINTS || it.dom == D_EDGES || it.dom == D_VIEW)
    render_foreach_all(c, n, &it, var, parallel, false);
  else
    render_foreach_nbrs(c, n, &it, var);
}

/* ---- single (§4.3) ----------------------------------------------------------- */

/* single (t) S else T  ==>  if (fal_single_byte(&g->fal_base.single_lock[t])) S else T
 * single (x.lock) S    ==>  if (fal_single_int(&(x.lock))) S */
void render_single(Ctx *c, const Node *n)
{
  const Node *target = node_field(n, F_TARGET);
  const Sym *cs = coll_sym(c, target);
  if (cs && cs->kind == FK_COLL) {
    render_single_coll(c, n, cs);
    return;
  }
  EType t = expr_type(c, target);
  if (t.kind == FK_ELEM || (cs && cs->kind == FK_SET)) {
    error_at(c->src, target->loc, "single takes an int lvalue, a Point, an Edge "
             "or a Collection (§4.3); use an int lock field of the element");
    return;
  }
  char *tgt = render_str(c, target);
  if (t.kind == FK_POINT || t.kind == FK_EDGE) {
    bool e = t.kind == FK_EDGE;
    putf(c, "if (fal_single_byte(&%s->fal_base.single_%s[%s])) ",
         gname(c, t.graph), e ? "elock" : "lock", tgt);
    if (e)
      c->single_edges = true;
    else
      c->single_points = true;
  } else {
    putf(c, "if (fal_single_int(&(%s))) ", tgt);
  }
  render(c, node_field(n, F_BODY));
  const Node *alt = node_field(n, F_ALTERNATIVE);
  if (alt) {
    put(c, " ");
    render(c, alt);
  }
}

/* ---- reductions (§4.4) --------------------------------------------------------- */

/* The g.points / g.edges that a reduction statement iterates over. */
static bool find_redux_domain(Ctx *c, const Node *root, EType *out)
{
  for (const Node *n = root; n; n = node_next(n, root, true)) {
    if (n->kind != K_FIELD_EXPRESSION)
      continue;
    EType a = expr_type(c, node_field(n, F_ARGUMENT));
    if (a.kind == FK_ITER) {
      *out = a;
      return true;
    }
  }
  return false;
}

/* The same on a GPU graph: a kernel whose threads accumulate privately,
 * then one block reduction and one atomic per block into a device
 * accumulator, added to the host variable after the launch. */
static void render_gpu_reduction(Ctx *c, const Node *stmt, const Node *red,
                                 const Node *cond, EType d, bool mul)
{
  const Node *left = node_field(red, F_LEFT);
  const Sym *ls = ident_sym(c, left);
  if (!ls || ls->kind != FK_CVAR || !ls->ctype) {
    error_at(c->src, left->loc, "the target of a GPU reduction must be a host "
             "variable of a scalar type (§4.4)");
    return;
  }
  const char *T = ls->ctype;
  const char *name = kernel_name(c, stmt, "redux");
  KernelState saved = kernel_enter(c);
  gname(c, d.graph);
  Redux rd = {d.graph, d.edges, "fal_i"};
  Redux *sr = c->redux;
  c->redux = &rd;
  char *cnd = cond ? render_str(c, cond) : NULL;
  char *right = render_str(c, node_field(red, F_RIGHT));
  c->redux = sr;
  StrBuf params = {0}, views = {0}, args = {0};
  kernel_signature(c, &params, &views, &args, NULL, NULL);
  StrBuf *k = &c->kernels;
  if (c->opt->line_directives)
    emit_line_directive(k, stmt->loc.line, c->src->path);
  strbuf_printf(k, "__global__ void %s(%s%s%s *fal_out)\n{\n%s", name,
                params.data ? params.data : "", c->ncaps ? ", " : "", T,
                views.data ? views.data : "");
  strbuf_printf(k, "  %s fal_acc = %d;\n  for (int64_t fal_i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; "
                "fal_i < %s->%s; fal_i += (int64_t)gridDim.x * blockDim.x) %s%s%s fal_acc %s= (%s);\n"
                "  fal_block_reduce(fal_acc, fal_out, %s);\n}\n",
                T, mul ? 1 : 0, d.graph, d.edges ? "nedges" : "npoints",
                cnd ? "if " : "", cnd ? cnd : "", cnd ? "" : "", mul ? "*" : "+",
                right, mul ? "true" : "false");
  char *a = xstrdup(args.data ? args.data : "");
  int ncaps = c->ncaps;
  kernel_leave(c, &saved);
  const char *g = gname(c, d.graph);
  /* The accumulator is allocated once per device and reused: reductions
   * often run once per round of a loop. */
  putf(c, "{ static %s *fal_dr[64]; int fal_dev = %s->fal_base.device; fal_cuda_use(fal_dev); "
       "if (!fal_dr[fal_dev]) fal_dr[fal_dev] = (%s *)fal_dalloc(sizeof(%s), __FILE__, __LINE__); "
       "fal_dset(fal_dr[fal_dev], %d); %s<<<fal_cuda_grid(%s->%s), FAL_BLOCK>>>(%s%sfal_dr[fal_dev]); "
       "FAL_CHECK_LAUNCH(\"%s\"); %s %s= fal_dget(fal_dr[fal_dev]); }",
       T, g, T, T, mul ? 1 : 0, name, g, d.edges ? "nedges" : "npoints", a,
       ncaps ? ", " : "", name, ls->name, mul ? "*" : "+");
  free(a);
  strbuf_free(&params);
  strbuf_free(&views);
  strbuf_free(&args);
}

/* if (g.edges.mark == 1) total ReduxSum= g.edges.weight;  ==>
 *   { __typeof__(total) R = 0;
 *   #pragma omp parallel for reduction(+:R)
 *     for (int64_t I = 0; I < g->nedges; I++) if (g->mark[I] == 1) R += g->weight[I];
 *     total += R; } */
static void render_reduction(Ctx *c, const Node *stmt, const Node *red,
                             const Node *cond)
{
  EType d;
  if (!find_redux_domain(c, red, &d) && !(cond && find_redux_domain(c, cond, &d))) {
    error_at(c->src, red->loc, "a reduction needs 'g.points.f' or 'g.edges.f' "
             "on its right-hand side (§4.4)");
    return;
  }
  bool mul = node_text_is(c->src, node_field(red, F_OPERATOR), "ReduxMul=");
  if (c->gpu && !c->in_kernel && graph_on_gpu(c, d.graph)) {
    render_gpu_reduction(c, stmt, red, cond, d, mul);
    return;
  }
  int id = ++c->uniq;
  const char *r = ctx_printf(c, "fal_r%d", id);
  const char *i = ctx_printf(c, "fal_i%d", id);
  char *left = render_str(c, node_field(red, F_LEFT));
  Redux rd = {d.graph, d.edges, i};
  Redux *saved = c->redux;
  c->redux = &rd;
  char *cnd = cond ? render_str(c, cond) : NULL;
  char *right = render_str(c, node_field(red, F_RIGHT));
  c->redux = saved;
  if (c->region) {
    /* A step of a planned region (plan.c plan_redux): this thread's
     * share of the elements, then one atomic update of the target. */
    const Sym *ls = ident_sym(c, node_field(red, F_LEFT));
    if (ls && ls->ctype)
      putf(c, "{ %s %s = %d;", ls->ctype, r, mul ? 1 : 0);
    else
      putf(c, "{ __typeof__(%s) %s = %d;", left, r, mul ? 1 : 0);
    pragma_line(c, "omp for schedule(static) nowait");
    resync(c, stmt->start);
    putf(c, "for (int64_t %s = 0; %s < %s->%s; %s++) %s%s%s %s %s= (%s);", i, i, d.graph,
         d.edges ? "nedges" : "npoints", i, cnd ? "if " : "", cnd ? cnd : "", cnd ? "" : "", r,
         mul ? "*" : "+", right);
    pragma_line(c, "omp atomic");
    putf(c, "%s %s= %s; }", left, mul ? "*" : "+", r);
    return;
  }
  putf(c, "{ __typeof__(%s) %s = %d;", left, r, mul ? 1 : 0);
  if (c->mpi && program_parted(c->prog, d.graph) && host_code(c)) {
    /* --mpi: this rank's own points (edges: theirs), then every rank's sum
     * (CUDA: the own points come back from the rank's GPU first) */
    const char *g = gname(c, d.graph);
    if (c->gpu)
      putf(c, " fal_G_mpi_own(%s);", g);
    const char *lo = ctx_printf(c, "%s->fal_mpi->lo[%s->fal_mpi->rank]", g, g);
    const char *hi = ctx_printf(c, "%s->fal_mpi->lo[%s->fal_mpi->rank + 1]", g, g);
    if (d.edges) {
      lo = ctx_printf(c, "%s->fal_base.csr.offsets[%s]", g, lo);
      hi = ctx_printf(c, "%s->fal_base.csr.offsets[%s]", g, hi);
    }
    pragma_line(c, ctx_printf(c, "omp parallel for reduction(%s:%s)", mul ? "*" : "+", r));
    resync(c, stmt->start);
    putf(c, "for (int64_t %s = %s; %s < %s; %s++) %s%s%s %s %s= (%s); "
         "fal_mpi_reduce(%s, %d); %s %s= %s; }",
         i, lo, i, hi, i, cnd ? "if " : "", cnd ? cnd : "", cnd ? "" : "", r,
         mul ? "*" : "+", right, r, mul ? 1 : 0, left, mul ? "*" : "+", r);
    return;
  }
  if (c->gpu && program_parted(c->prog, d.graph) && host_code(c))
    putf(c, " fal_G_fresh(%s);", gname(c, d.graph)); /* the GPU parts' values */
  pragma_line(c, ctx_printf(c, "omp parallel for reduction(%s:%s)", mul ? "*" : "+", r));
  resync(c, stmt->start);
  putf(c, "for (int64_t %s = 0; %s < %s->%s; %s++) %s%s%s %s %s= (%s); %s %s= %s; }",
       i, i, d.graph, d.edges ? "nedges" : "npoints", i, cnd ? "if " : "",
       cnd ? cnd : "", cnd ? "" : "", r, mul ? "*" : "+", right, left,
       mul ? "*" : "+", r);
}

static const Node *reduction_in(const Node *stmt)
{
  if (!stmt || stmt->kind != K_EXPRESSION_STATEMENT)
    return NULL;
  const Node *e = node_named_child(stmt, 0);
  return e && e->kind == K_REDUCTION_EXPRESSION ? e : NULL;
}

void render_if(Ctx *c, const Node *n)
{
  const Node *red = reduction_in(node_field(n, F_CONSEQUENCE));
  if (red && !node_field(n, F_ALTERNATIVE)) {
    render_reduction(c, n, red, node_field(n, F_CONDITION));
    return;
  }
  if (c->warp && !c->warp_nbr) /* the warp takes lane 0's branch */
    c->warp_cond = node_field(n, F_CONDITION);
  render_children_of(c, n);
  c->warp_cond = NULL;
}

/* ---- reductions into host variables inside a parallel foreach (§4.4) ---- */

/* `s op= e;` or `s = s op e;` (`s = e op s;` for commutative op), op one
 * of + - * | & ^: the atomic's name (add, sub, mul, or, and, xor), the
 * target identifier and the operand; NULL for any other statement. */
static const char *redux_form(Ctx *c, const Node *stmt, const Node **target,
                              const Node **operand)
{
  const Node *a = stmt ? node_unparen(node_named_child(stmt, 0)) : NULL;
  if (!a || a->kind != K_ASSIGNMENT_EXPRESSION || node_named_count(stmt) != 1)
    return NULL;
  const Node *l = node_field(a, F_LEFT), *r = node_field(a, F_RIGHT);
  const Node *op = node_field(a, F_OPERATOR);
  if (!l || !r || !op || l->kind != K_IDENTIFIER)
    return NULL;
  size_t oplen;
  const char *opt = node_text(c->src, op, &oplen);
  for (size_t i = 0; i < sizeof redux_ops / sizeof redux_ops[0]; i++) {
    if (oplen == 2 && opt[0] == redux_ops[i][0][0] && opt[1] == '=') {
      *target = l;
      *operand = r;
      return redux_ops[i][1];
    }
  }
  if (oplen != 1 || opt[0] != '=')
    return NULL;
  r = node_unparen(r);
  if (!r || strcmp(r->type, "binary_expression") != 0)
    return NULL;
  const Node *bl = node_unparen(node_field(r, F_LEFT)), *br = node_unparen(node_field(r, F_RIGHT));
  const Node *bop = node_field(r, F_OPERATOR);
  size_t ll, tl;
  const char *lt = node_text(c->src, l, &ll);
  for (size_t i = 0; bop && bl && br && i < sizeof redux_ops / sizeof redux_ops[0]; i++) {
    if (!node_text_is(c->src, bop, redux_ops[i][0]))
      continue;
    const char *bt = node_text(c->src, bl, &tl);
    if (bl->kind == K_IDENTIFIER && tl == ll && memcmp(bt, lt, ll) == 0) {
      *target = l;
      *operand = node_field(r, F_RIGHT);
      return redux_ops[i][1];
    }
    bt = node_text(c->src, br, &tl);
    if (i != 1 && br->kind == K_IDENTIFIER && tl == ll && memcmp(bt, lt, ll) == 0) {
      *target = l;
      *operand = node_field(r, F_LEFT);
      return redux_ops[i][1];
    }
  }
  return NULL;
}

/* The declarator of declaration decl that declares `name`, or NULL. */
static const Node *decl_declarator(const Ctx *c, const Node *decl, const Node *name)
{
  size_t len;
  const char *t = node_text(c->src, name, &len);
  for (const Node *d = decl->child; d; d = d->next) {
    if (d->field != F_DECLARATOR)
      continue;
    const Node *id = declarator_name(d);
    if (id && node_text_is(c->src, id, ctx_printf((Ctx *)c, "%.*s", (int)len, t)))
      return d;
  }
  return NULL;
}

static bool declares(const Ctx *c, const Node *decl, const Node *name)
{
  return decl_declarator(c, decl, name) != NULL;
}

static bool is_static_decl(const Ctx *c, const Node *decl)
{
  for (const Node *ch = decl->child; ch && ch->field != F_DECLARATOR; ch = ch->next)
    if (node_text_is(c->src, ch, "static"))
      return true;
  return false;
}

/* CPU target: is `name` (used at `at`) a variable that the threads of the
 * enclosing parallel foreach share, i.e. declared outside it (or static)?
 * In a function that runs per element the function is the boundary. */
static bool shared_variable(Ctx *c, const Node *at, const Node *name)
{
  const Node *bound = NULL;
  for (const Node *a = at->parent; a; a = a->parent) {
    if (a->kind == K_FUNCTION_DEFINITION) {
      if (c->element || !bound)
        bound = a;
      break;
    }
    if (a->kind == K_FOREACH_STATEMENT)
      bound = a;
  }
  if (!bound)
    return false;
  for (const Node *a = at->parent; a; a = a->parent) {
    for (const Node *ch = a->child; ch; ch = ch->next)
      if (ch->kind == K_DECLARATION && declares(c, ch, name))
        return is_static_decl(c, ch);
    if (a->kind == K_FOREACH_STATEMENT) {
      const Node *v = node_field(a, F_VARIABLE);
      size_t len;
      const char *t = node_text(c->src, name, &len);
      size_t vl;
      const char *vt = v ? node_text(c->src, v, &vl) : NULL;
      if (vt && vl == len && memcmp(vt, t, len) == 0)
        return false;
    }
    if (a->kind == K_FUNCTION_DEFINITION) {
      const Node *ps = function_params(a);
      for (const Node *p = ps ? ps->child : NULL; p; p = p->next)
        if (p->kind == K_PARAMETER_DECLARATION && declarator_name(node_field(p, F_DECLARATOR)) &&
            node_text_is(c->src, declarator_name(node_field(p, F_DECLARATOR)),
                         text_of(c, name)))
          return false;
    }
    if (a == bound)
      break;
  }
  return true;
}

/* `s = s + e;` / `s += e;` (and - * | & ^) on a host variable inside a
 * parallel foreach (§4.4): one atomic update, so no update is lost.  On
 * the CPU an atomic on the variable itself; in a kernel an atomic on a
 * device copy that the host reads back after the launch (CAP_REDUX). */
static bool render_host_redux(Ctx *c, const Node *n)
{
  if (host_code(c) || c->loop_kernel)
    return false;
  const Node *target, *operand;
  const char *op = redux_form(c, n, &target, &operand);
  if (!op)
    return false;
  bool bits = strcmp(op, "or") == 0 || strcmp(op, "and") == 0 || strcmp(op, "xor") == 0;
  const char *mac = bits ? "FAL_ATOMIC_INT" : "FAL_ATOMIC_ANY";
  if (c->in_kernel) {
    const Sym *s = ident_sym(c, target);
    if (!s || s - c->syms >= c->kernel_mark || s->kind != FK_CVAR || !s->ctype ||
        (s->global && c->fn && c->fn->element))
      return false; /* the kernel's own variable, or an error reported later */
    if (strchr(s->ctype, '*')) /* pointer arithmetic: not a reduction */
      return false;
    add_capture(c, s, s->ctype, CAP_REDUX);
    if (rl_find(c, s->name)) /* e in s's type first, as the atomic takes it */
      putf(c, "fal_rl_%s %s= (%s)(%s);", s->name, rl_op(op), s->ctype, render_str(c, operand));
    else
      putf(c, "(void)%s(%s, fal_rd_%s, (%s));", mac, op, s->name, render_str(c, operand));
    return true;
  }
  const Sym *ts = ident_sym(c, target);
  if ((ts && ts->kind != FK_CVAR) || !shared_variable(c, n, target))
    return false; /* a Falcon object, or the element's own variable */
  char *t = text_of(c, target);
  const RLocal *own = rl_find(c, t);
  if (own) /* the thread's copy (the loop's reduction clause); e in s's type first */
    putf(c, "%s %s= (%s)(%s);", t, rl_op(op), own->ctype, render_str(c, operand));
  else
    putf(c, "(void)%s(%s, &(%s), (%s));", mac, op, t, render_str(c, operand));
  return true;
}

void render_expression_statement(Ctx *c, const Node *n)
{
  if (warp_lane0(c, n)) { /* a warp body's store: once, by lane 0 */
    const Node *saved = c->warp_cond;
    WarpInfo *w = c->warp;
    c->warp = NULL;
    put(c, "{ if (FAL_WL == 0) { ");
    render_expression_statement(c, n);
    put(c, " } fal_wsync(); }");
    c->warp = w;
    c->warp_cond = saved;
    return;
  }
  const Node *red = reduction_in(n);
  if (red)
    render_reduction(c, n, red, NULL);
  else if (!render_host_redux(c, n))
    render_children_of(c, n);
}

/* ---- parallel sections (§4.5) -------------------------------------------- */

/* parallel sections { section { A } section { B } }  ==>
 *   { fal_omp_nested();
 *   #pragma omp parallel sections
 *     {
 *   #pragma omp section
 *       { A }
 *   #pragma omp section
 *       { B } } }
 * Each section runs on a host thread of its own; on the CUDA target its
 * kernels go to the device of the graph they touch (fal_cuda_use is per
 * thread), so sections over graphs on different GPUs overlap. */
void render_parallel_sections(Ctx *c, const Node *n)
{
  if (c->element || c->foreach_depth > 0) {
    error_at(c->src, n->loc, "parallel sections cannot be nested in a "
             "parallel foreach (§4.5)");
    return;
  }
  put(c, "{ fal_omp_nested();");
  pragma_line(c, "omp parallel sections");
  resync(c, n->start);
  put(c, "{");
  for (const Node *s = n->child; s; s = s->next) {
    if (s->kind != K_SECTION)
      continue;
    pragma_line(c, "omp section");
    resync(c, s->start);
    render(c, node_field(s, F_BODY));
  }
  put(c, " } }");
}

