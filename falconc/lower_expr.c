/*
 * lower_expr.c: member access, calls, the atomic library calls (§3, §4.2)
 * and, on the CUDA target, host access to GPU data (§2).
 */
#include "lower.h"

#include <stdlib.h>
#include <string.h>

/* ---- member access (§3.1-§3.3) ----------------------------------------- */

static const char *const graph_fields[] = {"npoints", "nedges", "directed", NULL};

bool is_one_of(const char *s, const char *const *list)
{
  for (; *list; list++)
    if (strcmp(s, *list) == 0)
      return true;
  return false;
}

/* An element of graph `g`'s arrays: on the CUDA target, host code reads
 * an element of a GPU graph with a transfer (§2); an assignment's left
 * side is left as is (render_assignment writes it). */
static void put_device_ref(Ctx *c, const char *ref, const char *g)
{
  if (c->gpu && !c->in_kernel && !c->lvalue && graph_on_gpu(c, g))
    putf(c, "fal_dget(&%s)", ref);
  else
    put(c, ref);
}

/* --mpi: host code reaching point or edge properties of a partitioned
 * graph sees every rank's values (fal_G_fresh gathers them once after a
 * foreach changed them). */
static bool mpi_host_access(Ctx *c, const char *graph)
{
  return (c->mpi || c->gpu) && host_code(c) && !c->redux && graph &&
         program_parted(c->prog, graph);
}

/* Whether the property access m (`x.f`) may be written: climbing through
 * the field and subscript expressions it is the base of, and parentheses,
 * it is the left side of an assignment, under ++/-- or &, or an argument
 * (MIN, MAX and the atomics write theirs).  *use gets the node that uses
 * it (NULL at the top). */
bool access_written(const Node *m, const Node **use)
{
  const Node *up = m;
  while (up->parent &&
         ((up->parent->kind == K_FIELD_EXPRESSION && node_field(up->parent, F_ARGUMENT) == up) ||
          (up->parent->kind == K_SUBSCRIPT_EXPRESSION && node_field(up->parent, F_ARGUMENT) == up) ||
          up->parent->kind == K_PARENTHESIZED_EXPRESSION))
    up = up->parent;
  const Node *par = up->parent;
  if (use)
    *use = par;
  return par && ((par->kind == K_ASSIGNMENT_EXPRESSION && node_field(par, F_LEFT) == up) ||
                 par->kind == K_UPDATE_EXPRESSION || par->kind == K_POINTER_EXPRESSION ||
                 par->kind == K_ARGUMENT_LIST);
}

/* Host code: access_written, except that printf's arguments are read. */
static bool host_may_write(Ctx *c, const Node *n)
{
  const Node *par;
  bool wr = access_written(n, &par);
  if (par && par->kind == K_ARGUMENT_LIST) {
    const Node *fn = par->parent ? node_field(par->parent, F_FUNCTION) : NULL;
    static const char *const readers[] = {"printf", "fprintf", "sprintf", "snprintf", NULL};
    return !(fn && fn->kind == K_IDENTIFIER && is_one_of(text_of(c, fn), readers));
  }
  return c->lvalue || wr;
}

/* g.npoints -> g->npoints; g.changed -> g->changed (graph property). */
static void render_graph_field(Ctx *c, const Node *n, const Node *arg,
                               const char *f)
{
  const Prop *p = program_prop(c->prog, f);
  if (!p && view_count_prop(c, f)) { /* g.ntri: the count of a view (§3.6) */
    render(c, arg);
    putf(c, "->%s", f);
    return;
  }
  if (p && p->kind == PK_VIEW) {
    const Node *up = n->parent;
    bool indexed = up && up->kind == K_SUBSCRIPT_EXPRESSION && node_field(up, F_ARGUMENT) == n;
    EType g = expr_type(c, arg);
    if (!indexed)
      error_at(c->src, n->loc, "a graph view is used as '%s[i]', iterated "
               "(foreach) or counted ('n%s') (§3.6)", f, f);
    else if (c->gpu && !c->in_kernel && graph_on_gpu(c, g.graph))
      error_at(c->src, n->loc, "host code cannot reach the elements of view '%s' "
               "of a GPU graph; use them in a foreach, or copy the graph to the "
               "host first (§2, §3.6)", f);
  }
  if (!is_one_of(f, graph_fields) && !p) {
    error_at(c->src, node_field(n, F_FIELD)->loc,
             "graph has no field or property '%s' (§3.1)", f);
    return;
  }
  if (p && (p->kind == PK_POINT || p->kind == PK_EDGE) &&
      mpi_host_access(c, expr_type(c, arg).graph)) {
    /* CUDA: the whole array may be written, so it all goes to the parts */
    bool host_mpi = c->mpi && !c->gpu;
    put(c, host_mpi ? "fal_G_fresh(" : "fal_G_fresh(fal_G_markall(");
    render(c, arg);
    putf(c, host_mpi ? ")->%s" : "))->%s", f);
    return;
  }
  render(c, arg);
  putf(c, "->%s", f);
}

