/*
 * lower_view.c: graph views (§3.6) and single on a Collection (§4.3).
 *
 * A view `g.addProperty(tri, struct node)` is an element kind of g: the
 * generated graph type gets `struct node *tri; int ntri;` (plus its
 * capacity and the owners of single), elements are indices 0..ntri-1,
 * and `g.ntri = k;` resizes it (new elements are zero).
 *
 *   g.ntri = k                 ->  fal_G_resize_tri(g, k, __FILE__, __LINE__)
 *   foreach (t In g.tri) S     ->  a parallel loop or kernel over 0..g->ntri-1
 *   t.f   (t an element)       ->  g->tri[t].f
 *   g.tri[i].f                 ->  g->tri[i].f
 *   struct_rec node nbr[3];    ->  int nbr[3];   (element indices)
 *
 * single (c) S else T, c a Collection of points or edges, in the body of
 * a parallel foreach, runs that loop in two phases (docs/lowering.md):
 *
 *   phase 0: each element runs its body up to the single, claims every
 *            element of c (atomic min of its key on an owner array),
 *            marks itself pending and skips the rest of its body;
 *   phase 1: the pending elements run their body again; at the single
 *            each takes S if it holds every element of c, else T.
 *
 * The smallest key is the lowest loop element, so among conflicting
 * elements the lowest id wins (§4.3), and it always wins: progress.
 */
#include "lower.h"

#include <stdlib.h>
#include <string.h>

/* ---- graph views (§3.6) ----------------------------------------------------- */

const Prop *view_prop(const Ctx *c, const char *name)
{
  const Prop *p = program_prop(c->prog, name);
  return p && p->kind == PK_VIEW ? p : NULL;
}

/* `ntri` names the count of view `tri`. */
const Prop *view_count_prop(const Ctx *c, const char *field)
{
  return field[0] == 'n' ? view_prop(c, field + 1) : NULL;
}

/* g.ntri = k (host code only). */
bool render_view_assignment(Ctx *c, const Node *n)
{
  const Node *l = node_field(n, F_LEFT);
  if (!l || l->kind != K_FIELD_EXPRESSION)
    return false;
  EType g = expr_type(c, node_field(l, F_ARGUMENT));
  if (g.kind != FK_GRAPH)
    return false;
  const Prop *v = view_count_prop(c, text_of(c, node_field(l, F_FIELD)));
  if (!v)
    return false;
  if (!node_text_is(c->src, node_field(n, F_OPERATOR), "=")) {
    error_at(c->src, n->loc, "the count of a graph view is assigned with '=' (§3.6)");
    return true;
  }
  if (!host_code(c)) {
    error_at(c->src, n->loc, "the count of a graph view can only be assigned in "
             "host code, not inside a parallel foreach (§3.6)");
    return true;
  }
  putf(c, "fal_G_resize_%s(%s, %s, __FILE__, __LINE__)", v->name, g.graph,
       render_str(c, node_field(n, F_RIGHT)));
  return true;
}

/* The resize function of each view. */
void emit_view_functions(Ctx *c)
{
  Program *p = c->prog;
  for (int i = 0; i < p->nprops; i++) {
    const Prop *v = &p->props[i];
    if (v->kind != PK_VIEW)
      continue;
    putf(c, "static int fal_G_resize_%s(fal_G *g, int64_t n, const char *file, int line)\n{\n",
         v->name);
    if (c->gpu)
      putf(c, "  if (g->fal_base.on_gpu) {\n"
              "    if (g->fal_base.device < 0)\n"
              "      g->fal_base.device = fal_cuda_place(g->fal_base.want_device, file, line);\n"
              "    fal_cuda_use(g->fal_base.device);\n  }\n"
              "  fal_view_resize_any((void **)&g->%s, &g->fal_cap_%s, g->n%s, n, sizeof *g->%s,\n"
              "                      g->fal_base.on_gpu, file, line);\n",
           v->name, v->name, v->name, v->name);
    else
      putf(c, "  fal_view_resize((void **)&g->%s, &g->fal_cap_%s, g->n%s, n, sizeof *g->%s, "
              "file, line);\n", v->name, v->name, v->name, v->name);
    putf(c, "  return g->n%s = (int)n;\n}\n", v->name);
  }
}

/* ---- single on a Collection (§4.3) ------------------------------------------- */

void coll_single_enter(Ctx *c, CollSingle *cs, CollSingle **saved, bool parallel,
                       const char *tid)
{
  memset(cs, 0, sizeof *cs);
  *saved = c->cs;
  if (!parallel)
    return;
  cs->tid = tid;
  c->cs = cs;
}

void coll_single_leave(Ctx *c, CollSingle *cs, CollSingle *saved)
{
  (void)cs;
  c->cs = saved;
}

/* The kernel parameters and launch arguments of the two phases. */
void coll_single_params(const Ctx *c, StrBuf *params, StrBuf *args)
{
  strbuf_printf(params, "%sint fal_phase, unsigned char *fal_pend", c->ncaps ? ", " : "");
  strbuf_printf(args, "%sfal_phase, fal_pend", c->ncaps ? ", " : "");
}