/* p.dist -> g->dist[p]; e.weight -> g->fal_base.csr.weight[e]. */
static void render_element_field(Ctx *c, const Node *n, const Node *arg,
                                 EType a, const char *f)
{
  bool edge = a.kind == FK_EDGE;
  char *id = render_str(c, arg);
  const Prop *p = program_prop(c->prog, f);
  const char *g = gname(c, a.graph);
  if (p && p->kind == (edge ? PK_EDGE : PK_POINT) && mpi_host_access(c, a.graph)) {
    /* --mpi: other ranks' values first; CUDA: the GPU parts' values first */
    if (!host_may_write(c, n) || (c->mpi && !c->gpu && edge))
      putf(c, "fal_G_fresh(%s)->%s[%s]", g, f, id);
    else if (c->mpi && !c->gpu) /* one point from its owner rank (lower.c fal_G_mpi_wr) */
      putf(c, "%s->%s[fal_G_mpi_wr(%s, %s)]", g, f, g, id);
    else if (edge) /* and what host code writes goes back to them */
      putf(c, "fal_G_fresh(fal_G_markall(%s))->%s[%s]", g, f, id);
    else if (c->gpu && !c->mpi) /* one point from its owner (lower.c fal_G_wr) */
      putf(c, "%s->%s[fal_G_wr(%s, %s)]", g, f, g, id);
    else if (c->gpu) /* --mpi: one point from its owner rank (lower.c fal_G_mpi_wr) */
      putf(c, "%s->%s[fal_G_mpi_wr(%s, %s)]", g, f, g, id);
    else
      putf(c, "fal_G_fresh(%s)->%s[fal_G_mark(%s, %s)]", g, f, g, id);
  } else if (p && p->kind == (edge ? PK_EDGE : PK_POINT)) {
    put_device_ref(c, ctx_printf(c, "%s->%s[%s]", g, f, id), g);
  } else if (!edge && (strcmp(f, "x") == 0 || strcmp(f, "y") == 0)) {
    putf(c, "((int)(%s))", id); /* no coordinates: the id (§3.2) */
  } else if (strcmp(f, "isdel") == 0 && c->prog->mutates && !c->lvalue) {
    /* §6: delpoint/deledge/p.del() mark it (pdel/edel); read only. */
    const char *arr = edge ? "edel" : "pdel";
    putf(c, "(%s->fal_base.csr.%s ? (int)", g, arr);
    put_device_ref(c, ctx_printf(c, "%s->fal_base.csr.%s[%s]", g, arr, id), g);
    put(c, " : 0)");
  } else if (strcmp(f, "isdel") == 0) {
    putf(c, "((void)(%s), 0)", id); /* nothing is deleted without §6 */
  } else if (edge && (strcmp(f, "dst") == 0 || strcmp(f, "weight") == 0 ||
                      strcmp(f, "src") == 0)) {
    put_device_ref(c, ctx_printf(c, "%s->fal_base.csr.%s[%s]", g, f, id), g);
  } else {
    error_at(c->src, node_field(n, F_FIELD)->loc,
             "unknown %s property '%s' (add it with %s)", edge ? "edge" : "point",
             f, edge ? "addEdgeProperty" : "addPointProperty");
  }
}

/* t.f, t an element of a view (§3.6)  ->  g->tri[t].f */
static void render_view_elem_field(Ctx *c, const Node *n, const Node *arg, EType a,
                                   const char *f)
{
  const char *g = gname(c, a.graph);
  if (c->gpu && !c->in_kernel && graph_on_gpu(c, a.graph)) {
    error_at(c->src, n->loc, "host code cannot reach the elements of view '%s' of "
             "a GPU graph (§2, §3.6)", a.view);
    return;
  }
  putf(c, "%s->%s[%s].%s", g, a.view, render_str(c, arg), f);
}

/* g.edges.weight / g.points.f inside a reduction (§4.4). */
static void render_iter_field(Ctx *c, const Node *n, EType a, const char *f)
{
  if (!c->redux || strcmp(c->redux->graph, a.graph) != 0) {
    error_at(c->src, n->loc, "'%s.%s.%s' is only allowed in a reduction "
             "statement (§4.4)", a.graph, a.edges ? "edges" : "points", f);
    return;
  }
  const Prop *p = program_prop(c->prog, f);
  const char *g = gname(c, a.graph);
  if (p && p->kind == (a.edges ? PK_EDGE : PK_POINT))
    putf(c, "%s->%s[%s]", g, f, c->redux->index);
  else if (a.edges && (strcmp(f, "weight") == 0 || strcmp(f, "dst") == 0 ||
                       strcmp(f, "src") == 0))
    putf(c, "%s->fal_base.csr.%s[%s]", g, f, c->redux->index);
  else
    error_at(c->src, node_field(n, F_FIELD)->loc, "unknown %s property '%s'",
             a.edges ? "edge" : "point", f);
}

void render_field(Ctx *c, const Node *n)
{
  const Node *arg = node_field(n, F_ARGUMENT);
  const Node *fnode = node_field(n, F_FIELD);
  if (render_coll_field(c, n))
    return;
  EType a = expr_type(c, arg);
  if (!fnode || a.kind == FK_NONE || a.kind == FK_PROPVAL) {
    render_children_of(c, n);
    return;
  }
  char *f = text_of(c, fnode);
  switch (a.kind) {
  case FK_GRAPH:
    if (strcmp(f, "points") == 0 || strcmp(f, "edges") == 0)
      error_at(c->src, n->loc, "'%s' can only be iterated, indexed or reduced "
               "(§4.1, §4.4)", f);
    else
      render_graph_field(c, n, arg, f);
    break;
  case FK_POINT:
  case FK_EDGE:
    render_element_field(c, n, arg, a, f);
    break;
  case FK_ITER:
    render_iter_field(c, n, a, f);
    break;
  case FK_ELEM:
    render_view_elem_field(c, n, arg, a, f);
    break;
  default:
    render_children_of(c, n);
  }
}

/* g.points[i] -> (i) */
/* g.changed[0] in host code, g on a GPU: one element transferred. */
static bool render_gpu_graph_prop_element(Ctx *c, const Node *n)
{
  const Node *arg = node_field(n, F_ARGUMENT);
  if (!c->gpu || c->in_kernel || !arg || arg->kind != K_FIELD_EXPRESSION)
    return false;
  EType g = expr_type(c, node_field(arg, F_ARGUMENT));
  if (g.kind != FK_GRAPH || !graph_on_gpu(c, g.graph))
    return false;
  const Prop *p = program_prop(c->prog, text_of(c, node_field(arg, F_FIELD)));
  if (!p || p->kind != PK_GRAPH)
    return false;
  bool lv = c->lvalue;
  c->lvalue = false;
  char *idx = render_str(c, node_field(n, F_INDEX));
  c->lvalue = lv;
  put_device_ref(c, ctx_printf(c, "%s->%s[%s]", g.graph, p->name, idx), g.graph);
  return true;
}

/* g.changed[0] read by a step of a parts loop kernel that every thread
 * runs (Ctx.gp_copy): the thread's copy of the last exchange's value. */
static bool render_gp_copy(Ctx *c, const Node *n)
{
  const Node *arg = node_field(n, F_ARGUMENT), *idx = node_field(n, F_INDEX);
  if (!c->gp_copy || !c->in_kernel || c->lvalue || !arg || arg->kind != K_FIELD_EXPRESSION ||
      !idx || !node_text_is(c->src, idx, "0"))
    return false;
  EType g = expr_type(c, node_field(arg, F_ARGUMENT));
  if (g.kind != FK_GRAPH || !g.graph || strcmp(g.graph, c->gp_copy) != 0)
    return false;
  const Prop *p = program_prop(c->prog, text_of(c, node_field(arg, F_FIELD)));
  if (!p || p->kind != PK_GRAPH)
    return false;
  putf(c, "fal_gv.%s", p->name);
  return true;
}

void render_subscript(Ctx *c, const Node *n)
{
  if (render_coll_subscript(c, n))
    return;
  if (render_gp_copy(c, n))
    return;
  if (render_gpu_graph_prop_element(c, n))
    return;
  EType a = expr_type(c, node_field(n, F_ARGUMENT));
  if (a.kind != FK_ITER) {
    render_children_of(c, n);
    return;
  }
  put(c, "(");
  render(c, node_field(n, F_INDEX));
  put(c, ")");
}

/* ---- calls: atomics (§4.2) and member functions (§3.1) ---------------- */

static const struct {
  const char *name;
  const char *op;
  int nargs;
  bool int_only;
} atomics[] = {
    {"MIN", "min", 3, false}, {"MAX", "max", 3, false},
    {"ADD", "add", 2, false}, {"SUB", "sub", 2, false},
    {"INCR", "add", 1, false}, {"DECR", "sub", 1, false},
    {"AND", "and", 2, true},  {"OR", "or", 2, true},
    {"XOR", "xor", 2, true},  {"CAS", "cas", 3, false},
};

/* The property that the field expression `f` (`t.updated`, `g.changed`,
 * through parentheses) names, or NULL. */
static const Prop *field_prop(Ctx *c, const Node *f)
{
  f = f ? node_unparen(f) : NULL;
  if (!f || f->kind != K_FIELD_EXPRESSION)
    return NULL;
  const Node *fld = node_field(f, F_FIELD);
  return fld ? program_prop(c->prog, text_of(c, fld)) : NULL;
}

/* Whether `l` is an element of a graph property (`g.changed[0]`): one
 * address that every thread of a kernel shares. */
static bool graph_prop_element(Ctx *c, const Node *l)
{
  l = node_unparen(l);
  const Prop *p =
      l->kind == K_SUBSCRIPT_EXPRESSION ? field_prop(c, node_field(l, F_ARGUMENT)) : NULL;
  return p && p->kind == PK_GRAPH;
}

/* Whether MIN's flag `f` is one element's (`t.updated`, `e.mark`: a point
 * or edge property), which few threads share: FAL_SET_FLAG_EL, a plain
 * store on the device.  Any other flag (a GPU scalar, `g.changed[0]`, a
 * local) is read first (FAL_SET_FLAG; falcon/cuda.cuh says why). */
static bool flag_of_element(Ctx *c, const Node *f)
{
  const Prop *p = field_prop(c, f);
  return p && (p->kind == PK_POINT || p->kind == PK_EDGE);
}

/* A MIN/MAX's first argument X.P (plan.c plan_remote): P's name, and
 * the graph X is a point of, as this code names it (NULL: not such a
 * point, or a graph without parts' fields). */
static const char *remote_prop(Ctx *c, const Node *a0)
{
  return text_of(c, node_field(node_unparen(a0), F_FIELD));
}

static const char *remote_graph(Ctx *c, const Node *a0)
{
  a0 = node_unparen(a0);
  const Node *x = a0 && a0->kind == K_FIELD_EXPRESSION ? node_field(a0, F_ARGUMENT) : NULL;
  if (!x || !c->prog->nparted)
    return NULL;
  EType t = expr_type(c, x);
  const Prop *p = program_prop(c->prog, remote_prop(c, a0));
  if (t.kind != FK_POINT || !t.graph || !p || p->kind != PK_POINT || t.view)
    return NULL;
  return gname(c, t.graph);
}