/* Host code before the loop: a new round of the owners, the pending
 * flags of `count` loop elements (on `device`, or the host when NULL),
 * and the phase loop opened; the caller closes it. */
void coll_single_phases(Ctx *c, const CollSingle *cs, const char *count, const char *device)
{
  if (device)
    putf(c, "%sunsigned char *fal_pend = fal_gpu_pend_get((int64_t)%s, %s, __FILE__, "
         "__LINE__); ", cs->begins.data, count, device);
  else
    putf(c, "%sunsigned char *fal_pend = fal_pend_get((int64_t)%s); ", cs->begins.data, count);
  put(c, "for (int fal_phase = 0; fal_phase < 2; fal_phase++) { ");
}

/* The body of a loop element: skipped in phase 1 unless it reached the
 * single in phase 0; phase 0 leaves it at the single by the label. */
void coll_single_wrap(Ctx *c, CollSingle *cs, const char *body)
{
  putf(c, "{ if (fal_phase && !fal_pend[%s]) continue; %s fal_skip%d: ; }", cs->tid,
       body, cs->label);
}

void render_single_coll(Ctx *c, const Node *n, const Sym *s)
{
  const Node *target = node_field(n, F_TARGET);
  const Node *alt = node_field(n, F_ALTERNATIVE);
  if (host_code(c)) { /* one thread: it owns everything */
    put(c, "if (1) ");
    render(c, node_field(n, F_BODY));
    if (alt) {
      put(c, " ");
      render(c, alt);
    }
    return;
  }
  if (!c->cs || !c->cs->tid) {
    error_at(c->src, n->loc, "single on a Collection must be written in the body "
             "of the parallel foreach whose elements compete (§4.3), not in a "
             "function it calls, nor over a partitioned graph");
    return;
  }
  if (s->elem != FK_POINT && s->elem != FK_EDGE && s->elem != FK_ELEM) {
    error_at(c->src, target->loc, "single takes a Collection of points, edges or "
             "elements of a graph view (§4.3, §3.6); '%s' holds %s%s", s->name, s->ctype,
             s->elem == FK_PROPVAL ? " values, which have no identity to own" : "");
    return;
  }
  if (c->cs->used) {
    error_at(c->src, n->loc, "a parallel foreach body may hold one single on a "
             "Collection (§4.3)");
    return;
  }
  c->cs->used = true;
  c->cs->label = ++c->uniq;
  int k = s->elem == FK_EDGE;
  /* The owners of the collection's graph: started once per round by the
   * host (host names), read here (captured in a kernel).  Elements of a
   * view have owners of their own, one per view (fal_own_VIEW). */
  const char *hg = s->graph;
  bool gpu = c->gpu && graph_on_gpu(c, hg);
  const char *count = s->elem == FK_ELEM ? ctx_printf(c, "%s->n%s", hg, s->view)
                      : c->prog->mutates
                          ? ctx_printf(c, "fal_prop_elems(&%s->fal_base.csr, %d)", hg, k)
                          : ctx_printf(c, "%s->%s", hg, k ? "nedges" : "npoints");
  const char *own = s->elem == FK_ELEM ? ctx_printf(c, "fal_own_%s", s->view)
                                       : ctx_printf(c, "fal_base.own[%d]", k);
  strbuf_printf(&c->cs->begins, "%s(&%s->%s, (int64_t)%s%s); ",
                gpu ? "fal_gpu_owner_begin" : "fal_owner_begin", hg, own, count,
                gpu ? ", __FILE__, __LINE__" : "");
  const char *g = gname(c, hg);
  const char *coll = s->name;
  if (c->in_kernel)
    note_use(c, s, target);
  int id = ++c->uniq;
  const char *tid = c->cs->tid;
  putf(c, "{ const fal_coll *fal_sc%d = %s; if (!fal_phase) { fal_pend[%s] = 1; "
       "fal_own_claim(&%s->%s, fal_sc%d, %s); goto fal_skip%d; } "
       "if (fal_own_holds(&%s->%s, fal_sc%d, %s)) ",
       id, coll, tid, g, own, id, tid, c->cs->label, g, own, id, tid);
  render(c, node_field(n, F_BODY));
  if (alt) {
    put(c, " ");
    render(c, alt);
  }
  put(c, " }");
}

/* ---- structs bound to a graph (§3.6) ------------------------------------------ */

/* `struct T (g)`: g, T, and the view of struct T elements when the
 * program has one (then the struct names an element of that view, an
 * index); NULL view: a struct value whose Point/Edge fields belong to g.
 * False after an error. */