/* MIN(t.dist, v, flag) -> (FAL_ATOMIC_ANY(min, &(g->dist[t]), (v)) ?
 *                          (FAL_SET_FLAG(flag), 1) : 0) */
static bool render_atomic(Ctx *c, const Node *n, const char *name)
{
  for (size_t i = 0; i < sizeof atomics / sizeof atomics[0]; i++) {
    if (strcmp(atomics[i].name, name) != 0)
      continue;
    const Node *args = node_field(n, F_ARGUMENTS);
    int nargs = node_named_count(args);
    if (nargs != atomics[i].nargs) {
      error_at(c->src, n->loc, "%s takes %d argument%s, not %d (§4.2)", name,
               atomics[i].nargs, atomics[i].nargs == 1 ? "" : "s", nargs);
      return true;
    }
    char *a0 = render_str(c, node_named_child(args, 0));
    const char *mac = atomics[i].int_only ? "FAL_ATOMIC_INT" : "FAL_ATOMIC_ANY";
    if (strcmp(name, "MIN") == 0 || strcmp(name, "MAX") == 0) {
      char *v = render_str(c, node_named_child(args, 1));
      char *flag = render_str(c, node_named_child(args, 2));
      const char *set = flag_of_element(c, node_named_child(args, 2)) ? "FAL_SET_FLAG_EL"
                                                                       : "FAL_SET_FLAG";
      /* a sweep's MIN loads first (plan.c plan_read_first) */
      bool rf = c->gpu && n->read_first;
      const char *rg = c->gpu && n->remote ? remote_graph(c, node_named_child(args, 0)) : NULL;
      if (rg) /* may go to the point's owner (plan.c plan_remote; falcon/cuda.cuh fal_ra_mm) */
        putf(c, "(fal_ra_mm<%d, %d>(%s->fal_rmt, %s->%s, &(%s), (%s)) ? (%s(%s), 1) : 0)",
             name[1] == 'A', rf, rg, rg, remote_prop(c, node_named_child(args, 0)), a0, v, set,
             flag);
      else
        putf(c, "(%s(%s%s, &(%s), (%s)) ? (%s(%s), 1) : 0)", mac, atomics[i].op,
             rf ? "_rf" : "", a0, v, set, flag);
    } else if (strcmp(name, "CAS") == 0) {
      char *e = render_str(c, node_named_child(args, 1));
      char *d = render_str(c, node_named_child(args, 2));
      putf(c, "%s(cas, &(%s), (%s), (%s))", mac, a0, e, d);
    } else if (nargs == 1) {
      putf(c, "%s(%s, &(%s), 1)", mac, atomics[i].op, a0);
    } else {
      char *v = render_str(c, node_named_child(args, 1));
      putf(c, "%s(%s, &(%s), (%s))", mac, atomics[i].op, a0, v);
    }
    return true;
  }
  return false;
}

const char *prop_kind_name(PropKind k)
{
  return k == PK_POINT ? "FAL_PROP_POINT" : k == PK_EDGE ? "FAL_PROP_EDGE"
                                                         : "FAL_PROP_GRAPH";
}

/* The loop's own edge when the call names the two ends of the edge that
 * an enclosing neighbour loop is on: inside foreach (t In p.outnbrs),
 * getweight(p, t) and getweight(t, p) (published programs write both,
 * §3.1); inside foreach (t In p.innbrs), getweight(t, p). */
static const char *loop_edge(Ctx *c, const Node *args)
{
  const Node *a0 = node_named_child(args, 0), *a1 = node_named_child(args, 1);
  for (int i = 0; i < 2; i++) {
    const Node *var = i ? a1 : a0, *other = i ? a0 : a1;
    if (!var || !other || var->kind != K_IDENTIFIER)
      continue;
    const Sym *s = sym_find(c, c->src->text + var->start, var->end - var->start);
    if (!s || !s->edge_var || !s->from || !node_text_is(c->src, other, s->from))
      continue;
    if (!s->in_edge || i == 0)
      return s->edge_var;
  }
  return NULL;
}

static void render_graph_method(Ctx *c, const Node *n, const char *g,
                                const char *m, const char *gsrc)
{
  const Node *args = node_field(n, F_ARGUMENTS);
  int nargs = node_named_count(args);
  bool on_gpu = c->gpu && !c->in_kernel && graph_on_gpu(c, g);
  if (on_gpu && (strcmp(m, "addPointProperty") == 0 ||
                 strcmp(m, "addEdgeProperty") == 0 || strcmp(m, "addProperty") == 0)) {
    /* A GPU graph has every property of the program (fal_G_to_gpu). */
    put(c, "((void)0)");
  } else if (on_gpu && strcmp(m, "read") == 0 && nargs == 1) {
    putf(c, "fal_G_read_gpu(%s, %s, __FILE__, __LINE__)", g,
         render_str(c, node_named_child(args, 0)));
  } else if (on_gpu) {
    error_at(c->src, n->loc, "host code cannot call '%s' on a graph on the GPU; "
             "call it on the host graph", m);
  } else if (strcmp(m, "addPointProperty") == 0 || strcmp(m, "addEdgeProperty") == 0 ||
      strcmp(m, "addProperty") == 0) {
    const Node *pn = prop_args(args, NULL);
    const Prop *p = pn ? program_prop(c->prog, text_of(c, pn)) : NULL;
    if (p && p->kind == PK_VIEW) /* a view starts empty (§3.6) */
      put(c, "((void)0)");
    else if (p) /* sema reported the others */
      putf(c, "fal_prop_add(&%s->fal_base, (void **)&%s->%s, sizeof(%s), %s)",
           g, g, p->name, p->ctype, prop_kind_name(p->kind));
  } else if (strcmp(m, "read") == 0 && nargs == 1) {
    /* --mpi: each rank reads only its points' edges when no code reaches
     * another rank's (lower_loop.c mpi_rows_ok) */
    const char *why = NULL;
    bool rows = c->mpi && gsrc && program_parted(c->prog, gsrc) && mpi_rows_ok(c, n, gsrc, &why);
    if (c->mpi && gsrc && program_parted(c->prog, gsrc) && c->opt->explain)
      fprintf(stderr, "%s:%u: read of partitioned '%s': %s%s\n", c->src->path, n->loc.line, gsrc,
              rows ? "each rank reads only its points' edges (from an uncompressed Falcon "
                     "binary file)"
                   : "every rank reads the whole graph: ",
              rows ? "" : why);
    putf(c, "fal_G_read%s(%s, %s)", rows ? "_rows" : "", g, render_str(c, node_named_child(args, 0)));
  } else if ((strcmp(m, "getweight") == 0 || strcmp(m, "getedge") == 0) &&
             nargs == 2) {
    const char *e = loop_edge(c, args);
    bool w = m[3] == 'w';
    if (e && w)
      putf(c, "%s->fal_base.csr.weight[%s]", g, e);
    else if (e)
      putf(c, "(%s)", e);
    else
      putf(c, "fal_graph_get%s%s(&%s->fal_base.csr, %s, %s)", w ? "weight" : "edge",
           c->gpu ? "_hd" : "", g, render_str(c, node_named_child(args, 0)),
           render_str(c, node_named_child(args, 1)));
  } else if ((strcmp(m, "getOutDegree") == 0 || strcmp(m, "getInDegree") == 0) &&
             nargs == 1) {
    putf(c, "fal_%sdeg%s(&%s->fal_base.csr, %s)", m[3] == 'O' ? "out" : "in",
         c->gpu ? "_hd" : "", g,
         render_str(c, node_named_child(args, 0)));
  } else if (strcmp(m, "addEdge") == 0 && (nargs == 2 || nargs == 3)) {
    /* Device code (kernels, functions they call): fal_G_*_hd, which claims
     * slots on the device (falcon/cuda.cuh, §6). */
    putf(c, "fal_G_add_edge%s(%s, %s, %s, %s)", c->in_kernel ? "_hd" : "", g,
         render_str(c, node_named_child(args, 0)), render_str(c, node_named_child(args, 1)),
         nargs == 3 ? render_str(c, node_named_child(args, 2)) : "1");
  } else if (strcmp(m, "addPoint") == 0) {
    /* arguments (coordinates) are not kept */
    putf(c, "fal_G_add_point%s(%s)", c->in_kernel ? "_hd" : "", g);
  } else if ((strcmp(m, "delpoint") == 0 || strcmp(m, "deledge") == 0) && nargs == 1) {
    if (c->in_kernel)
      putf(c, "fal_G_del_%s_hd(%s, %s)", m[3] == 'p' ? "point" : "edge", g,
           render_str(c, node_named_child(args, 0)));
    else
      putf(c, "fal_graph_del_%s(&%s->fal_base.csr, %s)", m[3] == 'p' ? "point" : "edge",
           g, render_str(c, node_named_child(args, 0)));
  } else if (strcmp(m, "sortEdges") == 0 && nargs == 1) {
    /* §3.1: p's out-edges by increasing weight (emit_sort_edges). */
    if (c->in_kernel)
      c->sorts = true;
    putf(c, "fal_G_sort_edges(%s, %s)", g, render_str(c, node_named_child(args, 0)));
  } else if (strcmp(m, "makePartition") == 0 && nargs == 3) {
    putf(c, "fal_G_partition(%s, %s, %s, %s, __FILE__, __LINE__)", g,
         render_str(c, node_named_child(args, 0)), render_str(c, node_named_child(args, 1)),
         render_str(c, node_named_child(args, 2)));
  } else if (strcmp(m, "updateFunction") == 0 && nargs == 1) {
    putf(c, "(%s->fal_merge = %s)", g, render_str(c, node_named_child(args, 0)));
  } else if (strcmp(m, "updatePartition") == 0 && nargs == 0) {
    /* Ghosts are exchanged and merged after every foreach over the
     * partitioned graph (fal_G_parts_pull), so there is nothing left. */
    put(c, "((void)0)");
  } else {
    error_at(c->src, n->loc, "unknown graph member function '%s' (§3.1)", m);
  }
}

static void render_point_method(Ctx *c, const Node *n, EType a,
                                const Node *obj, const char *m)
{
  if (a.kind == FK_POINT &&
      (strcmp(m, "getOutDegree") == 0 || strcmp(m, "getInDegree") == 0)) {
    putf(c, "fal_%sdeg%s(&%s->fal_base.csr, %s)", m[3] == 'O' ? "out" : "in",
         c->gpu ? "_hd" : "", gname(c, a.graph), render_str(c, obj));
  } else if (strcmp(m, "del") == 0 && a.kind == FK_POINT && !c->in_kernel) {
    putf(c, "fal_graph_del_point(&%s->fal_base.csr, %s)", gname(c, a.graph),
         render_str(c, obj));
  } else if (strcmp(m, "del") == 0 && a.kind == FK_POINT) {
    putf(c, "fal_G_del_point_hd(%s, %s)", gname(c, a.graph), render_str(c, obj));
  } else if (strcmp(m, "del") == 0) {
    report_unsupported(c, n, "deleting an edge with e.del() (use g.deledge(e), §6)");
  } else {
    error_at(c->src, n->loc, "unknown %s member function '%s'",
             a.kind == FK_POINT ? "point" : "edge", m);
  }
}