bool bound_struct_of(Ctx *c, const Node *bst, Bound *b)
{
  memset(b, 0, sizeof *b);
  const Node *st = node_field(bst, F_TYPE);
  const Node *name = st ? node_field(st, F_NAME) : NULL;
  if (!name || node_field(st, F_BODY)) {
    error_at(c->src, bst->loc, "a struct bound to a graph names a struct declared "
             "elsewhere: 'struct T (g)' (§3.6)");
    return false;
  }
  b->sname = text_of(c, name);
  b->graph = bound_graph_of(c, node_field(bst, F_GRAPH));
  if (!b->graph)
    return false;
  const Program *p = c->prog;
  for (int i = 0; i < p->nprops; i++) {
    const Prop *v = &p->props[i];
    if (v->kind != PK_VIEW || !v->struct_name || strcmp(v->struct_name, b->sname) != 0)
      continue;
    if (b->view) {
      error_at(c->src, bst->loc, "'struct %s (%s)' is ambiguous: views '%s' and '%s' "
               "both have struct %s elements (§3.6)", b->sname, b->graph,
               b->view->name, v->name, b->sname);
      return false;
    }
    b->view = v;
  }
  return true;
}

/* An expression used as an element of view `view` (§3.6): `g.tri[i]` is
 * element i; anything else (a foreach variable, `c[k]` of a collection
 * of elements, a bound struct variable, an int) is already an index. */
char *render_elem_value(Ctx *c, const Node *e, const char *view)
{
  const Node *x = e;
  x = node_unparen(x);
  if (x && x->kind == K_SUBSCRIPT_EXPRESSION) {
    const Node *arg = node_field(x, F_ARGUMENT);
    if (arg && arg->kind == K_FIELD_EXPRESSION &&
        expr_type(c, node_field(arg, F_ARGUMENT)).kind == FK_GRAPH &&
        node_text_is(c->src, node_field(arg, F_FIELD), view)) {
      render_str(c, node_field(arg, F_ARGUMENT)); /* kernels capture the graph */
      return ctx_printf(c, "(int)(%s)", render_str(c, node_field(x, F_INDEX)));
    }
  }
  return render_str(c, e);
}

/* The declarators of `struct T (g) t, u = g.tri[0];` (or of one
 * parameter): view elements become `int` indices, values `struct T`. */
static void render_bound_declarators(Ctx *c, const Node *first, const Bound *b, bool param)
{
  put(c, b->view ? "int " : ctx_printf(c, "struct %s ", b->sname));
  bool any = false;
  for (const Node *d = first; d; d = param ? NULL : d->next) {
    if (!param && d->field != F_DECLARATOR)
      continue;
    if (any)
      put(c, ", ");
    any = true;
    const Node *id = d->kind == K_INIT_DECLARATOR ? node_field(d, F_DECLARATOR) : d;
    if (id && id->kind == K_IDENTIFIER) {
      Sym *s = sym_add(c, text_of(c, id), b->view ? FK_ELEM : FK_PROPVAL, b->graph, NULL);
      s->ctype = xstrdup(b->view ? b->view->name : b->sname);
    } else if (id && id->kind == K_PLACED_DECLARATOR) {
      error_at(c->src, id->loc, "a struct bound to a graph lives where its graph "
               "lives; it takes no placement (§2, §3.6)");
      return;
    }
    if (d->kind == K_INIT_DECLARATOR) {
      render(c, id);
      put(c, " = ");
      const Node *v = node_field(d, F_VALUE);
      put(c, b->view ? render_elem_value(c, v, b->view->name) : render_str(c, v));
    } else {
      render(c, d); /* pointers and arrays: plain C, no symbol */
    }
  }
}

void render_bound_declaration(Ctx *c, const Node *n, const Node *type)
{
  Bound b;
  if (!bound_struct_of(c, type->child, &b))
    return;
  copy_range(c, n->start, type->start); /* storage class, qualifiers */
  render_bound_declarators(c, node_field(n, F_DECLARATOR), &b, false);
  put(c, ";");
}

void render_bound_parameter(Ctx *c, const Node *n, const Node *type)
{
  Bound b;
  const Node *d = node_field(n, F_DECLARATOR);
  if (!c->fn) { /* a prototype: no graph in scope to check */
    const Node *st = node_field(type->child, F_TYPE);
    const Node *name = st ? node_field(st, F_NAME) : NULL;
    const Program *p = c->prog;
    const char *view = NULL;
    for (int i = 0; name && i < p->nprops; i++)
      if (p->props[i].kind == PK_VIEW && p->props[i].struct_name &&
          node_text_is(c->src, name, p->props[i].struct_name))
        view = p->props[i].name;
    put(c, view || !name ? "int " : ctx_printf(c, "struct %s ", text_of(c, name)));
    if (d)
      render(c, d);
    return;
  }
  if (!bound_struct_of(c, type->child, &b))
    return;
  if (d)
    render_bound_declarators(c, d, &b, true);
  else
    put(c, b.view ? "int" : ctx_printf(c, "struct %s", b.sname));
}

/* t = g.tri[i], t an element of a view (§3.6): t becomes i. */
bool render_elem_assignment(Ctx *c, const Node *n)
{
  const Node *l = node_field(n, F_LEFT);
  if (!l || l->kind != K_IDENTIFIER)
    return false;
  const Sym *s = ident_sym(c, l);
  if (!s || s->kind != FK_ELEM || !node_text_is(c->src, node_field(n, F_OPERATOR), "="))
    return false;
  if (c->in_kernel)
    note_use(c, s, l);
  putf(c, "%s = %s", s->name, render_elem_value(c, node_field(n, F_RIGHT), s->ctype));
  return true;
}