void render_call(Ctx *c, const Node *n)
{
  const Node *fn = node_field(n, F_FUNCTION);
  if (fn && fn->kind == K_IDENTIFIER) {
    const FuncInfo *f = program_func(c->prog, text_of(c, fn));
    if (f) { /* the callee's singles need their locks cleared too */
      c->single_points |= f->single_points;
      c->single_edges |= f->single_edges;
      c->sorts |= f->sorts;
    }
  }
  if (fn && fn->kind == K_IDENTIFIER && c->prog->falcon &&
      !c->prog->user_atomics && render_atomic(c, n, text_of(c, fn)))
    return;
  if (fn && fn->kind == K_FIELD_EXPRESSION) {
    const Node *obj = node_field(fn, F_ARGUMENT);
    EType a = expr_type(c, obj);
    const char *m = text_of(c, node_field(fn, F_FIELD));
    if (render_coll_call(c, n, obj, m))
      return;
    if (a.kind == FK_GRAPH && (c->foreach_depth > 0 || c->element) &&
        program_parted(c->prog, a.graph) &&
        is_one_of(m, (const char *const[]){"addPoint", "addEdge", "delpoint", "deledge",
                                           NULL})) {
      report_unsupported(c, n, "mutation inside a foreach over a partitioned graph (§7)");
      return;
    }
    if (a.kind == FK_GRAPH) {
      render_graph_method(c, n, gname(c, a.graph), m, a.graph);
      return;
    }
    if (a.kind == FK_POINT || a.kind == FK_EDGE) {
      render_point_method(c, n, a, obj, m);
      return;
    }
  }
  render_children_of(c, n);
}

/* ---- CUDA target: host access to GPU data (§2) ------------------------ */

/* n, or the outermost parentheses around it. */
static const Node *paren_top(const Node *n)
{
  while (n->parent && n->parent->kind == K_PARENTHESIZED_EXPRESSION)
    n = n->parent;
  return n;
}

/* In a __host__ __device__ function (c->hd), whether the GPU scalar n is
 * used where it must stay a variable: under &, the base of a member or
 * element (`sv.a = 2`), or an argument of an atomic (§4.2: MIN's flag,
 * ADD's operand, ...), which takes its address.
 * There a host call still takes the host's shadow of the variable (not
 * device memory): docs/language-choices.md.  Assignments and ++/-- are
 * rendered whole (render_assignment, render_update). */
static bool hd_direct(Ctx *c, const Node *n)
{
  const Node *up = paren_top(n), *par = up->parent;
  if (par && par->kind == K_POINTER_EXPRESSION)
    return true;
  if (par && (par->kind == K_FIELD_EXPRESSION || par->kind == K_SUBSCRIPT_EXPRESSION) &&
      node_field(par, F_ARGUMENT) == up)
    return true; /* sv.a, v[i]: a member or element, which may be written */
  if (!par || par->kind != K_ARGUMENT_LIST || !par->parent)
    return false;
  const Node *fn = node_field(par->parent, F_FUNCTION);
  for (size_t i = 0; fn && i < sizeof atomics / sizeof atomics[0]; i++)
    if (node_text_is(c->src, fn, atomics[i].name))
      return true;
  return false;
}

/* Whether n is sizeof's operand (through parentheses): not evaluated, so a
 * GPU scalar there stays the variable (its host shadow has its type and
 * size; a transfer there would be a lambda in an unevaluated operand,
 * which C++17 refuses). */
static bool in_sizeof(const Node *n)
{
  const Node *par = paren_top(n)->parent;
  return par && par->type && strcmp(par->type, "sizeof_expression") == 0;
}

/* Whether the assignment n is `x = constant;`: a statement of its own
 * that stores a number other than 0 (FAL_STORE_SAME, FAL_HD_SAME). */
static bool stores_constant(Ctx *c, const Node *n)
{
  const Node *op = node_field(n, F_OPERATOR), *r = node_field(n, F_RIGHT);
  return op && node_text_is(c->src, op, "=") && r && strcmp(r->type, "number_literal") == 0 &&
         !node_text_is(c->src, r, "0") && n->parent && n->parent->kind == K_EXPRESSION_STATEMENT;
}

/* A GPU scalar read by host code is a transfer; a host variable used by a
 * kernel is a capture. */
void render_identifier(Ctx *c, const Node *n)
{
  const Sym *s = ident_sym(c, n);
  if (s && s->kind == FK_GPUVAR && c->rot_var && c->in_kernel && strcmp(s->name, c->rot_var) == 0) {
    put(c, c->rot_expr);
    return;
  }
  if (s && c->in_kernel)
    note_use(c, s, n);
  if (s && s->kind == FK_GPUVAR && !c->in_kernel && !c->lvalue && !in_sizeof(n))
    putf(c, "fal_sym_get(%s)", s->name);
  else if (s && s->kind == FK_GPUVAR && c->hd && !hd_direct(c, n) && !in_sizeof(n))
    putf(c, "FAL_HD_GET(%s)", s->name); /* §2: a host call reads device memory */
  else
    copy_range(c, n->start, n->end);
}

/* True if `n` (host code) names GPU memory: an element of a GPU graph's
 * property or a GPU graph's graph-level property element. */
static bool is_device_element(Ctx *c, const Node *n)
{
  if (n->kind == K_FIELD_EXPRESSION) {
    EType a = expr_type(c, node_field(n, F_ARGUMENT));
    return (a.kind == FK_POINT || a.kind == FK_EDGE) && graph_on_gpu(c, a.graph);
  }
  if (n->kind == K_SUBSCRIPT_EXPRESSION) {
    const Node *arg = node_field(n, F_ARGUMENT);
    if (!arg || arg->kind != K_FIELD_EXPRESSION)
      return false;
    EType g = expr_type(c, node_field(arg, F_ARGUMENT));
    return g.kind == FK_GRAPH && graph_on_gpu(c, g.graph);
  }
  return false;
}

/* `a.p = b.q;` (§2): a copy of one property array into another, of the
 * same kind and element type (usually the same property of two graphs). */
static bool property_copy_ok(Ctx *c, const Node *n, const Prop *p, const Prop *q)
{
  if (!p || !q || p->kind == PK_VIEW || q->kind == PK_VIEW) {
    error_at(c->src, n->loc, "a property copy names a property on both sides (§2)");
    return false;
  }
  if (p->kind != q->kind || strcmp(p->ctype, q->ctype) != 0) {
    error_at(c->src, n->loc, "a property copy needs two properties of the same kind "
             "and type: '%s' is a %s %s, '%s' a %s %s (§2)", p->name,
             p->kind == PK_POINT ? "point" : p->kind == PK_EDGE ? "edge" : "graph",
             p->ctype, q->name,
             q->kind == PK_POINT ? "point" : q->kind == PK_EDGE ? "edge" : "graph", q->ctype);
    return false;
  }
  return true;
}

/* `hg = g;` / `g = hg;`: whole-graph copies between host and GPU (§2, §5);
 * `hg.dist = g.dist;`: one property array. */
static bool render_graph_copy(Ctx *c, const Node *n, const Node *l, const Node *r)
{
  EType lt = expr_type(c, l), rt = expr_type(c, r);
  if (lt.kind == FK_GRAPH && rt.kind == FK_GRAPH) {
    bool lg = graph_on_gpu(c, lt.graph), rg = graph_on_gpu(c, rt.graph);
    if (lg && !rg && c->prog->mutates) /* additions become visible first (§6) */
      putf(c, "(fal_G_settle(%s), fal_G_to_gpu(%s, %s, __FILE__, __LINE__))", rt.graph,
           lt.graph, rt.graph);
    else if (lg && !rg)
      putf(c, "fal_G_to_gpu(%s, %s, __FILE__, __LINE__)", lt.graph, rt.graph);
    else if (!lg && rg)
      putf(c, "fal_G_to_host(%s, %s)", lt.graph, rt.graph);
    else
      error_at(c->src, n->loc, "a graph assignment copies between the host and a "
               "GPU (§2)");
    return true;
  }
  if (l->kind != K_FIELD_EXPRESSION || r->kind != K_FIELD_EXPRESSION)
    return false;
  lt = expr_type(c, node_field(l, F_ARGUMENT));
  rt = expr_type(c, node_field(r, F_ARGUMENT));
  if (lt.kind != FK_GRAPH || rt.kind != FK_GRAPH)
    return false;
  const Prop *p = program_prop(c->prog, text_of(c, node_field(l, F_FIELD)));
  const Prop *q = program_prop(c->prog, text_of(c, node_field(r, F_FIELD)));
  if (!property_copy_ok(c, n, p, q))
    return true;
  bool lg = graph_on_gpu(c, lt.graph), rg = graph_on_gpu(c, rt.graph);
  const char *count = p->kind == PK_POINT ? "npoints" : p->kind == PK_EDGE ? "nedges" : NULL;
  putf(c, "fal_prop_copy((void **)&%s->%s, %s->%s, (size_t)%s%s%s * sizeof *%s->%s, %d, %d)",
       lt.graph, p->name, rt.graph, q->name, count ? rt.graph : "1",
       count ? "->" : "", count ? count : "", rt.graph, q->name, lg, rg);
  return true;
}

/* CPU target (§2): `d = s;` between graphs copies (fal_G_copy: every
 * getType graph is a graph of its own); `d.p = s.q;` copies one property
 * array, also between two properties of the same type. */
bool render_host_graph_copy(Ctx *c, const Node *n)
{
  const Node *l = node_field(n, F_LEFT), *r = node_field(n, F_RIGHT);
  if (!l || !r || !node_text_is(c->src, node_field(n, F_OPERATOR), "="))
    return false;
  EType lt = expr_type(c, l), rt = expr_type(c, r);
  if (lt.kind == FK_GRAPH && rt.kind == FK_GRAPH && l->kind == K_IDENTIFIER) {
    if (!host_code(c)) {
      error_at(c->src, n->loc, "a graph is copied in host code, not inside a "
               "parallel foreach (§2)");
      return true;
    }
    putf(c, "fal_G_copy(%s, %s)", lt.graph, rt.graph);
    return true;
  }
  if (l->kind != K_FIELD_EXPRESSION || r->kind != K_FIELD_EXPRESSION)
    return false;
  lt = expr_type(c, node_field(l, F_ARGUMENT));
  rt = expr_type(c, node_field(r, F_ARGUMENT));
  if (lt.kind != FK_GRAPH || rt.kind != FK_GRAPH)
    return false;
  const Prop *p = program_prop(c->prog, text_of(c, node_field(l, F_FIELD)));
  const Prop *q = program_prop(c->prog, text_of(c, node_field(r, F_FIELD)));
  if (!p && !q)
    return false; /* g.npoints = h.npoints and the like: plain C */
  if (!property_copy_ok(c, n, p, q))
    return true;
  const char *count = p->kind == PK_GRAPH ? "1"
                      : ctx_printf(c, "fal_prop_elems(&%s->fal_base.csr, %d)", rt.graph,
                                   p->kind == PK_EDGE);
  putf(c, "fal_host_prop_copy((void **)&%s->%s, %s->%s, %s * sizeof *%s->%s)",
       lt.graph, p->name, rt.graph, q->name, count, rt.graph, q->name);
  return true;
}

void render_assignment(Ctx *c, const Node *n)
{
  const Node *l = node_field(n, F_LEFT), *r = node_field(n, F_RIGHT);
  const Node *op = node_field(n, F_OPERATOR);
  const Sym *ls = ident_sym(c, l);
  if (c->in_kernel) {
    if (ls && ls - c->syms < c->kernel_mark && ls->kind != FK_GPUVAR && !c->loop_kernel) {
      error_at(c->src, l->loc, "a GPU foreach cannot assign host variable '%s'; "
               "declare it on the GPU ('int <GPU> %s', §2)", ls->name, ls->name);
      copy_range(c, n->start, n->end);
      return;
    }
    bool scalar = !c->hd && ls && ls->kind == FK_GPUVAR && l->kind == K_IDENTIFIER;
    if (stores_constant(c, n) && (scalar || graph_prop_element(c, l))) {
      /* `more = 1;` or `g.changed[0] = 1;` in every thread that finds
       * work: read first (FAL_STORE_SAME, falcon/cuda.cuh).  Not a
       * zeroing: that is one thread's (a loop kernel's leader), before a
       * barrier.  (A GPU scalar in a __host__ __device__ function:
       * FAL_HD_SAME below.) */
      char *lv = render_str(c, l), *rv = render_str(c, r);
      putf(c, "FAL_STORE_SAME(%s, %s)", lv, rv);
      return;
    }
    if (c->hd && ls && ls->kind == FK_GPUVAR && l->kind == K_IDENTIFIER) {
      /* §2: a host call of the function writes device memory */
      char *rhs = render_str(c, r), *opnd = text_of(c, op);
      if (stores_constant(c, n))
        putf(c, "FAL_HD_SAME(%s, %s)", ls->name, rhs); /* FAL_STORE_SAME on the device */
      else if (node_text_is(c->src, op, "="))
        putf(c, "FAL_HD_SET(%s, %s)", ls->name, rhs);
      else
        putf(c, "FAL_HD_SET(%s, FAL_HD_GET(%s) %.*s (%s))", ls->name, ls->name,
             (int)strlen(opnd) - 1, opnd, rhs);
      return;
    }
    render_children_of(c, n);
    return;
  }
  if (render_graph_copy(c, n, l, r))
    return;
  bool eq = node_text_is(c->src, op, "=");
  char *opnd = text_of(c, op);
  size_t oplen = strlen(opnd);
  if (ls && ls->kind == FK_GPUVAR) {
    char *rhs = render_str(c, r);
    if (eq)
      putf(c, "fal_sym_set(%s, %s)", ls->name, rhs);
    else
      putf(c, "fal_sym_set(%s, fal_sym_get(%s) %.*s (%s))", ls->name, ls->name,
           (int)oplen - 1, opnd, rhs);
    return;
  }
  if (is_device_element(c, l)) {
    c->lvalue = true;
    char *ref = render_str(c, l);
    c->lvalue = false;
    char *rhs = render_str(c, r);
    if (eq)
      putf(c, "fal_dset(&%s, %s)", ref, rhs);
    else
      putf(c, "fal_dset(&%s, fal_dget(&%s) %.*s (%s))", ref, ref, (int)oplen - 1,
           opnd, rhs);
    return;
  }
  render_children_of(c, n);
}

/* x++ on a GPU scalar or element from host code, or on a host variable in
 * a kernel: not lowered. */
void render_update(Ctx *c, const Node *n)
{
  const Node *arg = node_field(n, F_ARGUMENT);
  const Sym *s = ident_sym(c, arg);
  if (c->in_kernel && s && s - c->syms < c->kernel_mark && s->kind != FK_GPUVAR &&
      !c->loop_kernel)
    error_at(c->src, n->loc, "a GPU foreach cannot change host variable '%s'",
             s->name);
  else if (!c->in_kernel && ((s && s->kind == FK_GPUVAR) ||
                             (arg && is_device_element(c, arg))))
    error_at(c->src, n->loc, "++ and -- on GPU data from host code are not "
             "supported; write x = x + 1");
  else if (c->hd && s && s->kind == FK_GPUVAR && arg->kind == K_IDENTIFIER) {
    /* a __host__ __device__ function: FAL_HD_UPD (cuda.cuh), the value
     * before (x++) or after (++x) */
    const Node *op = node_field(n, F_OPERATOR);
    bool post = op && op->start > arg->start;
    putf(c, "FAL_HD_UPD(%s, %s, %d)", s->name, op && node_text_is(c->src, op, "--") ? "--" : "++",
         post);
  } else
    render_children_of(c, n);
}

