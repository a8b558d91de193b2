/*
 * plan.c: the loop planner.  Reads a `while` loop of host code as a whole
 * (its condition, the parallel foreach phases and scalar steps of its
 * body, what each reads and writes) and decides whether it can run
 * without returning to the host every round, where the barriers go and
 * which phases fuse.  docs/optimiser.md has the rules and the shapes.
 */
#include "plan.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- the walk over a step's tree ------------------------------------------ */

/* Names bound to the phase's own element (the foreach variable, and a
 * called function's Point parameters bound to it), and to an out-neighbour
 * of it (the variable of `foreach (x In t.outnbrs)` with t own, and
 * parameters bound to such a variable): the frontier rules (docs/
 * optimiser.md "Frontiers") need to know which points a phase can write. */
typedef struct Own {
  const char *names[8];
  int n;
  const char *nbr[8];
  int nn;
} Own;

typedef struct Walk {
  Ctx *c;
  LoopPlan *p;
  Step *s;
  bool phase;     /* inside a phase (element code) */
  int depth;      /* calls followed */
  const FuncInfo *stack[8];
} Walk;

static void refuse(LoopPlan *p, const Node *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void refuse(LoopPlan *p, const Node *at, const char *fmt, ...)
{
  if (p->kind != PLAN_HOST || p->why[0])
    return;
  va_list ap;
  va_start(ap, fmt);
  int k = at ? snprintf(p->why, sizeof p->why, "line %u: ", at->loc.line) : 0;
  vsnprintf(p->why + k, sizeof p->why - (size_t)k, fmt, ap);
  va_end(ap);
}

static bool refused(const LoopPlan *p)
{
  return p->why[0] != '\0';
}

/* near: the access went through the element or an out-neighbour of it. */
static void add_access(Step *s, const char *name, bool read, bool write, bool own, bool near)
{
  for (int i = 0; i < s->nacc; i++)
    if (strcmp(s->acc[i].name, name) == 0) {
      Access *a = &s->acc[i];
      a->read |= read;
      a->write |= write;
      a->own &= own;
      if (write) {
        a->wown &= own;
        a->wnear &= near;
      }
      return;
    }
  s->acc = xrealloc(s->acc, (size_t)(s->nacc + 1) * sizeof *s->acc);
  s->acc[s->nacc++] = (Access){xstrdup(name), read, write, own, NULL, !write || own,
                               !write || near, false, false, false};
}

static bool own_has(const Own *o, Ctx *c, const Node *id)
{
  if (!id || id->kind != K_IDENTIFIER)
    return false;
  const char *t = text_of(c, id);
  for (int i = 0; i < o->n; i++)
    if (strcmp(o->names[i], t) == 0)
      return true;
  return false;
}

static bool nbr_has(const Own *o, Ctx *c, const Node *id)
{
  if (!id || id->kind != K_IDENTIFIER)
    return false;
  const char *t = text_of(c, id);
  for (int i = 0; i < o->nn; i++)
    if (strcmp(o->nbr[i], t) == 0)
      return true;
  return false;
}

static bool is_type(const Node *n, const char *t)
{
  return n && n->type && strcmp(n->type, t) == 0;
}

static void walk(Walk *w, const Node *n, const Own *own, bool read, bool write);

/* ---- Collections in a device loop (docs/optimiser.md "Collection rounds
 * on the device") ----------------------------------------------------------
 * A Collection is two objects to the barriers: its variable (size and
 * store pointer), "(coll)NAME", and the elements of every store,
 * ELEMENTS (stores may be shared after `a = b`, §3.5, so elements are
 * one object for all Collections).  Reading c.size or visiting c reads
 * the variable; c.size = n, a = b and adds write it and the elements
 * (set_size and assignment may make segments, adds store elements). */
#define ELEMENTS "(elements)"

/* A Collection the device loop can keep on its GPU: CUDA target, points
 * of a GPU graph, not local to an element, not a pointer; else refuses. */
static bool coll_ok(Walk *w, const Sym *s, const Node *at)
{
  Ctx *c = w->c;
  if (!c->gpu) {
    refuse(w->p, at, "'%s' is a Collection or Set (drained on the host)", s->name);
    return false;
  }
  if (s->kind != FK_COLL || s->local || s->ptr || s->elem != FK_POINT || !s->graph ||
      !graph_on_gpu(c, s->graph)) {
    refuse(w->p, at, "'%s' is a %s (drained on the host)", s->name,
           s->kind == FK_SET ? "Set" : s->ptr ? "Collection pointer" : s->local ? "local Collection"
                                                                               : "Collection not of a GPU graph's points");
    return false;
  }
  LoopPlan *p = w->p;
  if (p->cgraph && strcmp(p->cgraph, s->graph) != 0) {
    refuse(p, at, "Collections of two graphs ('%s', '%s')", p->cgraph, s->graph);
    return false;
  }
  p->cgraph = s->graph;
  p->colls = true;
  return true;
}

static void coll_access(Walk *w, const Sym *s, bool read, bool write)
{
  add_access(w->s, ctx_printf(w->c, "(coll)%s", s->name), read, write, false, false);
  if (write) {
    add_access(w->s, ELEMENTS, false, true, false, false);
    if (!w->phase)
      w->s->writes = true; /* one thread: the variable is shared */
  }
}

/* `c` or `&c` as a call's argument: the Collection, else NULL. */
static const Sym *arg_coll(Ctx *c, const Node *a)
{
  a = node_unparen(a);
  if (a && a->kind == K_POINTER_EXPRESSION && node_text_is(c->src, node_field(a, F_OPERATOR), "&"))
    a = node_field(a, F_ARGUMENT);
  return coll_sym(c, a);
}

/* CUDA: step s names host variable `name` (plan.c leader_steps). */
static void host_use(Step *s, const char *name, bool read, bool write)
{
  int i = str_index(s->hvar, s->nhvar, name);
  if (i < 0) {
    i = s->nhvar;
    s->hvar = xrealloc(s->hvar, (size_t)(s->nhvar + 1) * sizeof *s->hvar);
    s->hmode = xrealloc(s->hmode, (size_t)(s->nhvar + 1) * sizeof *s->hmode);
    s->hvar[i] = xstrdup(name);
    s->hmode[i] = 0;
    s->nhvar++;
  }
  s->hmode[i] |= (unsigned char)((read ? 1 : 0) | (write ? 2 : 0));
}

/* A plain identifier: a GPU scalar, a host variable, a graph, ... */
static void walk_identifier(Walk *w, const Node *n, bool read, bool write)
{
  Ctx *c = w->c;
  const Sym *s = ident_sym(c, n);
  const char *name = text_of(c, n);
  if (s && (s->kind == FK_COLL || s->kind == FK_SET)) {
    /* In a called function a Collection is a parameter, bound to an
     * argument that walk_call counted as written. */
    if (w->depth > 0 && c->gpu)
      return;
    if (coll_ok(w, s, n))
      coll_access(w, s, read, write);
    return;
  }
  if (s && s->kind == FK_GRAPH && write) {
    /* g = hg copies every property (a loop kernel would only copy the
     * struct, with host pointers in it) */
    refuse(w->p, n, "the loop assigns the graph '%s'", name);
    return;
  }
  if (s && (s->kind == FK_GRAPH || s->kind == FK_POINT || s->kind == FK_EDGE ||
            s->kind == FK_ELEM))
    return;
  if (c->gpu) {
    if (s && s->kind == FK_GPUVAR) {
      if (w->p->pgraph) {
        refuse(w->p, n, "GPU scalar '%s' with partitioned '%s' (it lives on one GPU; "
               "the parts may be on several)", name, w->p->pgraph);
        return;
      }
      add_access(w->s, name, read, write, false, false);
      for (int i = 0; w->depth > 0 && i < w->s->nacc; i++)
        if (strcmp(w->s->acc[i].name, name) == 0)
          w->s->acc[i].deep = true;
      if (write)
        w->s->writes = true;
      return;
    }
    if (w->depth > 0)
      return; /* a called function's own variables and parameters */
    if (s && s->kind == FK_CVAR) {
      host_use(w->s, name, read, write);
      if (s->global) {
        refuse(w->p, n, "host variable '%s' is a global", name);
        return;
      }
      if (!s->ctype) {
        refuse(w->p, n, "host array '%s'", name);
        return;
      }
      if (write) {
        if (w->phase) {
          refuse(w->p, n, "a foreach assigns host variable '%s'", name);
          return;
        }
        w->s->writes_host = true;
        if (str_index(w->p->written, w->p->nwritten, name) >= 0)
          return;
        w->p->written = xrealloc(w->p->written,
                                 (size_t)(w->p->nwritten + 1) * sizeof *w->p->written);
        w->p->written[w->p->nwritten++] = xstrdup(name);
      }
    }
    return; /* thread-private copies: no conflicts */
  }
  /* CPU target: every other name is a variable shared by the threads
   * (constants and macros too: reading them is harmless). */
  add_access(w->s, name, read, write, false, false);
  if (write && !w->phase)
    w->s->writes = true;
}

static void walk(Walk *w, const Node *n, const Own *own, bool read, bool write);

/* Host code of a parts plan reads or writes `G.P[i]`, graph property P of
 * the partitioned graph G (the kernels of the parts hold a copy each,
 * equal between phases: fal_G_px_end).  Only element 0 travels between
 * parts (lower.c), so only a constant 0 index is taken. */
static bool part_gprop(Walk *w, const Node *n, bool read, bool write)
{
  Ctx *c = w->c;
  const Node *arg = node_field(n, F_ARGUMENT), *idx = node_field(n, F_INDEX);
  const char *pg = w->p->pgraph ? w->p->pgraph : w->p->sgraph;
  if (!pg || w->depth > 0 || !arg || arg->kind != K_FIELD_EXPRESSION || !idx ||
      !node_text_is(c->src, idx, "0"))
    return false;
  EType t = expr_type(c, node_field(arg, F_ARGUMENT));
  const Prop *pr = program_prop(c->prog, text_of(c, node_field(arg, F_FIELD)));
  if (t.kind != FK_GRAPH || !t.graph || strcmp(t.graph, pg) != 0 || !pr ||
      pr->kind != PK_GRAPH)
    return false;
  add_access(w->s, pr->name, read, write, false, false);
  if (write)
    w->s->writes = true;
  return true;
}

/* `X.f`: a property of a point or edge (own when X is the element). */
static void walk_field(Walk *w, const Node *n, const Own *own, bool read, bool write)
{
  Ctx *c = w->c;
  const Node *arg = node_field(n, F_ARGUMENT);
  const char *f = text_of(c, node_field(n, F_FIELD));
  const Sym *cs = w->depth == 0 ? coll_sym(c, arg) : NULL;
  if (cs) { /* c.size, read or assigned (§3.5) */
    if (cs->kind != FK_COLL || strcmp(f, "size") != 0)
      refuse(w->p, n, "'%s'", text_of(c, n));
    else if (coll_ok(w, cs, n))
      coll_access(w, cs, read, write);
    return;
  }
  const Prop *pr = program_prop(c->prog, f);
  EType t = expr_type(c, arg);
  if (t.kind == FK_GRAPH) {
    if (strcmp(f, "npoints") == 0 || strcmp(f, "nedges") == 0 || strcmp(f, "directed") == 0)
      return;
    if (!w->phase) {
      refuse(w->p, n, "host code reads or writes graph data ('%s')", text_of(c, n));
      return;
    }
  }
  if (pr && !w->phase) {
    refuse(w->p, n, "host code reads or writes graph data ('%s')", text_of(c, n));
    return;
  }
  if (pr) {
    bool o = own_has(own, c, arg);
    add_access(w->s, pr->name, read, write, o, o || nbr_has(own, c, arg));
  }
  walk(w, arg, own, true, false);
}

static void walk_call(Walk *w, const Node *n, const Own *own)
{
  Ctx *c = w->c;
  const Node *fn = node_field(n, F_FUNCTION);
  const Node *args = node_field(n, F_ARGUMENTS);
  int nargs = args ? node_named_count(args) : 0;
  if (fn && fn->kind == K_FIELD_EXPRESSION) { /* a method: g.getweight(...) */
    const char *m = text_of(c, node_field(fn, F_FIELD));
    bool adds = !strcmp(m, "add") || !strcmp(m, "push");
    bool reads = (!strcmp(m, "size") || !strcmp(m, "getSize") || !strcmp(m, "empty")) && nargs == 0;
    const Sym *cs = w->depth == 0 ? coll_sym(c, node_field(fn, F_ARGUMENT)) : NULL;
    /* c.add(x), c.size(): a Collection of this function, or (in a called
     * function) a Collection parameter, whose argument walk_call counted
     * as written. */
    bool direct = cs && cs->kind == FK_COLL && ((adds && w->phase && nargs == 1) || reads);
    bool param = !cs && c->gpu && w->depth > 0 && w->phase && ((adds && nargs == 1) || reads);
    if (direct || param) {
      if (param)
        walk(w, node_field(fn, F_ARGUMENT), own, true, false);
      else if (coll_ok(w, cs, n))
        coll_access(w, cs, true, adds);
      for (int i = 0; i < nargs; i++)
        walk(w, node_named_child(args, i), own, true, false);
      return;
    }
    const char *pg = w->p->pgraph ? w->p->pgraph : w->p->sgraph;
    if (!w->phase && pg && strcmp(m, "updatePartition") == 0 && nargs == 0 && w->depth == 0) {
      /* §7: after the exchange every part is up to date (parts that
       * share the host graph's arrays: always); nothing to do */
      EType g = expr_type(c, node_field(fn, F_ARGUMENT));
      if (g.kind == FK_GRAPH && g.graph && strcmp(g.graph, pg) == 0)
        return;
    }
    if (!w->phase) {
      refuse(w->p, n, "host code calls '%s'", m);
      return;
    }
    if (strcmp(m, "getweight") && strcmp(m, "getedge") && strcmp(m, "getOutDegree") &&
        strcmp(m, "getInDegree") && strcmp(m, "isdel")) {
      refuse(w->p, n, "'%s' in a foreach", m);
      return;
    }
    walk(w, node_field(fn, F_ARGUMENT), own, true, false);
    for (int i = 0; i < nargs; i++)
      walk(w, node_named_child(args, i), own, true, false);
    return;
  }
  const char *name = fn && fn->kind == K_IDENTIFIER ? text_of(c, fn) : NULL;
  if (name && is_atomic_name(name) && !c->prog->user_atomics) {
    for (int i = 0; i < nargs; i++) {
      bool first = i == 0, flag = i == 2 && (!strcmp(name, "MIN") || !strcmp(name, "MAX"));
      walk(w, node_named_child(args, i), own, true, first || flag);
    }
    return;
  }
  FuncInfo *f = name ? program_func(c->prog, name) : NULL;
  if (f && f->def) {
    if (!w->phase) {
      refuse(w->p, n, "host code calls '%s'", name);
      return;
    }
    for (int i = 0; i < w->depth; i++)
      if (w->stack[i] == f) {
        refuse(w->p, n, "'%s' is recursive", name);
        return;
      }
    if (w->depth == 8) {
      refuse(w->p, n, "calls nested too deeply");
      return;
    }
    /* Point parameters bound to the element are the element; those
     * bound to an out-neighbour of it are out-neighbours. */
    Own inner = {{0}, 0, {0}, 0};
    const Node *params = function_params(f->def);
    for (int i = 0; params && i < node_named_count(params) && i < nargs; i++) {
      const Node *prm = node_named_child(params, i);
      const Node *pn = prm ? declarator_name(node_field(prm, F_DECLARATOR)) : NULL;
      if (pn && own_has(own, c, node_named_child(args, i)) && inner.n < 8)
        inner.names[inner.n++] = text_of(c, pn);
      else if (pn && nbr_has(own, c, node_named_child(args, i)) && inner.nn < 8)
        inner.nbr[inner.nn++] = text_of(c, pn);
    }
    for (int i = 0; i < nargs; i++) {
      const Node *a = node_named_child(args, i);
      const Sym *cs = w->depth == 0 ? arg_coll(c, a) : NULL;
      if (cs) { /* the function may add to it or read its size */
        if (coll_ok(w, cs, a))
          coll_access(w, cs, true, true);
        continue;
      }
      walk(w, a, own, true, false);
    }
    w->stack[w->depth++] = f;
    walk(w, node_field(f->def, F_BODY), &inner, true, false);
    w->depth--;
    return;
  }
  /* A C function: it sees only its arguments. */
  if (!w->phase) {
    if (c->gpu) {
      refuse(w->p, n, "host code calls '%s'", name ? name : "a function");
      return;
    }
    w->s->opaque = true;
  }
  for (int i = 0; i < nargs; i++)
    walk(w, node_named_child(args, i), own, true, false);
}

static void walk(Walk *w, const Node *n, const Own *own, bool read, bool write)
{
  if (!n || refused(w->p))
    return;
  Ctx *c = w->c;
  /* The element and its neighbours are known by their variables: a
   * variable that is assigned or whose address is taken no longer names
   * them (own and near accesses would be wrong). */
  if ((n->kind == K_IDENTIFIER && write) ||
      (is_type(n, "pointer_expression") && node_text_is(c->src, node_field(n, F_OPERATOR), "&"))) {
    const Node *id = n->kind == K_IDENTIFIER ? n : node_field(n, F_ARGUMENT);
    if (own_has(own, c, id) || nbr_has(own, c, id)) {
      refuse(w->p, n, "the point variable '%s' is assigned or its address taken", text_of(c, id));
      return;
    }
    /* Writes through a pointer to a property would be invisible here. */
    if (id && id->kind == K_FIELD_EXPRESSION &&
        program_prop(c->prog, text_of(c, node_field(id, F_FIELD)))) {
      refuse(w->p, n, "the address of a property is taken ('%s')", text_of(c, id));
      return;
    }
  }
  switch (n->kind) {
  case K_IDENTIFIER:
    walk_identifier(w, n, read, write);
    return;
  case K_FIELD_EXPRESSION:
    walk_field(w, n, own, read, write);
    return;
  case K_ASSIGNMENT_EXPRESSION: {
    bool eq = node_text_is(c->src, node_field(n, F_OPERATOR), "=");
    walk(w, node_field(n, F_LEFT), own, !eq, true);
    walk(w, node_field(n, F_RIGHT), own, true, false);
    return;
  }
  case K_UPDATE_EXPRESSION:
    walk(w, node_field(n, F_ARGUMENT), own, true, true);
    return;
  case K_CALL_EXPRESSION:
    walk_call(w, n, own);
    return;
  case K_SUBSCRIPT_EXPRESSION:
    if (!w->phase && part_gprop(w, n, read, write))
      return;
    if (!w->phase) {
      refuse(w->p, n, "host code indexes '%s'", text_of(c, n));
      return;
    }
    /* `g.P[i] = v` writes P (a graph property): the write goes to what
     * is indexed, the index is read */
    walk(w, node_field(n, F_ARGUMENT), own, true, write);
    walk(w, node_field(n, F_INDEX), own, true, false);
    return;
  case K_SINGLE_STATEMENT:
    refuse(w->p, n, "single (locks are cleared by the host)");
    return;
  case K_REDUCTION_EXPRESSION:
    refuse(w->p, n, "a reduction");
    return;
  case K_PARALLEL_SECTIONS_STATEMENT:
    refuse(w->p, n, "parallel sections");
    return;
  case K_GETTYPE_DECLARATION:
  case K_DECLARATION:
    if (!w->phase) {
      refuse(w->p, n, "a declaration in the loop body");
      return;
    }
    break;
  case K_RETURN_STATEMENT:
    if (!w->phase || w->depth == 0) {
      refuse(w->p, n, "return");
      return;
    }
    break;
  case K_FOREACH_STATEMENT: {
    const Node *it = node_field(n, F_ITERABLE);
    const char *f = it && it->kind == K_FIELD_EXPRESSION
                        ? text_of(c, node_field(it, F_FIELD)) : "";
    if (strcmp(f, "outnbrs") && strcmp(f, "innbrs") && strcmp(f, "nbrs")) {
      refuse(w->p, n, "a nested foreach that is not a neighbour loop");
      return;
    }
    w->s->heavy = true;
    if (strcmp(f, "innbrs"))
      w->s->nbr_out = true;
    /* The neighbour is not the element: walk without the loop variable,
     * but an out-neighbour of the element is near it. */
    walk(w, it, own, true, false);
    Own inner = *own;
    const Node *var = node_field(n, F_VARIABLE);
    const char *vn = var ? text_of(c, var) : NULL;
    /* The loop variable hides an element or neighbour of the same name. */
    for (int i = 0; vn && i < inner.n; i++)
      if (strcmp(inner.names[i], vn) == 0)
        inner.names[i--] = inner.names[--inner.n];
    for (int i = 0; vn && i < inner.nn; i++)
      if (strcmp(inner.nbr[i], vn) == 0)
        inner.nbr[i--] = inner.nbr[--inner.nn];
    if (strcmp(f, "outnbrs") == 0 && own_has(own, c, node_field(it, F_ARGUMENT)) && vn &&
        inner.nn < 8)
      inner.nbr[inner.nn++] = vn;
    walk(w, node_field(n, F_CONDITION), &inner, true, false);
    walk(w, node_field(n, F_BODY), &inner, true, false);
    return;
  }
  default:
    if (is_type(n, "goto_statement")) {
      refuse(w->p, n, "goto");
      return;
    }
    break;
  }
  for (const Node *ch = n->child; ch; ch = ch->next)
    walk(w, ch, own, true, false);
}

/* ---- the steps of the body ---------------------------------------------- */

static Step *new_step(LoopPlan *p, StepKind k, const Node *stmt)
{
  p->steps = xrealloc(p->steps, (size_t)(p->nsteps + 1) * sizeof *p->steps);
  Step *s = &p->steps[p->nsteps++];
  memset(s, 0, sizeof *s);
  s->kind = k;
  s->stmt = stmt;
  return s;
}

/* A scalar step may hold: expressions, if/else, break, blocks.  Sets
 * *brk when a break is inside. */
static bool scalar_shape(Walk *w, const Node *n, bool *brk)
{
  if (!n)
    return true;
  switch (n->kind) {
  case K_COMMENT:
    return true;
  case K_BREAK_STATEMENT:
    *brk = true;
    return true;
  case K_EXPRESSION_STATEMENT:
    return true;
  case K_COMPOUND_STATEMENT:
    for (const Node *ch = n->child; ch; ch = ch->next)
      if (ch->named && !scalar_shape(w, ch, brk))
        return false;
    return true;
  case K_IF_STATEMENT: {
    const Node *alt = node_field(n, F_ALTERNATIVE);
    if (alt && is_type(alt, "else_clause"))
      alt = node_named_child(alt, 0);
    return scalar_shape(w, node_field(n, F_CONSEQUENCE), brk) &&
           scalar_shape(w, alt, brk);
  }
  case K_FOREACH_STATEMENT:
    refuse(w->p, n, "a foreach under an if or in a block of the loop body");
    return false;
  case K_LOOP_STATEMENT:
    refuse(w->p, n, "a nested loop in the loop body");
    return false;
  default:
    refuse(w->p, n, "a %s in the loop body", n->type ? n->type : "statement");
    return false;
  }
}

/* `foreach (t In c)` over a Collection of points (CUDA): one pass over
 * the elements below c's size when the phase starts, as the host's
 * launch for an unordered Collection is (falcon/cuda.cuh
 * fal_hc_drain_next: one batch).  A phase that may add to c itself, or
 * change it, is refused: the threads must all read the same size. */
static void plan_coll_phase(Ctx *c, LoopPlan *p, Step *s, const Node *n, const Sym *cs)
{
  Walk w = {c, p, s, true, 0, {0}};
  if (!coll_ok(&w, cs, n))
    return;
  if (node_field(n, F_OFFSET)) {
    refuse(p, n, "a foreach with an offset");
    return;
  }
  if (program_parted(c->prog, cs->graph)) {
    refuse(p, n, "'%s' is partitioned", cs->graph);
    return;
  }
  if (p->graph && strcmp(p->graph, cs->graph) != 0) {
    refuse(p, n, "two graphs ('%s', '%s') may live on two GPUs", p->graph, cs->graph);
    return;
  }
  p->graph = cs->graph;
  s->graph = cs->graph;
  s->coll = cs->name;
  Own own = {{text_of(c, node_field(n, F_VARIABLE))}, 1, {0}, 0};
  walk(&w, node_field(n, F_CONDITION), &own, true, false);
  walk(&w, node_field(n, F_BODY), &own, true, false);
  const char *obj = ctx_printf(c, "(coll)%s", cs->name);
  for (int i = 0; i < s->nacc; i++)
    if (strcmp(s->acc[i].name, obj) == 0 && s->acc[i].write) {
      refuse(p, n, "the foreach may add to or change '%s', the Collection it visits", cs->name);
      return;
    }
  coll_access(&w, cs, true, false);
  add_access(s, ELEMENTS, true, false, false, false);
  /* A Collection may hold a point twice: no access is the element's own
   * (no fusion, no own-own exemption at the barriers). */
  for (int i = 0; i < s->nacc; i++)
    s->acc[i].own = s->acc[i].wown = s->acc[i].wnear = false;
}

static void plan_phase(Ctx *c, LoopPlan *p, const Node *n)
{
  const Node *it = node_field(n, F_ITERABLE);
  Step *s = new_step(p, STEP_PHASE, n);
  const Sym *cs = it && c->gpu ? coll_sym(c, it) : NULL;
  if (cs && cs->kind == FK_COLL) {
    plan_coll_phase(c, p, s, n, cs);
    return;
  }
  if (!it || it->kind != K_FIELD_EXPRESSION) {
    refuse(p, n, "a foreach over a Collection or Set");
    return;
  }
  EType g = expr_type(c, node_field(it, F_ARGUMENT));
  const char *f = text_of(c, node_field(it, F_FIELD));
  if (g.kind != FK_GRAPH || (strcmp(f, "points") && strcmp(f, "edges"))) {
    refuse(p, n, "a foreach over something other than g.points or g.edges");
    return;
  }
  if (node_field(n, F_OFFSET)) {
    refuse(p, n, "a foreach with an offset");
    return;
  }
  /* parts that share the host graph's arrays (p->sgraph): as unpartitioned */
  bool parted = program_parted(c->prog, g.graph) && !(p->sgraph && strcmp(p->sgraph, g.graph) == 0);
  if (parted && (!p->pgraph || strcmp(p->pgraph, g.graph) != 0 || strcmp(f, "points") != 0)) {
    refuse(p, n, "'%s' is partitioned%s", g.graph,
           !p->pgraph ? "" : strcmp(p->pgraph, g.graph) != 0 ? " (the loop visits two partitioned graphs)"
                                                             : " (a foreach over its edges)");
    return;
  }
  if (parted) {
    bool wrote_nbr = false;
    if (!part_foreach_local(c, n, &wrote_nbr)) {
      refuse(p, n, "the foreach over partitioned '%s' reaches points that are neither its "
             "own nor their neighbours, or edge properties (every property travels)", g.graph);
      return;
    }
    s->part_own = !wrote_nbr;
    p->parts = true;
  }
  if (c->gpu && !parted && !graph_on_gpu(c, g.graph)) {
    refuse(p, n, "'%s' is a host graph in a GPU program", g.graph);
    return;
  }
  if (c->gpu && p->graph && strcmp(p->graph, g.graph) != 0) {
    refuse(p, n, "two graphs ('%s', '%s') may live on two GPUs", p->graph, g.graph);
    return;
  }
  p->graph = g.graph;
  s->graph = g.graph;
  s->edges = strcmp(f, "edges") == 0;
  Walk w = {c, p, s, true, 0, {0}};
  Own own = {{text_of(c, node_field(n, F_VARIABLE))}, 1, {0}, 0};
  walk(&w, node_field(n, F_CONDITION), &own, true, false);
  walk(&w, node_field(n, F_BODY), &own, true, false);
}

/* `x ReduxSum= g.points.f;` or `if (cond) x ReduxSum= ...;` (§4.4): the
 * reduction expression, else NULL. */
static const Node *redux_of(const Node *n)
{
  if (n && n->kind == K_IF_STATEMENT && !node_field(n, F_ALTERNATIVE))
    n = node_field(n, F_CONSEQUENCE);
  const Node *e = n && n->kind == K_EXPRESSION_STATEMENT ? node_named_child(n, 0) : NULL;
  return e && e->kind == K_REDUCTION_EXPRESSION ? e : NULL;
}

/* A reduction as a step of a CPU region: every thread adds its share of
 * the elements and then its partial into x (an atomic); x is read and
 * written, the properties read for all elements (not through a phase's
 * element: a barrier separates it from the phases that write them).
 * Anything else it reads must be a plain variable. */
static void plan_redux(Ctx *c, LoopPlan *p, Step *s, const Node *n, const Node *red)
{
  s->redux = true;
  Walk w = {c, p, s, false, 0, {0}};
  Own none = {{0}, 0, {0}, 0};
  walk(&w, node_field(red, F_LEFT), &none, true, true);
  const Node *parts[2] = {node_field(red, F_RIGHT),
                          n->kind == K_IF_STATEMENT ? node_field(n, F_CONDITION) : NULL};
  for (int k = 0; k < 2 && !refused(p); k++)
    for (const Node *q = parts[k]; q; q = node_next(q, parts[k], true)) {
      if (q->kind == K_CALL_EXPRESSION || q->kind == K_ASSIGNMENT_EXPRESSION ||
          q->kind == K_UPDATE_EXPRESSION) {
        refuse(p, q, "a reduction with a call or an assignment in it");
        return;
      }
      if (q->kind == K_FIELD_EXPRESSION) {
        const Prop *pr = program_prop(c->prog, text_of(c, node_field(q, F_FIELD)));
        if (pr)
          add_access(s, pr->name, true, false, false, false);
      } else if (q->kind == K_IDENTIFIER && q->field != F_FIELD) {
        walk_identifier(&w, q, true, false);
      }
    }
  s->leader = false;
}

static void plan_scalar(Ctx *c, LoopPlan *p, const Node *n)
{
  Step *s = new_step(p, STEP_SCALAR, n);
  const Node *red = c->gpu ? NULL : redux_of(n);
  if (red) {
    plan_redux(c, p, s, n, red);
    return;
  }
  Walk w = {c, p, s, false, 0, {0}};
  bool brk = false;
  if (!scalar_shape(&w, n, &brk))
    return;
  Own none = {{0}, 0, {0}, 0};
  walk(&w, n, &none, true, false);
  if (refused(p))
    return;
  s->brk = brk;
  if (brk && (s->writes || s->opaque)) {
    refuse(p, n, "a step both writes and breaks");
    return;
  }
  /* CUDA: a step writing a GPU scalar runs on one thread; one that also
   * writes host variables is allowed only when no other thread reads
   * them (leader_steps). */
  s->leader = s->writes || s->opaque;
}

/* CUDA: which scalar steps one thread runs.  Each thread of the loop's
 * kernel has its own copy of the host variables; the leader's copies are
 * the ones handed back.  A copy other threads read must be kept by every
 * thread; the rest need only the leader's.  R: the host variables read
 * by the condition, by a phase, or by a step every thread runs (one with
 * a break, or one that writes a variable of R), to a fixed point.  The
 * other steps that write only host variables run on the leader, and a
 * step that writes GPU state (a scalar, a Collection) and a variable of R
 * is refused.  Leader steps in a row need no barriers between them
 * (conflict), which is what this buys: a worklist round's bookkeeping
 * (sizes, counters) in one thread without barriers. */
static void leader_steps(LoopPlan *p)
{
  char **r = NULL;
  int nr = 0;
  bool *every = xcalloc((size_t)p->nsteps, sizeof *every);
  for (int i = 0; i < p->nsteps; i++) {
    const Step *s = &p->steps[i];
    every[i] = s->kind != STEP_SCALAR || s->brk;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = 0; i < p->nsteps; i++) {
      const Step *s = &p->steps[i];
      if (!every[i] && s->kind == STEP_SCALAR && !s->leader)
        for (int j = 0; j < s->nhvar; j++)
          if ((s->hmode[j] & 2) && str_index(r, nr, s->hvar[j]) >= 0) {
            every[i] = changed = true;
            break;
          }
      if (!every[i])
        continue;
      for (int j = 0; j < s->nhvar; j++)
        if ((s->hmode[j] & 1) && str_index(r, nr, s->hvar[j]) < 0) {
          r = xrealloc(r, (size_t)(nr + 1) * sizeof *r);
          r[nr++] = s->hvar[j];
          changed = true;
        }
    }
  }
  for (int i = 0; i < p->nsteps && !refused(p); i++) {
    Step *s = &p->steps[i];
    if (s->kind != STEP_SCALAR)
      continue;
    if (s->leader && s->writes_host)
      for (int j = 0; j < s->nhvar; j++)
        if ((s->hmode[j] & 2) && str_index(r, nr, s->hvar[j]) >= 0) {
          refuse(p, s->stmt, "a step writes both GPU state and host variable '%s', which "
                 "every thread reads", s->hvar[j]);
          break;
        }
    if (!every[i])
      s->leader = true;
  }
  free(r);
  free(every);
}

/* ---- barriers and fusion ------------------------------------------------------ */

typedef struct Pending {
  Access *acc;       /* own: every access came through the element of a
                      * phase over the points of `graph` */
  int n;
  bool all;          /* an opaque step ran: everything is pending */
} Pending;

static void pending_clear(Pending *q)
{
  for (int i = 0; i < q->n; i++)
    free(q->acc[i].name);
  free(q->acc);
  memset(q, 0, sizeof *q);
}

static void pending_add(Pending *q, const Step *s)
{
  if (s->opaque)
    q->all = true;
  bool ph = s->kind == STEP_PHASE && !s->edges;
  bool lead = s->kind == STEP_SCALAR && s->leader;
  for (int i = 0; i < s->nacc; i++) {
    const Access *a = &s->acc[i];
    if (a->copy) /* a thread's own copy (gp_copy_rule) */
      continue;
    int j;
    for (j = 0; j < q->n; j++)
      if (strcmp(q->acc[j].name, a->name) == 0)
        break;
    if (j == q->n) {
      q->acc = xrealloc(q->acc, (size_t)(q->n + 1) * sizeof *q->acc);
      q->acc[q->n++] = (Access){xstrdup(a->name), a->read, a->write, a->own && ph,
                                ph ? s->graph : NULL, false, false, false, lead, false};
    } else {
      q->acc[j].lead &= lead;
      q->acc[j].read |= a->read;
      q->acc[j].write |= a->write;
      q->acc[j].own &= a->own && ph && q->acc[j].graph && strcmp(q->acc[j].graph, s->graph) == 0;
    }
  }
}

/* 0: no conflict; 1: only own-own conflicts between phases over the
 * points of one graph; 2: a barrier is needed.  gpu: leader steps run on
 * one thread of the kernel, in program order, so one that touches only
 * what leader steps touched since the last barrier needs none (on the CPU
 * each `single` may run on another thread). */
static int conflict(const Pending *q, const Step *s, bool gpu)
{
  if ((q->all && (s->nacc || s->kind != STEP_COND)) || s->opaque)
    return q->n || q->all ? 2 : 0;
  bool ph = s->kind == STEP_PHASE && !s->edges;
  int worst = 0;
  for (int i = 0; i < s->nacc; i++) {
    const Access *a = &s->acc[i];
    if (a->copy)
      continue;
    for (int j = 0; j < q->n; j++) {
      const Access *b = &q->acc[j];
      if (strcmp(a->name, b->name) != 0)
        continue;
      if (!((b->write && (a->read || a->write)) || (b->read && a->write)))
        continue;
      if (gpu && b->lead && s->kind == STEP_SCALAR && s->leader)
        continue;
      int k = ph && a->own && b->own && b->graph && strcmp(b->graph, s->graph) == 0 ? 1 : 2;
      if (k > worst)
        worst = k;
    }
  }
  return worst;
}

/* A parts plan (CUDA): whether the steps that every thread runs (the
 * condition, steps with a break) may read the graph properties from each
 * thread's copy of the values the last exchange combined (fal_G_px_end
 * hands them to every thread), and so whether a leader step's write of
 * one after such a read needs no barrier.  That barrier is the first of
 * the two at the top of a round (docs/optimiser.md "Partitioned loops on
 * the devices").  The copy is right when, between two phases (the round
 * taken as a cycle), no such read follows a write of the same property
 * and every write of a graph property is a leader step's (the one thread
 * whose memory the copy equals).  A plan is refused (keeps its
 * barriers) when a step writes anything other than a graph property or
 * calls C, and when no leader write follows such a read (nothing to
 * save).  Marks the reads (Access.copy) and returns the verdict; the
 * emitter fills the copy (fal_gv) and, with gp_early, runs the steps
 * inside the exchange (lower_plan.c parts_early_body). */
static bool gp_copy_rule(Ctx *c, LoopPlan *p)
{
  if (!p->parts)
    return false;
  int last = -1;
  for (int i = 0; i < p->nsteps; i++)
    if (p->steps[i].kind == STEP_PHASE)
      last = i;
  if (last < 0)
    return false;
  char *written[32];
  int nw = 0;
  bool gain = false;
  /* the steps from the last phase round to it again: windows between phases */
  for (int n = 1; n < p->nsteps; n++) {
    const Step *s = &p->steps[(last + n) % p->nsteps];
    if (s->kind == STEP_PHASE) {
      nw = 0;
      continue;
    }
    bool every = s->kind == STEP_COND || !s->leader;
    if (s->opaque || (s->writes && every))
      return false;
    for (int i = 0; i < s->nacc; i++) {
      const Access *a = &s->acc[i];
      const Prop *pr = program_prop(c->prog, a->name);
      bool gp = pr && pr->kind == PK_GRAPH;
      if (a->write && !gp)
        return false;
      if (!gp)
        continue;
      if (every && str_index(written, nw, a->name) >= 0)
        return false; /* read after a leader wrote it: the copy is old */
      if (a->write && str_index(written, nw, a->name) < 0) {
        if (nw == (int)(sizeof written / sizeof written[0]))
          return false;
        written[nw++] = a->name;
      }
    }
  }
  /* Does a leader write follow a read (the barrier the copy saves)? */
  for (int n = 1; n < p->nsteps && !gain; n++) {
    const Step *s = &p->steps[(last + n) % p->nsteps];
    if (s->kind == STEP_PHASE || !(s->kind == STEP_COND || !s->leader))
      continue;
    for (int i = 0; i < s->nacc && !gain; i++) {
      const Prop *pr = program_prop(c->prog, s->acc[i].name);
      if (!pr || pr->kind != PK_GRAPH)
        continue;
      for (int m = n + 1; m < n + p->nsteps && !gain; m++) {
        const Step *t = &p->steps[(last + m) % p->nsteps];
        if (t->kind == STEP_PHASE)
          break;
        for (int j = 0; j < t->nacc; j++)
          gain |= t->acc[j].write && strcmp(t->acc[j].name, s->acc[i].name) == 0;
      }
    }
  }
  if (!gain)
    return false;
  for (int i = 0; i < p->nsteps; i++) {
    Step *s = &p->steps[i];
    if (s->kind == STEP_PHASE || !(s->kind == STEP_COND || !s->leader))
      continue;
    for (int j = 0; j < s->nacc; j++) {
      const Prop *pr = program_prop(c->prog, s->acc[j].name);
      s->acc[j].copy = pr && pr->kind == PK_GRAPH;
    }
  }
  return true;
}

static void place_barriers(LoopPlan *p, bool gpu)
{
  Pending q = {0};
  pending_clear(&q); /* the launch / region start is a barrier */
  bool *sync = xcalloc((size_t)p->nsteps, sizeof *sync);
  /* Walk the round three times: the back edge carries what ran at the
   * end of a round into the next; a barrier needed in any round is kept. */
  for (int pass = 0; pass < 3; pass++) {
    for (int i = 0; i < p->nsteps; i++) {
      Step *s = &p->steps[i];
      int k = conflict(&q, s, gpu);
      bool prev_phase = i > 0 && p->steps[i - 1].kind == STEP_PHASE;
      if (k == 2 || (k == 1 && !(prev_phase && s->kind == STEP_PHASE))) {
        sync[i] = true;
        pending_clear(&q);
      }
      pending_add(&q, s);
      /* a parts plan's phase ends with the exchange, which ends with a
       * barrier of every part (fal_G_px_end; the combined graph
       * properties' writes after it: lower_plan.c gp_pending) */
      if (p->parts && s->kind == STEP_PHASE)
        pending_clear(&q);
    }
  }
  for (int i = 0; i < p->nsteps; i++) {
    Step *s = &p->steps[i];
    s->sync_before = sync[i];
    s->fuse_prev = s->kind == STEP_PHASE && !s->edges && !s->coll && i > 0 && !sync[i] &&
                   p->steps[i - 1].kind == STEP_PHASE && !p->steps[i - 1].edges &&
                   !p->steps[i - 1].coll &&
                   strcmp(p->steps[i - 1].graph, s->graph) == 0;
  }
  free(sync);
  pending_clear(&q);
}

/* ---- moving a phase up to fuse it (docs/optimiser.md "Fusion") ---------------- */

/* a and b touch a common object that one of them writes (or one calls a
 * C function). */
static bool steps_conflict(const Step *a, const Step *b)
{
  if (a->opaque || b->opaque)
    return true;
  for (int i = 0; i < a->nacc; i++)
    for (int j = 0; j < b->nacc; j++)
      if (strcmp(a->acc[i].name, b->acc[j].name) == 0 &&
          (a->acc[i].write || b->acc[j].write))
        return true;
  return false;
}

/* A phase over every point (no filter) whose property accesses all go
 * through its own point and whose other accesses are reads. */
static bool own_only_phase(Ctx *c, const Step *s)
{
  if (s->kind != STEP_PHASE || s->edges || s->coll || s->heavy || node_field(s->stmt, F_CONDITION))
    return false;
  for (int i = 0; i < s->nacc; i++) {
    const Access *a = &s->acc[i];
    const Prop *pr = program_prop(c->prog, a->name);
    if (pr ? !a->own : a->write)
      return false;
  }
  return true;
}

static void move_step(LoopPlan *p, int from, int to)
{
  Step t = p->steps[from];
  if (to < from)
    memmove(&p->steps[to + 1], &p->steps[to], (size_t)(from - to) * sizeof t);
  else
    memmove(&p->steps[from], &p->steps[from + 1], (size_t)(to - from) * sizeof t);
  p->steps[to] = t;
}

/* pagerank.fal's `rank = next` phase sits after the reduction of the
 * deltas; it touches neither the reduction nor its flag, so it may run
 * before them, and then it fuses with the pull above it (one pass over
 * the points instead of two, and no barrier).  A phase moves up past
 * scalar steps only when it is own-only (own_only_phase), none of the
 * steps holds a break or calls a function, it conflicts with none of
 * them, and the move lets it fuse with the phase it lands under;
 * otherwise it stays.  Runs before the barriers are placed for good. */
static void hoist_phases(Ctx *c, LoopPlan *p)
{
  for (int i = 2; i < p->nsteps; i++) {
    if (!own_only_phase(c, &p->steps[i]))
      continue;
    int j = i - 1;
    while (j > 0 && p->steps[j].kind == STEP_SCALAR && !p->steps[j].brk &&
           !steps_conflict(&p->steps[j], &p->steps[i]))
      j--;
    if (j == i - 1 || j <= 0 || p->steps[j].kind != STEP_PHASE)
      continue;
    move_step(p, i, j + 1);
    place_barriers(p, c->gpu);
    if (!p->steps[j + 1].fuse_prev)
      move_step(p, j + 1, i); /* it would not fuse: put it back */
  }
}

/* ---- frontiers (CPU regions) ----------------------------------------------------- */
/* docs/optimiser.md "Frontiers" states the rule this code checks. */

/* `v.F` with v the phase's variable and F a point property: F, else NULL. */
static const char *own_flag(Ctx *c, const Node *n, const char *var)
{
  n = node_unparen(n);
  if (!n || n->kind != K_FIELD_EXPRESSION)
    return NULL;
  const Node *arg = node_field(n, F_ARGUMENT);
  if (!arg || arg->kind != K_IDENTIFIER || strcmp(text_of(c, arg), var) != 0)
    return NULL;
  const Prop *pr = program_prop(c->prog, text_of(c, node_field(n, F_FIELD)));
  return pr && pr->kind == PK_POINT ? pr->name : NULL;
}

static int flag_index(LoopPlan *p, const char *name, bool add)
{
  int i = str_index(p->flags, p->nflags, name);
  if (i >= 0)
    return i;
  if (!add || p->nflags == 32)
    return -1;
  p->flags[p->nflags] = xstrdup(name);
  return p->nflags++;
}

/* A shuffle phase: no filter, and a body of `v.X = 0;` / `v.X = v.Y;`
 * statements only.  Adds X and Y to the flags and to *mask. */
static bool shuffle_body(Ctx *c, LoopPlan *p, const Node *n, const char *var, unsigned *mask,
                         Step *s)
{
  if (!n)
    return false;
  if (n->kind == K_COMPOUND_STATEMENT) {
    int k = 0;
    for (const Node *ch = n->child; ch; ch = ch->next)
      if (ch->named && ch->kind != K_COMMENT) {
        if (!shuffle_body(c, p, ch, var, mask, s))
          return false;
        k++;
      }
    return k > 0;
  }
  if (n->kind != K_EXPRESSION_STATEMENT)
    return false;
  const Node *e = node_named_child(n, 0);
  if (!e || e->kind != K_ASSIGNMENT_EXPRESSION || !node_text_is(c->src, node_field(e, F_OPERATOR), "="))
    return false;
  const char *x = own_flag(c, node_field(e, F_LEFT), var);
  const Node *r = node_unparen(node_field(e, F_RIGHT));
  const char *y = NULL;
  if (!x)
    return false;
  if (!(r && is_type(r, "number_literal") && node_text_is(c->src, r, "0")) &&
      !(y = own_flag(c, r, var)))
    return false;
  int ix = flag_index(p, x, true), iy = y ? flag_index(p, y, true) : ix;
  if (ix < 0 || iy < 0)
    return false;
  *mask |= 1u << ix | 1u << iy;
  if (s->nshuf >= 0 && s->nshuf < 16) {
    s->shx[s->nshuf] = (signed char)ix;
    s->shy[s->nshuf++] = (signed char)(y ? iy : -1);
  } else {
    s->nshuf = -1;
  }
  return true;
}

/* The name of f's parameter that argument `a` of the call (argument list
 * `args`) is passed to, or NULL. */
static const Node *param_for(const FuncInfo *f, const Node *args, const Node *a)
{
  int k = 0;
  for (const Node *q = args->child; q && q != a; q = q->next)
    k += q->named && q->kind != K_COMMENT;
  const Node *params = function_params(f->def);
  const Node *prm = params ? node_named_child(params, k) : NULL;
  return prm && prm->kind == K_PARAMETER_DECLARATION ? declarator_name(node_field(prm, F_DECLARATOR)) : NULL;
}

/* ---- topology-driven loops (docs/lowering.md "Topology-driven loops") ---- */

/* The rule, checked on the body of the loop's one phase and on the
 * element function it calls (one level):
 *   - the phase is `foreach (t In g.points) S`, with no filter or (CPU)
 *     a filter that reads P only of the element, and S is a
 *     call f(t, ...) of an element function or a body of its own;
 *   - the only writes are MIN(n.P, e[, flag]) (or MAX, one kind for the
 *     whole loop, one property P) with n the variable of a neighbour loop
 *     over the element's out-neighbours, a flag (a scalar) set by MIN
 *     itself or by `if (MIN(...)) x = c;` with x a scalar and c a
 *     constant;
 *   - e, conditions and initializers have no side effects and read P only
 *     of the element (t.P); other properties and variables they read are
 *     not written in the loop;
 *   - the statements are blocks, declarations, ifs, `return;` and such
 *     neighbour loops.
 * Then an element whose P did not change since it last ran would only
 * repeat MINs that fail (P only decreases, and e depends on no other
 * changing value), so the round may skip it, with the same flags and the
 * same results. */
typedef struct Topo {
  Ctx *c;
  const char *elem;   /* the element's variable */
  const char *nbr[8]; /* the enclosing out-neighbour loops' variables */
  int nnbr;
  const char *prop;   /* P */
  int op;             /* 1 MIN, 2 MAX */
  LoopPlan *p;        /* the plan whose steps say what is written, or NULL: */
  const Node *loop;   /* ... then this host loop's text says (read-first rule) */
  const char *why;
  int depth;
  bool lvl;           /* parts_sync_rule: values may read variables the loop
                       * writes (its counters: one value a round, the same in
                       * every part) and P of any point (owners' values, or
                       * ghosts kept fresh) */
} Topo;

static bool topo_no(Topo *t, const char *why)
{
  if (!t->why)
    t->why = why;
  return false;
}

static bool is_nbr_var(Topo *t, const Node *id)
{
  for (int i = 0; i < t->nnbr; i++)
    if (id && id->kind == K_IDENTIFIER && strcmp(text_of(t->c, id), t->nbr[i]) == 0)
      return true;
  return false;
}

/* Properties and variables written anywhere in the loop (the steps'
 * accesses; on the CUDA target host variables are the steps' hvar). */
static bool prop_written(const LoopPlan *p, const char *name)
{
  for (int i = 0; i < p->nsteps; i++) {
    for (int j = 0; j < p->steps[i].nacc; j++)
      if (p->steps[i].acc[j].write && strcmp(p->steps[i].acc[j].name, name) == 0)
        return true;
    for (int j = 0; j < p->steps[i].nhvar; j++)
      if ((p->steps[i].hmode[j] & 2) && strcmp(p->steps[i].hvar[j], name) == 0)
        return true;
  }
  return false;
}

static bool loop_writes(Ctx *c, const Node *root, const char *name, bool minmax);

/* Whether the loop writes `name` (a variable or a property). */
static bool topo_written(Topo *t, const char *name)
{
  return t->p ? prop_written(t->p, name) : loop_writes(t->c, t->loop, name, true);
}

/* e reads only: no assignment, increment or call but of pure functions;
 * P only of the element; no property written in the loop but P. */
static bool topo_pure(Topo *t, const Node *e)
{
  for (const Node *n = e; n; n = node_next(n, e, true)) {
    if (n->kind == K_ASSIGNMENT_EXPRESSION || n->kind == K_UPDATE_EXPRESSION ||
        n->kind == K_REDUCTION_EXPRESSION)
      return topo_no(t, "an expression with side effects");
    if (n->kind == K_CALL_EXPRESSION && !call_is_pure(t->c, n))
      return topo_no(t, "a call with side effects");
    /* A variable the loop writes (a round counter...) would make the
     * same element compute other values in another round. */
    if (n->kind == K_IDENTIFIER && n->field != F_FUNCTION && !t->lvl &&
        topo_written(t, text_of(t->c, n)))
      return topo_no(t, "a variable written in the loop is read");
    if (n->kind == K_FIELD_EXPRESSION) {
      const char *f = text_of(t->c, node_field(n, F_FIELD));
      const Prop *pr = f ? program_prop(t->c->prog, f) : NULL;
      if (!pr)
        continue;
      const Node *a = node_unparen(node_field(n, F_ARGUMENT));
      bool own = a && a->kind == K_IDENTIFIER && strcmp(text_of(t->c, a), t->elem) == 0;
      if (t->prop && strcmp(pr->name, t->prop) == 0) {
        if (!own && !t->lvl)
          return topo_no(t, "the MIN property is read of a point other than the element");
      } else if (topo_written(t, pr->name)) {
        return topo_no(t, "a property written in the loop is read");
      }
    }
  }
  return true;
}

/* MIN(n.P, e[, flag]) with n a neighbour variable: records P and the op. */
static bool topo_min(Topo *t, const Node *call)
{
  const Node *fn = node_field(call, F_FUNCTION);
  int op = fn && node_text_is(t->c->src, fn, "MIN") ? 1 : fn && node_text_is(t->c->src, fn, "MAX") ? 2 : 0;
  if (!op)
    return topo_no(t, "a call other than MIN/MAX with effects");
  const Node *args = node_field(call, F_ARGUMENTS);
  const Node *target = args ? node_named_child(args, 0) : NULL;
  const Node *value = args ? node_named_child(args, 1) : NULL;
  target = node_unparen(target);
  if (!target || !value || target->kind != K_FIELD_EXPRESSION ||
      !is_nbr_var(t, node_unparen(node_field(target, F_ARGUMENT))))
    return topo_no(t, "a MIN/MAX whose target is not a property of an out-neighbour");
  const char *f = text_of(t->c, node_field(target, F_FIELD));
  const Prop *pr = f ? program_prop(t->c->prog, f) : NULL;
  if (!pr || pr->kind != PK_POINT)
    return topo_no(t, "a MIN/MAX on something other than a point property");
  if (t->prop && strcmp(t->prop, pr->name) != 0)
    return topo_no(t, "MIN/MAX on two properties");
  if (t->op && t->op != op)
    return topo_no(t, "both MIN and MAX");
  t->prop = pr->name;
  t->op = op;
  /* the flag (third argument) may be anything MIN sets to 1 */
  return topo_pure(t, value);
}

static bool topo_stmt(Topo *t, const Node *s);

/* P first: the property of the first MIN/MAX target in the body (the
 * check then reads every other use of it). */
static void topo_find_prop(Topo *t, const Node *body)
{
  for (const Node *n = body; n && !t->prop; n = node_next(n, body, true)) {
    if (n->kind != K_CALL_EXPRESSION)
      continue;
    const Node *fn = node_field(n, F_FUNCTION);
    if (!fn || !(node_text_is(t->c->src, fn, "MIN") || node_text_is(t->c->src, fn, "MAX")))
      continue;
    const Node *args = node_field(n, F_ARGUMENTS);
    const Node *target = args ? node_unparen(node_named_child(args, 0)) : NULL;
    if (target && target->kind == K_FIELD_EXPRESSION) {
      const Prop *pr = program_prop(t->c->prog, text_of(t->c, node_field(target, F_FIELD)));
      if (pr && pr->kind == PK_POINT)
        t->prop = pr->name;
    }
  }
}

/* if (MIN(...)) x = c;  (x a plain variable, c a literal) */
static bool topo_flag_if(Topo *t, const Node *s)
{
  const Node *cond = node_unparen(node_field(s, F_CONDITION));
  if (!cond || cond->kind != K_CALL_EXPRESSION || node_field(s, F_ALTERNATIVE))
    return false;
  const Node *fn = node_field(cond, F_FUNCTION);
  if (!fn || !(node_text_is(t->c->src, fn, "MIN") || node_text_is(t->c->src, fn, "MAX")))
    return false;
  const Node *body = node_field(s, F_CONSEQUENCE);
  if (body && body->kind == K_COMPOUND_STATEMENT) {
    const Node *only = node_named_child(body, 0);
    if (!only || node_named_child(body, 1))
      return topo_no(t, "an if (MIN(...)) with more than a flag assignment");
    body = only;
  }
  const Node *e = body && body->kind == K_EXPRESSION_STATEMENT ? node_named_child(body, 0) : NULL;
  const Node *l = e && e->kind == K_ASSIGNMENT_EXPRESSION ? node_unparen(node_field(e, F_LEFT)) : NULL;
  const Node *r = e ? node_unparen(node_field(e, F_RIGHT)) : NULL;
  if (!l || l->kind != K_IDENTIFIER || !r || !is_type(r, "number_literal") ||
      !node_text_is(t->c->src, node_field(e, F_OPERATOR), "="))
    return topo_no(t, "an if (MIN(...)) whose body is not `flag = constant;`");
  return topo_min(t, cond);
}

static bool topo_stmt(Topo *t, const Node *s)
{
  if (!s)
    return true;
  if (++t->depth > 64)
    return topo_no(t, "nested too deeply");
  bool ok = true;
  switch (s->kind) {
  case K_COMPOUND_STATEMENT:
    for (const Node *ch = s->child; ch && ok; ch = ch->next)
      if (ch->named && ch->kind != K_COMMENT)
        ok = topo_stmt(t, ch);
    break;
  case K_COMMENT:
    break;
  case K_DECLARATION:
    for (const Node *ch = s->child; ch && ok; ch = ch->next)
      if (ch->kind == K_INIT_DECLARATOR)
        ok = topo_pure(t, node_field(ch, F_VALUE));
      else if (ch->kind == K_FALCON_TYPE)
        ok = topo_no(t, "a Falcon local");
    break;
  case K_RETURN_STATEMENT:
    if (node_named_child(s, 0))
      ok = topo_no(t, "a return with a value");
    break;
  case K_IF_STATEMENT:
    if (topo_flag_if(t, s))
      break;
    if (t->why)
      return false;
    ok = topo_pure(t, node_field(s, F_CONDITION)) && topo_stmt(t, node_field(s, F_CONSEQUENCE));
    if (ok && node_field(s, F_ALTERNATIVE)) {
      const Node *alt = node_field(s, F_ALTERNATIVE);
      ok = topo_stmt(t, alt->kind == K_OTHER ? node_named_child(alt, 0) : alt);
    }
    break;
  case K_EXPRESSION_STATEMENT: {
    const Node *e = node_named_child(s, 0);
    if (!e)
      break;
    if (e->kind != K_CALL_EXPRESSION)
      ok = topo_no(t, "a statement other than MIN/MAX");
    else
      ok = topo_min(t, e);
    break;
  }
  case K_FOREACH_STATEMENT: {
    const Node *it = node_field(s, F_ITERABLE);
    const Node *a = it && it->kind == K_FIELD_EXPRESSION ? node_unparen(node_field(it, F_ARGUMENT)) : NULL;
    if (!a || a->kind != K_IDENTIFIER || strcmp(text_of(t->c, a), t->elem) != 0 ||
        !node_text_is(t->c->src, node_field(it, F_FIELD), "outnbrs") || node_field(s, F_OFFSET))
      return topo_no(t, "a foreach other than over the element's outnbrs");
    if (t->nnbr == 8)
      return topo_no(t, "nested too deeply");
    ok = topo_pure(t, node_field(s, F_CONDITION));
    t->nbr[t->nnbr++] = text_of(t->c, node_field(s, F_VARIABLE));
    ok = ok && topo_stmt(t, node_field(s, F_BODY));
    t->nnbr--;
    break;
  }
  default:
    ok = topo_no(t, "a statement other than blocks, ifs, declarations, return; and "
                    "neighbour loops with MIN/MAX");
  }
  t->depth--;
  return ok;
}

/* The body of foreach statement n (inline, or a call f(t, ...) of an
 * element function, one level): whether the rule holds for it (t->prop
 * set), else t->why.  Returns f, or NULL for an inline body. */
static const FuncInfo *topo_body(Ctx *c, Topo *t, const Node *n)
{
  const Node *body = node_field(n, F_BODY);
  const Node *call = body && body->kind == K_EXPRESSION_STATEMENT ? node_named_child(body, 0) : NULL;
  FuncInfo *f = NULL;
  if (call && call->kind == K_CALL_EXPRESSION) {
    const Node *fn = node_field(call, F_FUNCTION);
    f = fn && fn->kind == K_IDENTIFIER ? program_func(c->prog, text_of(c, fn)) : NULL;
  }
  if (f && f->def) {
    /* f(t, ...): the element is the parameter the loop variable is
     * passed to; the other arguments are values of this round. */
    const Node *args = node_field(call, F_ARGUMENTS);
    const char *elem = NULL;
    for (const Node *a = args ? args->child : NULL; a; a = a->next) {
      if (!a->named || a->kind == K_COMMENT)
        continue;
      if (!topo_pure(t, a))
        break;
      const Node *pa = param_for(f, args, a);
      if (pa && a->kind == K_IDENTIFIER && strcmp(text_of(c, a), t->elem) == 0)
        elem = text_of(c, pa);
    }
    if (!t->why && !elem)
      topo_no(t, "the element is not passed to the function");
    if (!t->why) {
      t->elem = elem;
      topo_find_prop(t, node_field(f->def, F_BODY));
      topo_stmt(t, node_field(f->def, F_BODY));
    }
  } else if (!call || call->kind != K_CALL_EXPRESSION) {
    topo_find_prop(t, body);
    topo_stmt(t, body);
  } else {
    f = NULL;
    topo_no(t, "a call of something other than an element function");
  }
  if (!t->why && !t->prop)
    topo_no(t, "no MIN/MAX on a neighbour");
  return f;
}

/* The rule on phase s's body and its filter, into *t: a filter that
 * reads P only of the element (and nothing the loop writes) gives a
 * skipped point the answer it gave at its last visit. */
static void topo_phase(Ctx *c, LoopPlan *p, const Step *s, Topo *t, bool lvl)
{
  const Node *n = s->stmt;
  *t = (Topo){c, text_of(c, node_field(n, F_VARIABLE)), {0}, 0, NULL, 0, p, NULL, NULL, 0, lvl};
  const char *elem = t->elem;
  topo_body(c, t, n);
  const Node *filter = node_field(n, F_CONDITION);
  if (!t->why && filter) {
    t->elem = elem; /* the filter names the loop's variable */
    topo_pure(t, filter);
  }
}

/* P written only by phase s, through its MINs: no other step uses it. */
static void topo_only_phase(const LoopPlan *p, const Step *s, Topo *t)
{
  for (int i = 0; i < p->nsteps && !t->why; i++)
    for (int j = 0; j < p->steps[i].nacc; j++)
      if (&p->steps[i] != s && strcmp(p->steps[i].acc[j].name, t->prop) == 0)
        topo_no(t, "another step of the loop uses the MIN property");
}

/* The loop's one phase s: whether the rule holds (p->topo = P), else why
 * (p->twhy). */
static void topo_rule(Ctx *c, LoopPlan *p, const Step *s)
{
  const Node *n = s->stmt;
  Topo t;
  topo_phase(c, p, s, &t, false);
  if (!t.why && prop_written(p, t.prop))
    topo_only_phase(p, s, &t);
  /* a graph property (`G.changed[0]`, p->sgraph's) can only be a MIN's
   * flag or `x = c` here: topo_body refuses every other write */
  if (!t.why)
    for (int j = 0; j < s->nacc && !t.why; j++) {
      const Prop *pr = program_prop(c->prog, s->acc[j].name);
      if (s->acc[j].write && pr && pr->kind != PK_GRAPH && strcmp(s->acc[j].name, t.prop) != 0)
        topo_no(&t, "the phase writes another property");
    }
  if (t.why) {
    snprintf(p->twhy, sizeof p->twhy, "line %u: %s", n->loc.line, t.why);
    return;
  }
  p->topo = xstrdup(t.prop);
  p->topo_max = t.op == 2;
}

/* x.P for some point property P, x the parameter named `pn`: P, or NULL. */
static const char *param_prop(Ctx *c, const Node *n, const char *pn)
{
  n = node_unparen(n);
  if (!n || n->kind != K_FIELD_EXPRESSION)
    return NULL;
  const Node *x = node_unparen(node_field(n, F_ARGUMENT));
  const char *f = text_of(c, node_field(n, F_FIELD));
  const Prop *pr = f ? program_prop(c->prog, f) : NULL;
  if (!x || x->kind != K_IDENTIFIER || strcmp(text_of(c, x), pn) != 0 || !pr || pr->kind != PK_POINT)
    return NULL;
  return pr->name;
}

/* One statement of a merge function with parameters (orig, incom):
 * `if (orig.X > incom.X) orig.X = incom.X;` (or `incom.X < orig.X`)
 * gives 1 (MIN) and X; the same with < gives 2 (MAX); anything else 0. */
static int merge_stmt(Ctx *c, const Node *st, const char *const pn[2], const char **X)
{
  if (st->kind != K_IF_STATEMENT || node_field(st, F_ALTERNATIVE))
    return 0;
  const Node *cond = node_unparen(node_field(st, F_CONDITION));
  const Node *then = node_field(st, F_CONSEQUENCE);
  if (then && then->kind == K_COMPOUND_STATEMENT)
    then = node_named_count(then) == 1 ? node_named_child(then, 0) : NULL;
  const Node *e = then && then->kind == K_EXPRESSION_STATEMENT ? node_named_child(then, 0) : NULL;
  if (!e || e->kind != K_ASSIGNMENT_EXPRESSION || !node_text_is(c->src, node_field(e, F_OPERATOR), "=") ||
      !cond || !is_type(cond, "binary_expression"))
    return 0;
  const char *to = param_prop(c, node_field(e, F_LEFT), pn[0]);
  const char *from = param_prop(c, node_field(e, F_RIGHT), pn[1]);
  if (!to || !from || strcmp(to, from) != 0)
    return 0;
  const Node *o = node_field(cond, F_OPERATOR);
  const char *l0 = param_prop(c, node_field(cond, F_LEFT), pn[0]);
  const char *r1 = param_prop(c, node_field(cond, F_RIGHT), pn[1]);
  const char *l1 = param_prop(c, node_field(cond, F_LEFT), pn[1]);
  const char *r0 = param_prop(c, node_field(cond, F_RIGHT), pn[0]);
  bool orig_first = l0 && r1 && strcmp(l0, to) == 0 && strcmp(r1, to) == 0;
  bool incom_first = l1 && r0 && strcmp(l1, to) == 0 && strcmp(r0, to) == 0;
  if (!o || !(orig_first || incom_first))
    return 0;
  *X = to;
  /* orig.X > incom.X: take the smaller (MIN) */
  if (node_text_is(c->src, o, ">"))
    return orig_first ? 1 : 2;
  if (node_text_is(c->src, o, "<"))
    return orig_first ? 2 : 1;
  return 0;
}

/* Whether merge function m moves P only the way op (1 MIN, 2 MAX) does:
 * its body is statements of merge_stmt's forms, one of them P's with op,
 * or `orig.X = e;` (e without effects) for X other than P; and phase s
 * accesses none of the other statements' properties. */
static bool merge_is_minmax(Ctx *c, const FuncInfo *m, const Step *s, const char *P, int op)
{
  const Node *params = m && m->def ? function_params(m->def) : NULL;
  const Node *body = m && m->def ? node_field(m->def, F_BODY) : NULL;
  if (!params || node_named_count(params) != 2 || !body || body->kind != K_COMPOUND_STATEMENT)
    return false;
  const char *pn[2];
  for (int i = 0; i < 2; i++) {
    const Node *prm = node_named_child(params, i);
    const Node *d = prm ? declarator_name(node_field(prm, F_DECLARATOR)) : NULL;
    if (!d)
      return false;
    pn[i] = text_of(c, d);
  }
  bool found = false;
  for (const Node *st = body->child; st; st = st->next) {
    if (!st->named || st->kind == K_COMMENT)
      continue;
    const char *X = NULL;
    int o = merge_stmt(c, st, pn, &X);
    if (!o) {
      /* orig.X = e; for another X that the phase does not touch, e
       * without effects, leaves P alone */
      const Node *e = st->kind == K_EXPRESSION_STATEMENT ? node_named_child(st, 0) : NULL;
      X = e && e->kind == K_ASSIGNMENT_EXPRESSION &&
                  node_text_is(c->src, node_field(e, F_OPERATOR), "=")
              ? param_prop(c, node_field(e, F_LEFT), pn[0]) : NULL;
      if (!X || strcmp(X, P) == 0)
        return false;
      const Node *r = node_field(e, F_RIGHT);
      for (const Node *q = r; q; q = node_next(q, r, true))
        if (q->kind == K_ASSIGNMENT_EXPRESSION || q->kind == K_UPDATE_EXPRESSION ||
            q->kind == K_CALL_EXPRESSION || q->kind == K_REDUCTION_EXPRESSION)
          return false;
    } else if (strcmp(X, P) == 0) {
      if (o != op)
        return false;
      found = true;
      continue;
    }
    for (int j = 0; j < s->nacc; j++)
      if (strcmp(s->acc[j].name, X) == 0)
        return false;
  }
  return found;
}

/* A parts plan (CUDA) whose one phase is topology-driven: the topology
 * rule above on its body, a filter that reads only the element's P (and
 * values the loop does not write), and, since the exchange writes P too,
 * a program whose only updateFunction moves P the way the MINs do
 * (merge_is_minmax: a merged point's P and every ghost copy refreshed
 * from it never move back).  Writes of graph properties are MIN's flag
 * argument (the rule allows no other write).  Then a part may skip an own
 * point whose P equals the value it had when the part last visited it
 * (docs/optimiser.md "Loops that skip unchanged points"). */
static void parts_topo_rule(Ctx *c, LoopPlan *p)
{
  const Step *s = NULL;
  for (int i = 1; i < p->nsteps; i++)
    if (p->steps[i].kind == STEP_PHASE) {
      if (s) {
        snprintf(p->twhy, sizeof p->twhy, "line %u: more than one phase", p->steps[i].stmt->loc.line);
        return;
      }
      s = &p->steps[i];
    }
  if (!s)
    return;
  const Node *n = s->stmt;
  Topo t;
  topo_phase(c, p, s, &t, false);
  if (!t.why)
    topo_only_phase(p, s, &t);
  /* a call could partition the graph again, or write P through a pointer */
  for (int i = 0; i < p->nsteps && !t.why; i++)
    if (p->steps[i].kind != STEP_PHASE && p->steps[i].opaque)
      topo_no(&t, "a step of the loop calls a C function");
  for (int j = 0; j < s->nacc && !t.why; j++) {
    const Prop *pr = s->acc[j].write ? program_prop(c->prog, s->acc[j].name) : NULL;
    if (pr && pr->kind == PK_POINT && strcmp(s->acc[j].name, t.prop) != 0)
      topo_no(&t, "the phase writes another point property");
    else if (pr && pr->kind == PK_EDGE)
      topo_no(&t, "the phase writes an edge property");
  }
  const FuncInfo *m = NULL;
  int nm = 0;
  for (int i = 0; !t.why && i < c->prog->nfuncs; i++)
    if (c->prog->funcs[i].merge) {
      m = &c->prog->funcs[i];
      nm++;
    }
  if (!t.why && nm != 1)
    topo_no(&t, nm ? "more than one updateFunction" : "no updateFunction (a ghost's value is taken as it comes)");
  bool mm = t.why || merge_is_minmax(c, m, s, t.prop, t.op);
  if (t.why || !mm) {
    if (!mm)
      snprintf(p->twhy, sizeof p->twhy, "line %u: the updateFunction %s may move %s other than "
               "by `if (orig.%s %s incom.%s) orig.%s = incom.%s;`", m->def->loc.line, m->name,
               t.prop, t.prop, t.op == 1 ? ">" : "<", t.prop, t.prop, t.prop);
    else
      snprintf(p->twhy, sizeof p->twhy, "line %u: %s", n->loc.line, t.why);
    return;
  }
  p->topo = xstrdup(t.prop);
  p->topo_max = t.op == 2;
}

/* ---- Parts that run their own rounds (docs/optimiser.md "Cut edges
 * that write their owner") ---- */

static const Node *expr_of_stmt(const Node *st)
{
  return st && st->kind == K_EXPRESSION_STATEMENT ? node_unparen(node_named_child(st, 0)) : NULL;
}

static bool is_literal(Ctx *c, const Node *e, const char *text)
{
  e = node_unparen(e);
  return e && e->type && strcmp(e->type, "number_literal") == 0 && node_text_is(c->src, e, text);
}

/* e is G.F[0], F a graph property and G the identifier g (the
 * partitioned graph as this code names it); returns F, or NULL. */
static const char *flag_elem(Ctx *c, const Node *e, const char *g)
{
  e = node_unparen(e);
  if (!e || !g || e->kind != K_SUBSCRIPT_EXPRESSION || !is_literal(c, node_field(e, F_INDEX), "0"))
    return NULL;
  const Node *f = node_unparen(node_field(e, F_ARGUMENT));
  if (!f || f->kind != K_FIELD_EXPRESSION || !node_field(f, F_FIELD))
    return NULL;
  const Node *x = node_unparen(node_field(f, F_ARGUMENT));
  if (!x || x->kind != K_IDENTIFIER || !node_text_is(c->src, x, g))
    return NULL;
  const char *F = text_of(c, node_field(f, F_FIELD));
  const Prop *pr = program_prop(c->prog, F);
  return pr && pr->kind == PK_GRAPH ? F : NULL;
}

/* `if (G.F[0] == 0) break;` (or `!G.F[0]`, `0 == G.F[0]`), no else,
 * G the identifier g: F, or NULL. */
static const char *break_flag(Ctx *c, const Node *st, const char *g)
{
  if (!st || st->kind != K_IF_STATEMENT || node_field(st, F_ALTERNATIVE))
    return NULL;
  const Node *b = node_field(st, F_CONSEQUENCE);
  if (b && b->kind == K_COMPOUND_STATEMENT && node_named_count(b) == 1)
    b = node_named_child(b, 0);
  if (!b || b->kind != K_BREAK_STATEMENT)
    return NULL;
  const Node *e = node_unparen(node_field(st, F_CONDITION));
  if (!e || !e->type)
    return NULL;
  if (strcmp(e->type, "unary_expression") == 0 && node_text_is(c->src, node_field(e, F_OPERATOR), "!"))
    return flag_elem(c, node_field(e, F_ARGUMENT), g);
  if (strcmp(e->type, "binary_expression") != 0 || !node_text_is(c->src, node_field(e, F_OPERATOR), "=="))
    return NULL;
  const Node *l = node_field(e, F_LEFT), *r = node_field(e, F_RIGHT);
  return is_literal(c, r, "0") ? flag_elem(c, l, g) : is_literal(c, l, "0") ? flag_elem(c, r, g) : NULL;
}

/* `x++`, `++x`, `x += 1` (a number) and the like: x, or NULL. */
static const char *counter_of(Ctx *c, const Node *st)
{
  const Node *e = expr_of_stmt(st), *x = NULL;
  if (e && e->kind == K_UPDATE_EXPRESSION)
    x = node_unparen(node_field(e, F_ARGUMENT));
  else if (e && e->kind == K_ASSIGNMENT_EXPRESSION &&
           (node_text_is(c->src, node_field(e, F_OPERATOR), "+=") ||
            node_text_is(c->src, node_field(e, F_OPERATOR), "-=")) &&
           node_field(e, F_RIGHT) && node_unparen(node_field(e, F_RIGHT))->type &&
           strcmp(node_unparen(node_field(e, F_RIGHT))->type, "number_literal") == 0)
    x = node_unparen(node_field(e, F_LEFT));
  return x && x->kind == K_IDENTIFIER ? text_of(c, x) : NULL;
}

/* Identifier x anywhere in root but inside `skip`. */
static bool names_var(Ctx *c, const Node *root, const Node *skip, const char *x)
{
  for (const Node *q = root; q; q = node_next(q, root, true)) {
    if (q == skip) {
      const Node *nx = node_next(q, root, false);
      if (!nx)
        break;
      q = nx;
    }
    if (q->kind == K_IDENTIFIER && node_text_is(c->src, q, x))
      return true;
  }
  return false;
}

/* Every MIN/MAX on P in root is marked remote (plan_remote) and flags
 * G.F[0], G the identifier g (NULL: no MIN on P may be there). */
static const char *mins_flag(Ctx *c, const Node *root, const char *P, const char *F, const char *g)
{
  for (const Node *n = root; n; n = node_next(n, root, true)) {
    const Node *fn = n->kind == K_CALL_EXPRESSION ? node_field(n, F_FUNCTION) : NULL;
    if (!fn || !(node_text_is(c->src, fn, "MIN") || node_text_is(c->src, fn, "MAX")))
      continue;
    const Node *args = node_field(n, F_ARGUMENTS);
    const Node *a0 = node_unparen(node_named_child(args, 0));
    if (!a0 || a0->kind != K_FIELD_EXPRESSION || !node_text_is(c->src, node_field(a0, F_FIELD), P))
      continue;
    if (!n->remote)
      return "a MIN on the property whose type cannot go to another GPU";
    const char *f = flag_elem(c, node_named_child(args, 2), g);
    if (!f || strcmp(f, F) != 0)
      return "a MIN whose flag is not the one that ends the loop";
  }
  return NULL;
}

/* A parts plan with topo (parts_topo_rule) and steps between the
 * exchange's barriers (gp_early) may let each part run its own rounds
 * (p->own_rounds, flag p->own_flag) when the loop is, in any order of its
 * steps after the phase:
 *     while (1) {  X.F[0] = 0;  foreach (...) ...MIN(t.P, v, X.F[0])...;
 *                  if (X.F[0] == 0) break;  X.updatePartition();  n++; }
 * that is: its condition is a constant other than 0; the steps before the
 * phase set the flag to 0 (one at least); after it come one break when the flag is 0,
 * updatePartition (nothing, in the kernels) and counters (`n++`, `n += 2`)
 * that nothing else in the loop names; and every MIN of the phase on P
 * flags F[0] and may go to another part (plan_remote).  Such a loop ends
 * at the first round that changes nothing, and what it computes is the
 * fixpoint of its MINs; with parts that run their own rounds it ends when
 * no part changes anything and no MIN is on its way (falcon/cuda.cuh
 * fal_ra_round), at a fixpoint of the same MINs.  A counter counts part
 * 0's rounds (docs/language-choices.md, Partitions). */
/* The shape that parts_own_rule and parts_sync_rule share, the loop
 * with its one phase at steps[ph]:
 *     while (1) {  X.F[0] = 0;  foreach (...) ...;
 *                  if (X.F[0] == 0) break;  X.updatePartition();  n++; }
 * its condition a constant other than 0; the steps before the phase set
 * the flag to 0 (one at least); after it come one break when the flag is
 * 0, updatePartition (nothing, in the kernels) and counters (`n++`,
 * `n += 2`), which nothing else in the loop names unless `read` (each
 * thread of a kernel keeps its copy, so a counter has one value a round
 * in every thread of every part).  Returns why not, or NULL and *Fp = F. */
static const char *flag_loop_shape(Ctx *c, const LoopPlan *p, int ph, bool read, const char **Fp)
{
  const char *why = NULL, *F = NULL;
  int nbrk = 0, nzero = 0;
  const Node *cond = node_unparen(p->steps[0].stmt);
  if (!cond || !cond->type ||
      !((strcmp(cond->type, "number_literal") == 0 && !is_literal(c, cond, "0")) ||
        strcmp(cond->type, "true") == 0))
    return "the loop's condition is not a constant";
  for (int i = ph + 1; i < p->nsteps; i++) { /* the flag, from the break */
    const char *f = break_flag(c, p->steps[i].stmt, p->graph);
    if (f) {
      F = f;
      nbrk++;
    }
  }
  if (nbrk != 1)
    return "no one `if (G.F[0] == 0) break;` after the phase";
  for (int i = 1; i < p->nsteps && !why; i++) {
    const Step *s = &p->steps[i];
    const Node *st = s->stmt, *e = expr_of_stmt(st);
    if (s->kind == STEP_PHASE)
      continue;
    if (i < ph) {
      const char *f = e && e->kind == K_ASSIGNMENT_EXPRESSION &&
                              node_text_is(c->src, node_field(e, F_OPERATOR), "=") &&
                              is_literal(c, node_field(e, F_RIGHT), "0")
                          ? flag_elem(c, node_field(e, F_LEFT), p->graph) : NULL;
      if (!f || strcmp(f, F) != 0)
        why = "a step before the phase does more than set the flag to 0";
      nzero++;
      continue;
    }
    if (break_flag(c, st, p->graph))
      continue;
    if (e && e->kind == K_CALL_EXPRESSION) {
      const Node *fn = node_unparen(node_field(e, F_FUNCTION));
      if (fn && fn->kind == K_FIELD_EXPRESSION &&
          node_text_is(c->src, node_field(fn, F_FIELD), "updatePartition") &&
          node_named_count(node_field(e, F_ARGUMENTS)) == 0)
        continue;
    }
    const char *x = counter_of(c, st);
    if (!x)
      why = "a step after the phase is not a break on the flag, updatePartition or a counter";
    else if (!read && (names_var(c, node_field(p->loop, F_BODY), st, x) ||
                       names_var(c, p->steps[0].stmt, NULL, x)))
      why = "a counter that the loop reads";
  }
  if (!why && !nzero) /* else the flag, once set, stays set: the loop never ends */
    why = "no step before the phase sets the flag to 0";
  if (!why)
    *Fp = F;
  return why;
}

/* Every MIN/MAX on P in phase steps[ph] (and the element functions it
 * calls, where the partitioned graph is the parameter it is passed to)
 * is marked remote and flags F[0]: NULL, else why not. */
static const char *phase_mins_flag(Ctx *c, const LoopPlan *p, int ph, const char *P, const char *F)
{
  const Node *n = p->steps[ph].stmt, *body = node_field(n, F_BODY);
  const char *why = mins_flag(c, body, P, F, p->graph);
  for (const Node *q = body; q && !why; q = node_next(q, body, true)) {
    const Node *fn = q->kind == K_CALL_EXPRESSION ? node_field(q, F_FUNCTION) : NULL;
    const FuncInfo *f = fn && fn->kind == K_IDENTIFIER ? program_func(c->prog, text_of(c, fn)) : NULL;
    if (!f || !f->def)
      continue;
    const Node *args = node_field(q, F_ARGUMENTS), *pg = NULL;
    for (const Node *a = args ? args->child : NULL; a && !pg; a = a->next)
      if (a->named && a->kind == K_IDENTIFIER && node_text_is(c->src, a, p->graph))
        pg = param_for(f, args, a);
    why = mins_flag(c, node_field(f->def, F_BODY), P, F, pg ? text_of(c, pg) : NULL);
  }
  return why;
}

/* A parts plan with topo (parts_topo_rule) and steps between the
 * exchange's barriers (gp_early) may let each part run its own rounds
 * (p->own_rounds, flag p->own_flag) when the loop has flag_loop_shape
 * (counters that nothing reads) and every MIN of the phase on P flags
 * F[0] and may go to another part (plan_remote).  Such a loop ends at the
 * first round that changes nothing, and what it computes is the fixpoint
 * of its MINs; with parts that run their own rounds it ends when no part
 * changes anything and no MIN is on its way (falcon/cuda.cuh
 * fal_ra_round), at a fixpoint of the same MINs.  A counter counts part
 * 0's rounds (docs/language-choices.md, Partitions). */
static void parts_own_rule(Ctx *c, LoopPlan *p)
{
  const char *why = NULL, *F = NULL;
  int ph = 0;
  for (int i = 1; i < p->nsteps; i++)
    if (p->steps[i].kind == STEP_PHASE)
      ph = i;
  if (!p->topo || !p->gp_early || !ph)
    why = "not a topology-driven loop with its steps between the exchange's barriers";
  if (!why)
    why = flag_loop_shape(c, p, ph, false, &F);
  if (!why)
    why = phase_mins_flag(c, p, ph, p->topo, F);
  if (why) {
    snprintf(p->owhy, sizeof p->owhy, "%s", why);
    return;
  }
  p->own_rounds = true;
  p->own_flag = xstrdup(F);
}

/* MIN/MAX on P under root whose flag is not F[0] of graph g (NULL: any
 * graph): NULL, else why.  mins_flag without its GPU condition, for host
 * ranks, whose MINs stay in the rank. */
static const char *host_mins_flag(Ctx *c, const Node *root, const char *P, const char *F,
                                  const char *g)
{
  for (const Node *n = root; n; n = node_next(n, root, true)) {
    const Node *fn = n->kind == K_CALL_EXPRESSION ? node_field(n, F_FUNCTION) : NULL;
    if (!fn || !(node_text_is(c->src, fn, "MIN") || node_text_is(c->src, fn, "MAX")))
      continue;
    const Node *args = node_field(n, F_ARGUMENTS);
    const Node *a0 = node_unparen(node_named_child(args, 0));
    if (!a0 || a0->kind != K_FIELD_EXPRESSION || !node_text_is(c->src, node_field(a0, F_FIELD), P))
      continue;
    const char *f = flag_elem(c, node_named_child(args, 2), g);
    if (!f || strcmp(f, F) != 0)
      return "a MIN whose flag is not the one that ends the loop";
  }
  return NULL;
}

/* A C type of an integer (words of int, char, short, long, signed and
 * unsigned, or <stdint.h>'s int and uint types, size_t): its values
 * converted to double are never NaN. */
static bool ctype_integral(const char *t)
{
  static const char *const fixed[] = {"int8_t", "int16_t", "int32_t", "int64_t", "uint8_t",
                                      "uint16_t", "uint32_t", "uint64_t", "size_t", "intptr_t",
                                      "uintptr_t", "ptrdiff_t", "fal_point"};
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
    if (strcmp(t, fixed[i]) == 0)
      return true;
  static const char *const words[] = {"int", "char", "short", "long", "signed", "unsigned"};
  bool any = false;
  for (const char *s = t; *s;) {
    while (*s == ' ')
      s++;
    size_t n = strcspn(s, " ");
    if (!n)
      break;
    bool known = false;
    for (size_t i = 0; i < sizeof words / sizeof *words && !known; i++)
      known = strlen(words[i]) == n && strncmp(s, words[i], n) == 0;
    if (!known)
      return false;
    any = true;
    s += n;
  }
  return any;
}

/* --mpi, host ranks (docs/lowering.md "Ranks that share a window"): a
 * topology-driven loop (parts_topo_rule) of flag_loop_shape (counters
 * that nothing reads) whose every MIN/MAX on P, in the phase and the
 * element functions it calls, flags F[0] ends at the first round that
 * changes nothing and computes the fixpoint of its MINs (as
 * parts_own_rule's loops), so a rank may leave part of its heap to later
 * rounds (p->rank_window), else p->wwhy. */
static void rank_window_rule(Ctx *c, LoopPlan *p)
{
  const char *why = NULL, *F = NULL;
  int ph = 0;
  for (int i = 1; i < p->nsteps; i++)
    if (p->steps[i].kind == STEP_PHASE)
      ph = i;
  if (!p->topo || !ph)
    why = "not a topology-driven loop";
  if (!why)
    why = flag_loop_shape(c, p, ph, false, &F);
  const Node *body = why ? NULL : node_field(p->steps[ph].stmt, F_BODY);
  if (!why)
    why = host_mins_flag(c, body, p->topo, F, p->graph);
  for (const Node *q = body; q && !why; q = node_next(q, body, true)) {
    const Node *fn = q->kind == K_CALL_EXPRESSION ? node_field(q, F_FUNCTION) : NULL;
    const FuncInfo *f = fn && fn->kind == K_IDENTIFIER ? program_func(c->prog, text_of(c, fn)) : NULL;
    if (!f || !f->def)
      continue;
    const Node *args = node_field(q, F_ARGUMENTS), *pg = NULL;
    for (const Node *a = args ? args->child : NULL; a && !pg; a = a->next)
      if (a->named && a->kind == K_IDENTIFIER && node_text_is(c->src, a, p->graph))
        pg = param_for(f, args, a);
    why = host_mins_flag(c, node_field(f->def, F_BODY), p->topo, F, pg ? text_of(c, pg) : NULL);
  }
  if (why) {
    snprintf(p->wwhy, sizeof p->wwhy, "%s", why);
    return;
  }
  p->rank_window = true;
  const Prop *pr = program_prop(c->prog, p->topo);
  if (ctype_integral(pr && pr->ctype ? pr->ctype : "int"))
    p->wflag = xstrdup(F);
}

/* ---- Level-synchronous loops over parts (docs/optimiser.md
 * "Level-synchronous loops over parts") ----
 *
 * A parts plan (CUDA; under --mpi, emit_mpi_loop's kernels) that is not topology-driven, with steps
 * between the exchange's barriers (gp_early), of flag_loop_shape (its
 * counters may be read: `lev++` and a phase that reads lev), whose one
 * phase is the topology rule's kind of body (MIN/MAX on out-neighbours'
 * P, flags, pure values) except that its values and filters may read the
 * counters and P of any point (Topo.lvl: BFS's `(t.level == lev)` and
 * `(n.level == INF)`), and that writes only P (by MIN/MAX, each flagging
 * F[0] and marked remote) and F; the program's one updateFunction moves P
 * the same way (merge_is_minmax).  Then the round's exchange has nothing
 * to do if every MIN goes to the point's owner and to every part that
 * holds it as a ghost, at once (fal_ra_mm with hold): the owner's value is
 * the merge's (the MIN is the merge), every ghost its owner's when the
 * round ends (all copies took the same MINs), and a part reads during a
 * round values of its own points that other parts' MINs of the round
 * lowered, as one part's kernel reads its own threads' (§4.1).  The
 * flag is each part's, set when its copy fell; each copy starts the round
 * equal to the owner's, so F[0] summed over the parts is set exactly when
 * some point's value fell in the round, as with the exchange.  What is
 * left is one barrier a round that combines the flags, and the flag's
 * zeroing moves into it (fal_rs_round). */
static void parts_sync_rule(Ctx *c, LoopPlan *p)
{
  const char *why = NULL, *F = NULL;
  int ph = 0, nph = 0;
  for (int i = 1; i < p->nsteps; i++)
    if (p->steps[i].kind == STEP_PHASE) {
      ph = i;
      nph++;
    }
  if (p->topo || !c->gpu)
    return; /* the topology rule's forms; the kernels per part are CUDA's */
  if (!p->gp_early)
    why = "steps between phases that need a barrier of their own";
  else if (nph != 1)
    why = "not one phase";
  if (!why)
    why = flag_loop_shape(c, p, ph, true, &F);
  Topo t = {0};
  const Step *s = &p->steps[ph];
  if (!why) {
    topo_phase(c, p, s, &t, true);
    if (!t.why)
      topo_only_phase(p, s, &t);
    why = t.why;
  }
  for (int j = 0; !why && j < s->nacc; j++)
    if (s->acc[j].write && strcmp(s->acc[j].name, t.prop) != 0 && strcmp(s->acc[j].name, F) != 0)
      why = "the phase writes something other than the MIN property and the flag";
  for (int j = 0; !why && j < s->nhvar; j++)
    if (s->hmode[j] & 2)
      why = "the phase writes a variable";
  const FuncInfo *m = NULL;
  int nm = 0;
  for (int i = 0; !why && i < c->prog->nfuncs; i++)
    if (c->prog->funcs[i].merge) {
      m = &c->prog->funcs[i];
      nm++;
    }
  if (!why && nm != 1)
    why = nm ? "more than one updateFunction" : "no updateFunction";
  if (!why && !merge_is_minmax(c, m, s, t.prop, t.op))
    why = "the updateFunction may move the MIN property other than the MINs do";
  if (!why)
    why = phase_mins_flag(c, p, ph, t.prop, F);
  if (why) {
    snprintf(p->swhy, sizeof p->swhy, "%s", why);
    return;
  }
  p->sync_P = xstrdup(t.prop);
  p->sync_flag = xstrdup(F);
  p->sync_max = t.op == 2;
}

/* ---- MIN/MAX that load first on the GPU (docs/optimiser.md "MIN and MAX
 * that read first") ---- */

/* The node naming what an lvalue writes: x, (x), x[i], *x -> x; a.x,
 * a->x -> x (a property or field of that name, whatever holds it). */
static const Node *lvalue_node(const Node *e)
{
  for (int k = 0; e && k < 64; k++) {
    e = node_unparen(e);
    if (!e)
      return NULL;
    if (e->kind == K_IDENTIFIER)
      return e;
    if (e->kind == K_FIELD_EXPRESSION)
      return node_field(e, F_FIELD);
    if (e->kind != K_SUBSCRIPT_EXPRESSION && e->kind != K_POINTER_EXPRESSION)
      return NULL;
    e = node_field(e, F_ARGUMENT);
  }
  return NULL;
}

static bool is_atomic_call(Ctx *c, const Node *fn)
{
  static const char *const names[] = {"MIN", "MAX", "ADD", "SUB", "INCR", "DECR",
                                      "AND", "OR", "XOR", "CAS", NULL};
  for (int i = 0; names[i]; i++)
    if (node_text_is(c->src, fn, names[i]))
      return true;
  return false;
}

/* The functions loop_writes has walked for one question: each is walked
 * once, so the work is bounded by the program's size. */
typedef struct Walked {
  const FuncInfo *f[64];
  int n;
} Walked;

static bool writes_in(Ctx *c, const Node *root, const char *name, bool minmax, Walked *wk)
{
  for (const Node *n = root; n; n = node_next(n, root, true)) {
    const Node *w = NULL, *w2 = NULL;
    if (n->kind == K_ASSIGNMENT_EXPRESSION || n->kind == K_REDUCTION_EXPRESSION) {
      w = lvalue_node(node_field(n, F_LEFT));
    } else if (n->kind == K_UPDATE_EXPRESSION) {
      w = lvalue_node(node_field(n, F_ARGUMENT));
    } else if (n->kind == K_POINTER_EXPRESSION) {
      if (node_text_is(c->src, node_field(n, F_OPERATOR), "&"))
        w = lvalue_node(node_field(n, F_ARGUMENT));
    } else if (n->kind == K_CALL_EXPRESSION) {
      const Node *fn = node_field(n, F_FUNCTION);
      const Node *args = node_field(n, F_ARGUMENTS);
      if (!fn || fn->kind != K_IDENTIFIER || !args)
        continue;
      if (is_atomic_call(c, fn)) {
        bool mm = node_text_is(c->src, fn, "MIN") || node_text_is(c->src, fn, "MAX");
        if (!mm || minmax)
          w = lvalue_node(node_named_child(args, 0));
        if (mm)
          w2 = lvalue_node(node_named_child(args, 2));
      } else {
        /* the callee by name, without allocating (this walk runs once
         * per identifier a rule asks about) */
        size_t len;
        const char *t = node_text(c->src, fn, &len);
        char buf[256];
        if (len >= sizeof buf)
          return true; /* no function has such a name: say written */
        memcpy(buf, t, len);
        buf[len] = 0;
        const FuncInfo *f = program_func(c->prog, buf);
        bool seen = false;
        for (int i = 0; f && i < wk->n && !seen; i++)
          seen = wk->f[i] == f;
        if (f && f->def && !seen) {
          if (wk->n == 64)
            return true; /* too many to follow: say written */
          wk->f[wk->n++] = f;
          if (writes_in(c, node_field(f->def, F_BODY), name, minmax, wk))
            return true;
        }
      }
    }
    if ((w && node_text_is(c->src, w, name)) || (w2 && node_text_is(c->src, w2, name)))
      return true;
  }
  return false;
}

/* Whether the text of root, or of a function it calls (at any depth; up
 * to 64 functions, more count as a write), writes `name`: an assignment,
 * ++/--, a reduction, &name, an atomic's target (MIN/MAX targets only
 * with `minmax`) or MIN/MAX's flag. */
static bool loop_writes(Ctx *c, const Node *root, const char *name, bool minmax)
{
  Walked wk = {{0}, 0};
  return writes_in(c, root, name, minmax, &wk);
}

/* The host loop (for, while, do) that directly holds foreach n, or NULL
 * (n inside another foreach or a parallel section, or in no loop of its
 * function). */
static const Node *host_loop_of(const Node *n)
{
  for (const Node *q = n->parent; q; q = q->parent) {
    if (q->kind == K_LOOP_STATEMENT)
      return q;
    if (q->kind == K_FOREACH_STATEMENT || q->kind == K_FUNCTION_DEFINITION ||
        q->kind == K_PARALLEL_SECTIONS_STATEMENT || q->kind == K_SINGLE_STATEMENT)
      return NULL;
  }
  return NULL;
}

static void mark_read_first(Ctx *c, Node *root)
{
  for (Node *n = root; n; n = node_next(n, root, true))
    if (n->kind == K_CALL_EXPRESSION) {
      const Node *fn = node_field(n, F_FUNCTION);
      if (fn && (node_text_is(c->src, fn, "MIN") || node_text_is(c->src, fn, "MAX")))
        n->read_first = true;
    }
}

/* plan_remote: the MIN/MAX calls in root whose first argument is X.P,
 * P a point property of an integer or floating type of 4 or 8 bytes. */
static void mark_remote(Ctx *c, Node *root)
{
  static const char *const types[] = {"int", "unsigned", "unsigned int", "long", "long long",
                                      "unsigned long", "unsigned long long", "float",
                                      "double", NULL};
  for (Node *n = root; n; n = node_next(n, root, true)) {
    if (n->kind != K_CALL_EXPRESSION)
      continue;
    const Node *fn = node_field(n, F_FUNCTION);
    if (!fn || !(node_text_is(c->src, fn, "MIN") || node_text_is(c->src, fn, "MAX")))
      continue;
    const Node *a0 = node_unparen(node_named_child(node_field(n, F_ARGUMENTS), 0));
    if (!a0 || a0->kind != K_FIELD_EXPRESSION || !node_field(a0, F_FIELD))
      continue;
    const Prop *pr = program_prop(c->prog, text_of(c, node_field(a0, F_FIELD)));
    bool ok = false;
    for (int i = 0; pr && pr->kind == PK_POINT && pr->ctype && types[i] && !ok; i++)
      ok = strcmp(pr->ctype, types[i]) == 0;
    n->remote = ok;
  }
}

void plan_remote(Ctx *c, const Node *root)
{
  for (const Node *n = root; n; n = node_next(n, root, true)) {
    if (n->kind != K_FOREACH_STATEMENT)
      continue;
    const Node *it = node_field(n, F_ITERABLE);
    const Node *g = it && it->kind == K_FIELD_EXPRESSION ? node_field(it, F_ARGUMENT) : NULL;
    if (!g || g->kind != K_IDENTIFIER || node_field(n, F_OFFSET) ||
        !node_text_is(c->src, node_field(it, F_FIELD), "points") ||
        !program_parted(c->prog, text_of(c, g)))
      continue;
    Node *body = (Node *)node_field(n, F_BODY);
    mark_remote(c, body);
    for (const Node *q = body; q; q = node_next(q, body, true)) {
      const Node *fn = q->kind == K_CALL_EXPRESSION ? node_field(q, F_FUNCTION) : NULL;
      const FuncInfo *f = fn && fn->kind == K_IDENTIFIER ? program_func(c->prog, text_of(c, fn)) : NULL;
      if (f && f->def && !f->merge)
        mark_remote(c, (Node *)node_field(f->def, F_BODY));
    }
  }
}

/* Calls of function `name` anywhere in root. */
static int count_calls(Ctx *c, const Node *root, const char *name)
{
  int k = 0;
  for (const Node *n = root; n; n = node_next(n, root, true))
    if (n->kind == K_CALL_EXPRESSION) {
      const Node *fn = node_field(n, F_FUNCTION);
      k += fn && fn->kind == K_IDENTIFIER && node_text_is(c->src, fn, name);
    }
  return k;
}

/* The rule (docs/optimiser.md "MIN and MAX that read first"): a MIN/MAX
 * loads first on the GPU when it is in a sweep, a foreach over points in
 * a host loop whose elements, when their P did not change, only repeat
 * MINs that fail (the topology-driven rule, plus a filter as pure), and
 * whose every caller, for an element function, is such a sweep. */
void plan_read_first(Ctx *c, const Node *root)
{
  enum { MAXC = 256 };
  struct {
    const Node *at;
    const FuncInfo *f;
    const char *prop, *why;
  } cand[MAXC];
  int ncand = 0;
  for (const Node *n = root; n && ncand < MAXC; n = node_next(n, root, true)) {
    if (n->kind != K_FOREACH_STATEMENT)
      continue;
    const Node *it = node_field(n, F_ITERABLE);
    if (!it || it->kind != K_FIELD_EXPRESSION || node_field(n, F_OFFSET) ||
        !node_text_is(c->src, node_field(it, F_FIELD), "points"))
      continue;
    const Node *loop = host_loop_of(n);
    if (!loop || !node_field(n, F_VARIABLE))
      continue;
    const char *var = text_of(c, node_field(n, F_VARIABLE));
    Topo t = {c, var, {0}, 0, NULL, 0, NULL, loop, NULL, 0, false};
    const FuncInfo *f = topo_body(c, &t, n);
    if (!t.prop) /* refused before it looked for P: find it for --explain */
      topo_find_prop(&t, f ? node_field(f->def, F_BODY) : node_field(n, F_BODY));
    if (!t.prop)
      continue; /* no MIN/MAX on a point property: nothing to choose */
    if (!t.why && node_field(n, F_CONDITION)) {
      t.elem = var;
      t.nnbr = 0;
      topo_pure(&t, node_field(n, F_CONDITION));
    }
    if (!t.why && loop_writes(c, loop, t.prop, false))
      topo_no(&t, "the MIN property is assigned in the loop");
    cand[ncand].at = n;
    cand[ncand].f = f;
    cand[ncand].prop = t.prop;
    cand[ncand++].why = t.why;
  }
  for (int i = 0; i < ncand; i++) {
    if (cand[i].why)
      continue;
    if (!cand[i].f) {
      mark_read_first(c, node_field(cand[i].at, F_BODY));
      continue;
    }
    int sweeps = 0;
    for (int j = 0; j < ncand; j++)
      sweeps += cand[j].f == cand[i].f && !cand[j].why;
    if (count_calls(c, root, cand[i].f->name) == sweeps)
      mark_read_first(c, (Node *)node_field(cand[i].f->def, F_BODY));
    else
      cand[i].why = "the element function is called elsewhere too";
  }
  for (int i = 0; c->opt->explain && i < ncand; i++) {
    const Node *n = cand[i].at;
    if (cand[i].why)
      fprintf(stderr, "%s:%u: foreach: MIN/MAX on '%s' atomic (not a sweep: %s)\n",
              c->src->path, n->loc.line, cand[i].prop, cand[i].why);
    else
      fprintf(stderr, "%s:%u: foreach: MIN/MAX on '%s' load first (a sweep)\n", c->src->path,
              n->loc.line, cand[i].prop);
  }
}

/* ---- level-synchronous loops (docs/lowering.md "Level-synchronous loops") ---- */

/* `X + 1` with X the identifier `v`. */
static bool is_plus_one(Ctx *c, const Node *e, const char *v)
{
  e = node_unparen(e);
  if (!e || !is_type(e, "binary_expression") || !node_text_is(c->src, node_field(e, F_OPERATOR), "+"))
    return false;
  const Node *l = node_unparen(node_field(e, F_LEFT)), *r = node_unparen(node_field(e, F_RIGHT));
  return l && l->kind == K_IDENTIFIER && strcmp(text_of(c, l), v) == 0 && r &&
         is_type(r, "number_literal") && node_text_is(c->src, r, "1");
}

/* n.P with n the variable of an enclosing foreach over elem.outnbrs
 * (inside `root`). */
static bool nbr_target(Ctx *c, const Node *t, const char *elem, const Node *root)
{
  t = node_unparen(t);
  if (!t || t->kind != K_FIELD_EXPRESSION)
    return false;
  const Node *a = node_unparen(node_field(t, F_ARGUMENT));
  if (!a || a->kind != K_IDENTIFIER)
    return false;
  for (const Node *q = t->parent; q && q != root->parent; q = q->parent) {
    if (q->kind != K_FOREACH_STATEMENT)
      continue;
    const Node *it = node_field(q, F_ITERABLE);
    const Node *o = it && it->kind == K_FIELD_EXPRESSION ? node_unparen(node_field(it, F_ARGUMENT)) : NULL;
    if (node_text_is(c->src, node_field(q, F_VARIABLE), text_of(c, a)))
      return o && o->kind == K_IDENTIFIER && strcmp(text_of(c, o), elem) == 0 &&
             node_text_is(c->src, node_field(it, F_FIELD), "outnbrs") && !node_field(q, F_OFFSET);
  }
  return false;
}

/* Every write of P in `body` (elem: the element's name there, x: the name
 * of the round's value) is MIN(n.P, x + 1[, flag]) or n.P = x + 1 with n
 * an out-neighbour of the element; no call of another user function. */
static const char *level_writes(Ctx *c, const Node *body, const char *P, const char *elem,
                                const char *x)
{
  for (const Node *n = body; n; n = node_next(n, body, true)) {
    if (n->kind == K_CALL_EXPRESSION) {
      const Node *fn = node_field(n, F_FUNCTION);
      bool mm = fn && (node_text_is(c->src, fn, "MIN") || node_text_is(c->src, fn, "MAX"));
      if (!mm) {
        FuncInfo *f = fn && fn->kind == K_IDENTIFIER ? program_func(c->prog, text_of(c, fn)) : NULL;
        if (f && f->def)
          return "a call of another function";
        continue;
      }
      const Node *args = node_field(n, F_ARGUMENTS);
      const Node *t = args ? node_unparen(node_named_child(args, 0)) : NULL;
      if (!t || t->kind != K_FIELD_EXPRESSION || !node_text_is(c->src, node_field(t, F_FIELD), P))
        continue;
      if (!node_text_is(c->src, fn, "MIN") || !nbr_target(c, t, elem, body) ||
          !is_plus_one(c, node_named_child(args, 1), x))
        return "the level is written other than by MIN(n.level, lev + 1) on an out-neighbour";
    } else if (n->kind == K_ASSIGNMENT_EXPRESSION || n->kind == K_UPDATE_EXPRESSION) {
      const Node *t = node_unparen(node_field(n, n->kind == K_UPDATE_EXPRESSION ? F_ARGUMENT : F_LEFT));
      if (!t || t->kind != K_FIELD_EXPRESSION || !node_text_is(c->src, node_field(t, F_FIELD), P))
        continue;
      if (n->kind != K_ASSIGNMENT_EXPRESSION || !node_text_is(c->src, node_field(n, F_OPERATOR), "=") ||
          !nbr_target(c, t, elem, body) || !is_plus_one(c, node_field(n, F_RIGHT), x))
        return "the level is written other than by MIN(n.level, lev + 1) on an out-neighbour";
    } else if (n->kind == K_POINTER_EXPRESSION) {
      return "an address is taken";
    }
  }
  return NULL;
}

/* The rule, for the loop's one phase s with filter (t.P == v): v is a
 * host variable that exactly one scalar step of the loop changes, by
 * `v++` (or ++v, v += 1, v = v + 1); the phase's body (or the element
 * function it calls, one level, the element and v passed as arguments)
 * writes P only as MIN(n.P, v + 1[, flag]) or n.P = v + 1 with n an
 * out-neighbour of the element; no other step touches P.  Then a point
 * matches the filter of the next round (P == v + 1) only if this round
 * set it (its P was lowered to v + 1: it is an out-neighbour of an element
 * that ran) or its P had that value when the loop started (checked at run
 * time: a round whose v reaches the smallest starting value above the
 * first round's scans all points). */
static void pull_rule(Ctx *c, LoopPlan *p, const Step *s, const FuncInfo *f, const char *elem,
                      const char *x);

/* Whether step q writes variable `name` (CPU: an access; CUDA: a host
 * variable, which the walk keeps apart, plan.c host_use). */
static bool step_writes(const Step *q, const char *name)
{
  for (int j = 0; j < q->nacc; j++)
    if (q->acc[j].write && strcmp(q->acc[j].name, name) == 0)
      return true;
  for (int j = 0; j < q->nhvar; j++)
    if ((q->hmode[j] & 2) && strcmp(q->hvar[j], name) == 0)
      return true;
  return false;
}

static void level_rule(Ctx *c, LoopPlan *p, const Step *s)
{
  const Node *n = s->stmt;
  const char *var = text_of(c, node_field(n, F_VARIABLE));
  const Node *cond = node_unparen(node_field(n, F_CONDITION));
  const char *why = NULL, *P = NULL, *v = NULL;
  if (!cond || !is_type(cond, "binary_expression") ||
      !node_text_is(c->src, node_field(cond, F_OPERATOR), "=="))
    return;
  const Node *l = node_unparen(node_field(cond, F_LEFT)), *r = node_unparen(node_field(cond, F_RIGHT));
  if ((P = own_flag(c, l, var)) && r && r->kind == K_IDENTIFIER)
    v = text_of(c, r);
  else if ((P = own_flag(c, r, var)) && l && l->kind == K_IDENTIFIER)
    v = text_of(c, l);
  if (!P || !v || program_prop(c->prog, v))
    return; /* not the (t.P == v) shape: nothing to say */
  const Prop *pr = program_prop(c->prog, P);
  if (!pr || !pr->ctype || strstr(pr->ctype, "float") || strstr(pr->ctype, "double") ||
      strstr(pr->ctype, "struct"))
    why = "the level is not an integer";
  /* v: one step writes it, by one. */
  int writers = 0;
  for (int i = 0; i < p->nsteps && !why; i++) {
    const Step *q = &p->steps[i];
    for (int j = 0; j < q->nacc; j++)
      if (strcmp(q->acc[j].name, P) == 0 && q != s)
        why = "another step of the loop uses the level";
    if (!why && step_writes(q, v)) {
      writers++;
      const Node *e = q->kind == STEP_SCALAR && q->stmt->kind == K_EXPRESSION_STATEMENT
                          ? node_unparen(node_named_child(q->stmt, 0)) : NULL;
      bool inc = false;
      if (e && e->kind == K_UPDATE_EXPRESSION)
        inc = node_text_is(c->src, node_field(e, F_OPERATOR), "++");
      else if (e && e->kind == K_ASSIGNMENT_EXPRESSION) {
        const Node *r1 = node_unparen(node_field(e, F_RIGHT));
        inc = (node_text_is(c->src, node_field(e, F_OPERATOR), "+=") && r1 &&
               is_type(r1, "number_literal") && node_text_is(c->src, r1, "1")) ||
              (node_text_is(c->src, node_field(e, F_OPERATOR), "=") && is_plus_one(c, r1, v));
      }
      if (!inc)
        why = "the round's value is changed other than by one increment";
    }
  }
  if (!why && writers != 1)
    why = "the round's value is not incremented exactly once a round";
  /* The body, or the element function it calls. */
  const Node *body = node_field(n, F_BODY);
  const Node *call = body && body->kind == K_EXPRESSION_STATEMENT ? node_unparen(node_named_child(body, 0)) : NULL;
  FuncInfo *f = NULL;
  if (call && call->kind == K_CALL_EXPRESSION) {
    const Node *fn = node_field(call, F_FUNCTION);
    f = fn && fn->kind == K_IDENTIFIER ? program_func(c->prog, text_of(c, fn)) : NULL;
  }
  const char *elem = var, *x = v; /* the element's and v's names in the body */
  if (!why && f && f->def) {
    const Node *args = node_field(call, F_ARGUMENTS);
    elem = x = NULL;
    for (const Node *a = args ? args->child : NULL; a; a = a->next) {
      if (!a->named || a->kind == K_COMMENT)
        continue;
      const Node *pa = param_for(f, args, a), *ua = node_unparen(a);
      if (pa && ua->kind == K_IDENTIFIER && strcmp(text_of(c, ua), var) == 0)
        elem = text_of(c, pa);
      if (pa && ua->kind == K_IDENTIFIER && strcmp(text_of(c, ua), v) == 0)
        x = text_of(c, pa);
    }
    if (!elem || !x)
      why = "the element or the round's value is not passed to the function";
    else
      why = level_writes(c, node_field(f->def, F_BODY), P, elem, x);
  } else if (!why) {
    why = level_writes(c, body, P, var, v);
  }
  if (!why) {
    bool any = false;
    for (int j = 0; j < s->nacc; j++)
      any |= s->acc[j].write && strcmp(s->acc[j].name, P) == 0;
    if (!any)
      why = "the phase does not set the level";
  }
  if (why) {
    snprintf(p->lwhy, sizeof p->lwhy, "line %u: %s", n->loc.line, why);
    return;
  }
  p->level = xstrdup(P);
  p->lev = xstrdup(v);
  pull_rule(c, p, s, f && f->def ? f : NULL, elem, x);
}

/* ---- pull rounds (docs/lowering.md "Pull rounds") ---- */

/* The one statement of `n`, looking through braces that hold only it
 * (comments aside); NULL for braces with none or more. */
static const Node *only_stmt(const Node *n)
{
  while (n && n->kind == K_COMPOUND_STATEMENT) {
    const Node *one = NULL;
    for (const Node *q = n->child; q; q = q->next) {
      if (!q->named || q->kind == K_COMMENT)
        continue;
      if (one)
        return NULL;
      one = q;
    }
    n = one;
  }
  return n;
}

/* Whether the function around `at` declares `name` (a parameter or a
 * local). */
static bool declared_around(Ctx *c, const Node *at, const char *name)
{
  const Node *fn = at;
  while (fn && fn->kind != K_FUNCTION_DEFINITION)
    fn = fn->parent;
  for (const Node *n = fn; n; n = node_next(n, fn, true)) {
    const Node *d = n->parent;
    if (n->kind != K_IDENTIFIER || strcmp(text_of(c, n), name) != 0 || !d)
      continue;
    if ((is_type(d, "init_declarator") && node_field(d, F_DECLARATOR) == n) ||
        is_type(d, "declaration") || is_type(d, "parameter_declaration") ||
        is_type(d, "pointer_declarator") || is_type(d, "array_declarator"))
      return true;
  }
  return false;
}

/* Whether `name`, read in the body of element function f (NULL: the
 * body is the loop's own), may name something else where the loop is:
 * f or the function around the loop declares it (f's parameter, or a
 * local that hides the global f reads). */
static bool not_global(Ctx *c, const LoopPlan *p, const FuncInfo *f, const char *name)
{
  return f && (declared_around(c, f->def, name) || declared_around(c, p->loop, name));
}

/* A value the round cannot change, readable where the loop is: a number,
 * or an identifier (a macro or a global) that not_global allows and that
 * no step of the loop writes. */
static const char *round_const(Ctx *c, const LoopPlan *p, const FuncInfo *f, const Node *e)
{
  e = node_unparen(e);
  if (e && is_type(e, "number_literal"))
    return text_of(c, e);
  if (!e || e->kind != K_IDENTIFIER || program_prop(c->prog, text_of(c, e)) ||
      not_global(c, p, f, text_of(c, e)))
    return NULL;
  for (int i = 0; i < p->nsteps; i++)
    if (step_writes(&p->steps[i], text_of(c, e)))
      return NULL;
  return text_of(c, e);
}

/* The rule, on a loop level_rule kept (property P, round value v; f: the
 * element function it found, or NULL; elem and x: the names of the
 * element and of v in the body): the phase's body, or f's, is exactly
 *   foreach (n In elem.outnbrs) [(n.P == K)] MIN(n.P, x + 1[, F]);
 * with K a number or an identifier no step writes and not a parameter,
 * F a variable some other step of the loop uses (so it is in scope
 * there) and not a parameter; when the body is f's, neither K nor F is
 * declared in the function around the loop (it would hide f's global).  A round of it sets n.P = v + 1 for
 * exactly the points n with (n.P == K, when there is a filter) and
 * v + 1 < n.P that have an in-neighbour whose P is v at the start of
 * the round, and raises F if it set any: a source keeps P = v (MIN of
 * v + 1 cannot lower it) and a set point gets v + 1, not v, so whether a
 * point is a source does not change during the round; a point's filter
 * sees either its starting value or v + 1, and MIN of v + 1 on v + 1
 * changes nothing.  The pull form computes the same set: each such
 * point, by itself, looks through its in-neighbours for one whose P is
 * v (a read that sees v + 1 is not v).  lower_plan.c chooses the
 * direction of each round. */
static void pull_rule(Ctx *c, LoopPlan *p, const Step *s, const FuncInfo *f, const char *elem,
                      const char *x)
{
  const Node *n = s->stmt;
  const char *why = NULL;
  const Node *body = only_stmt(node_field(f ? f->def : n, F_BODY));
  const Node *it = body && body->kind == K_FOREACH_STATEMENT ? node_field(body, F_ITERABLE) : NULL;
  const Node *o = it && it->kind == K_FIELD_EXPRESSION ? node_unparen(node_field(it, F_ARGUMENT)) : NULL;
  const char *nv = it ? text_of(c, node_field(body, F_VARIABLE)) : NULL;
  if (!elem || !x || !o || o->kind != K_IDENTIFIER || strcmp(text_of(c, o), elem) != 0 ||
      !node_text_is(c->src, node_field(it, F_FIELD), "outnbrs") || node_field(body, F_OFFSET))
    why = "the body is not one foreach over the element's out-neighbours";
  const char *K = NULL, *F = NULL;
  const Node *cond = why ? NULL : node_unparen(node_field(body, F_CONDITION));
  if (cond) {
    const Node *l = is_type(cond, "binary_expression") &&
                    node_text_is(c->src, node_field(cond, F_OPERATOR), "==")
                        ? node_unparen(node_field(cond, F_LEFT)) : NULL;
    const Node *r = l ? node_field(cond, F_RIGHT) : NULL;
    if (!l || own_flag(c, l, nv) == NULL || strcmp(own_flag(c, l, nv), p->level) != 0 ||
        !(K = round_const(c, p, f, r)))
      why = "the neighbour filter is not (n.level == a constant)";
  }
  const Node *st = why ? NULL : only_stmt(node_field(body, F_BODY));
  const Node *mn = st && st->kind == K_EXPRESSION_STATEMENT ? node_unparen(node_named_child(st, 0)) : NULL;
  const Node *args = mn && mn->kind == K_CALL_EXPRESSION &&
                             node_text_is(c->src, node_field(mn, F_FUNCTION), "MIN")
                         ? node_field(mn, F_ARGUMENTS) : NULL;
  int na = args ? node_named_count(args) : 0;
  if (!why && (!args || na < 2 || na > 3 || !own_flag(c, node_named_child(args, 0), nv) ||
               strcmp(own_flag(c, node_named_child(args, 0), nv), p->level) != 0 ||
               !is_plus_one(c, node_named_child(args, 1), x)))
    why = "the neighbour loop's body is not MIN(n.level, lev + 1[, flag]) alone";
  if (!why && na == 3) {
    const Node *fl = node_unparen(node_named_child(args, 2));
    F = fl && fl->kind == K_IDENTIFIER && !not_global(c, p, f, text_of(c, fl)) ? text_of(c, fl)
                                                                                : NULL;
    const Sym *fs = F ? ident_sym(c, fl) : NULL;
    p->pull_flag_dev = fs && fs->kind == FK_GPUVAR;
    /* or G.F[0], a graph property of the loop's partitioned graph whose
     * parts share the host graph's arrays (p->sgraph): one object */
    const Node *fa = fl && fl->kind == K_SUBSCRIPT_EXPRESSION ? node_unparen(node_field(fl, F_ARGUMENT)) : NULL;
    /* (or, GPU parts: of the partitioned graph itself, each part's
     * copy of it, combined by the exchange: lower_loop.c pull_launch;
     * GPU ranks: each rank's, combined at the kernel's barrier) */
    /* (or, host ranks under --mpi: each rank's copy, combined by the
     * exchange, lower_loop.c render_partitioned_foreach) */
    const char *fg = p->sgraph ? p->sgraph : p->parts && (c->gpu || c->mpi) ? p->pgraph : NULL;
    if (!F && fa && fa->kind == K_FIELD_EXPRESSION && fg &&
        node_text_is(c->src, node_field(fl, F_INDEX), "0")) {
      EType t = expr_type(c, node_field(fa, F_ARGUMENT));
      const Prop *pr = program_prop(c->prog, text_of(c, node_field(fa, F_FIELD)));
      if (t.kind == FK_GRAPH && t.graph && strcmp(t.graph, fg) == 0 && pr &&
          pr->kind == PK_GRAPH) {
        F = pr->name;
        p->pull_flag_gp = true;
      }
    }
    bool seen = false;
    for (int i = 0; F && i < p->nsteps; i++)
      for (int j = 0; &p->steps[i] != s && j < p->steps[i].nacc; j++)
        seen |= strcmp(p->steps[i].acc[j].name, F) == 0;
    if (!F || !seen)
      why = "MIN's flag is not a variable the loop itself uses";
  }
  if (!why && c->prog->mutates)
    why = "the program changes graphs";
  if (!why && F && p->parts && !p->pull_flag_gp)
    why = "MIN's flag is not a graph property of the partitioned graph";
  if (why) {
    snprintf(p->pwhy, sizeof p->pwhy, "line %u: %s", n->loc.line, why);
    return;
  }
  p->pull = true;
  p->pull_k = K ? xstrdup(K) : NULL;
  p->pull_flag = F ? xstrdup(F) : NULL;
}

/* Forgets what level_rule and pull_rule kept (the loop neither lists its
 * levels nor pulls). */
static void drop_level(LoopPlan *p)
{
  free(p->level);
  free(p->lev);
  free(p->pull_k);
  free(p->pull_flag);
  p->level = p->lev = p->pull_k = p->pull_flag = NULL;
  p->pull = p->pull_flag_gp = p->pull_flag_dev = false;
}

static void no_frontier(LoopPlan *p, const Node *at, const char *why)
{
  snprintf(p->fwhy, sizeof p->fwhy, "line %u: %s", at->loc.line, why);
  p->frontier = false;
}

static void plan_frontiers(Ctx *c, LoopPlan *p)
{
  p->frontier = true;
  /* With one phase, a loop the flag rule refuses may keep the topology-
   * driven or the level-synchronous rule instead. */
  int phases = 0;
  for (int j = 1; j < p->nsteps; j++)
    phases += p->steps[j].kind == STEP_PHASE;
  /* Every phase over the points of one graph, filtered by a flag of its
   * element or a shuffle of flags. */
  for (int i = 1; i < p->nsteps && p->frontier; i++) {
    Step *s = &p->steps[i];
    s->filter = -1;
    if (s->kind != STEP_PHASE)
      continue;
    if (s->coll) {
      no_frontier(p, s->stmt, "a foreach over a Collection");
      return;
    }
    const Node *n = s->stmt;
    const char *var = text_of(c, node_field(n, F_VARIABLE));
    if (s->edges || strcmp(s->graph, p->graph) != 0) {
      no_frontier(p, n, "a phase over edges or over another graph");
      return;
    }
    const Node *cond = node_field(n, F_CONDITION);
    if (cond) {
      const char *f = own_flag(c, cond, var);
      if (!f || (s->filter = flag_index(p, f, true)) < 0) {
        no_frontier(p, n, "the filter is not a flag of the element ('(t.flag)')");
        if (phases == 1)
          level_rule(c, p, s);
        /* CPU: a filter on the element's own P keeps the topology-driven
         * rule (topo_rule checks it); the GPU's skip takes it only in
         * partitioned loops (parts_topo_rule) until it has run there */
        if (phases == 1 && !p->level && !c->gpu)
          topo_rule(c, p, s);
        return;
      }
    } else if (s->nshuf = 0, shuffle_body(c, p, node_field(n, F_BODY), var, &s->shuffle_mask, s)) {
      s->shuffle = true;
    } else {
      no_frontier(p, n, "a phase with neither a flag filter nor a flag shuffle body");
      if (phases == 1) /* one unfiltered phase: maybe topology-driven */
        topo_rule(c, p, s);
      return;
    }
  }
  /* Every write to a flag goes through the element or an out-neighbour of
   * it, in a phase. */
  for (int i = 0; i < p->nsteps; i++) {
    Step *s = &p->steps[i];
    for (int j = 0; j < s->nacc; j++) {
      const Access *a = &s->acc[j];
      int k = flag_index(p, a->name, false);
      if (k < 0 || !a->write)
        continue;
      if (s->kind != STEP_PHASE || !a->wnear) {
        no_frontier(p, s->stmt, "a flag is written other than through the element or an out-neighbour");
        return;
      }
      if (a->wown)
        s->wown_mask |= 1u << k;
      else
        s->wnbr_mask |= 1u << k; /* the post-check looks at both */
    }
  }
  /* Fusion stays in the plan: the region without lists (on graphs where
   * lists do not pay) uses it; the list form puts a barrier there. */
}

/* ---- the loop flag in three slots (CUDA) ------------------------------------------ */

/* The flag of `while (F) { F = 0; ...phases... }`, or NULL.  The kernel
 * then keeps F in three slots (lower_plan.c device_loop_kernel): round r's
 * phases write slot r % 3, the condition at the top of round r + 1 reads
 * it, and the leader zeroes slot (r + 1) % 3 during round r, which no
 * thread reads or writes then (it was read at the top of round r - 1,
 * before the barrier that ended that round, and is written in round
 * r + 1, after the barrier that ends this one).  So neither the barrier
 * between reading F and zeroing it nor the one between zeroing it and the
 * phases that set it is needed.  The rule:
 *   1. the condition is F alone, F a GPU scalar, with a barrier before it;
 *   2. the first step is `F = 0;` (one thread) and the next is a phase;
 *   3. no other step outside the phases touches F or breaks (the loop
 *      ends at the condition, where F's value is the slot it read; the
 *      planner refuses every other jump out of a step);
 *   4. phases only write F, in their own bodies (not inside a function
 *      they call: that function is printed once, for every caller). */
static const char *rot_rule(Ctx *c, const LoopPlan *p)
{
  const Node *cond = node_unparen(p->steps[0].stmt);
  if (!cond || cond->kind != K_IDENTIFIER || !p->steps[0].sync_before || p->nsteps < 3)
    return NULL;
  const Sym *f = ident_sym(c, cond);
  if (!f || f->kind != FK_GPUVAR)
    return NULL;
  const char *F = f->name;
  const Step *z = &p->steps[1], *ph = &p->steps[2];
  const Node *e = z->stmt && z->stmt->kind == K_EXPRESSION_STATEMENT ? node_named_child(z->stmt, 0) : NULL;
  if (z->kind != STEP_SCALAR || !z->leader || ph->kind != STEP_PHASE || !e ||
      e->kind != K_ASSIGNMENT_EXPRESSION || !node_text_is(c->src, node_field(e, F_OPERATOR), "=") ||
      !node_field(e, F_LEFT) || node_field(e, F_LEFT)->kind != K_IDENTIFIER ||
      strcmp(text_of(c, node_field(e, F_LEFT)), F) != 0 || !node_field(e, F_RIGHT) ||
      !node_text_is(c->src, node_field(e, F_RIGHT), "0") || z->nacc != 1)
    return NULL;
  for (int i = 2; i < p->nsteps; i++) {
    const Step *s = &p->steps[i];
    if (s->kind != STEP_PHASE && (s->brk || s->opaque))
      return NULL;
    for (int j = 0; j < s->nacc; j++) {
      const Access *a = &s->acc[j];
      if (strcmp(a->name, F) != 0)
        continue;
      if (s->kind != STEP_PHASE || a->read || a->deep)
        return NULL;
    }
  }
  return F;
}

/* ---- the plan ------------------------------------------------------------------ */

/* The partitioned graph whose points a foreach of the loop body visits
 * (the first such), or NULL. */
static const char *parted_graph_of(Ctx *c, const Node *body)
{
  const Node *first = body->kind == K_COMPOUND_STATEMENT ? body->child : body;
  for (const Node *n = first; n; n = body->kind == K_COMPOUND_STATEMENT ? n->next : NULL) {
    if (n->kind != K_FOREACH_STATEMENT)
      continue;
    const Node *it = node_field(n, F_ITERABLE);
    if (!it || it->kind != K_FIELD_EXPRESSION)
      continue;
    EType g = expr_type(c, node_field(it, F_ARGUMENT));
    if (g.kind == FK_GRAPH && g.graph && program_parted(c->prog, g.graph))
      return g.graph;
  }
  return NULL;
}

PlanKind plan_loop(Ctx *c, const Node *loop, LoopPlan *p)
{
  memset(p, 0, sizeof *p);
  p->kind = PLAN_HOST;
  p->loop = loop;
  const Node *cond = node_field(loop, F_CONDITION);
  const Node *body = node_field(loop, F_BODY);
  if (!is_type(loop, "while_statement") || !cond || !body) {
    refuse(p, loop, "only while loops are planned");
    return p->kind;
  }
  if (c->prog->mutates) {
    refuse(p, loop, "the program mutates graphs (§6)");
    return p->kind;
  }
  if (c->gpu || c->mpi)
    p->pgraph = parted_graph_of(c, body);
  else
    p->sgraph = parted_graph_of(c, body);
  Step *cs = new_step(p, STEP_COND, cond);
  Walk w = {c, p, cs, false, 0, {0}};
  Own none = {{0}, 0, {0}, 0};
  walk(&w, cond, &none, true, false);
  if (cs->writes || cs->opaque)
    refuse(p, cond, "the condition writes or calls a function");
  int phases = 0;
  const Node *first = body->kind == K_COMPOUND_STATEMENT ? body->child : body;
  for (const Node *n = first; n && !refused(p); n = body->kind == K_COMPOUND_STATEMENT ? n->next : NULL) {
    if (!n->named || n->kind == K_COMMENT)
      continue;
    if (n->kind == K_FOREACH_STATEMENT) {
      plan_phase(c, p, n);
      phases++;
    } else {
      plan_scalar(c, p, n);
    }
  }
  if (!refused(p) && phases == 0)
    refuse(p, loop, "no parallel foreach in the loop body");
  if (!refused(p) && c->gpu)
    leader_steps(p);
  if (refused(p))
    return p->kind;
  if (p->parts && c->mpi) {
    /* --mpi: the host runs the rounds, each foreach ending in the ranks'
     * exchange (fal_G_mpi_end); what carries over is the topology rule: a
     * GPU rank's kernel skips the own points that did not change
     * (lower_plan.c emit_mpi_loop, docs/lowering.md "GPU parts under
     * MPI"). */
    parts_topo_rule(c, p);
    p->graph = p->pgraph;
    if (!c->gpu && p->topo)
      rank_window_rule(c, p);
    if (c->gpu) {
      /* ranks of one machine may run the kernels of the single process
       * (own rounds, or one barrier a round), whose rules need the parts
       * plan's barriers; the host's rounds (emit_mpi_loop) do not read
       * the steps' barriers, so placing them changes nothing else */
      p->gp_copy = gp_copy_rule(c, p);
      place_barriers(p, c->gpu);
      p->gp_early = p->gp_copy;
      for (int i = 0; i < p->nsteps; i++)
        if (p->steps[i].kind != STEP_PHASE && p->steps[i].sync_before)
          p->gp_early = false;
      for (int i = 1; i < p->nsteps; i++)
        if (p->steps[i].kind == STEP_PHASE) {
          p->steps[i].fuse_prev = false;
          p->steps[i].sync_before = true;
        }
      parts_own_rule(c, p);
      parts_sync_rule(c, p);
      p->mpx = p->own_rounds || p->sync_P;
      /* the kernel with one barrier a round may pull (docs/optimiser.md
       * "Pull rounds inside the parts' kernel"); the ranks' host rounds
       * push */
      for (int i = 1; p->sync_P && i < p->nsteps; i++)
        if (p->steps[i].kind == STEP_PHASE && node_field(p->steps[i].stmt, F_CONDITION))
          level_rule(c, p, &p->steps[i]);
      if (p->level && (!p->pull || !p->sync_P || strcmp(p->level, p->sync_P) != 0))
        drop_level(p);
    } else if (!p->topo) {
      /* host ranks: a level-synchronous loop's rounds may pull
       * (docs/lowering.md "Pull rounds on host ranks"): the CPU's level
       * and pull rules on its one phase; each round is one or the other,
       * and its exchange refreshes the ghosts that a pull reads */
      int nph = 0, ph = 0;
      for (int i = 1; i < p->nsteps; i++)
        if (p->steps[i].kind == STEP_PHASE) {
          nph++;
          ph = i;
        }
      if (nph == 1 && node_field(p->steps[ph].stmt, F_CONDITION))
        level_rule(c, p, &p->steps[ph]);
      /* a push round's ghosts are merged into their owners by the
       * program's one updateFunction: it must take the smaller level,
       * as the pull's one writer does (parts_sync_rule asks the same) */
      const FuncInfo *m = NULL;
      int nm = 0;
      for (int i = 0; p->pull && i < c->prog->nfuncs; i++)
        if (c->prog->funcs[i].merge) {
          m = &c->prog->funcs[i];
          nm++;
        }
      if (p->pull && (nm != 1 || !merge_is_minmax(c, m, &p->steps[ph], p->level, 1))) {
        snprintf(p->pwhy, sizeof p->pwhy, "line %u: %s", p->steps[ph].stmt->loc.line,
                 nm != 1 ? (nm ? "more than one updateFunction" : "no updateFunction")
                         : "the updateFunction may move the level other than MIN does");
        p->pull = false;
      }
      if (p->level && !p->pull)
        drop_level(p);
    }
    if (p->mpx)
      snprintf(p->why, sizeof p->why, "--mpi: each round ends with the exchange between ranks, "
               "until GPU ranks of one machine that read each other's memory take the rest of "
               "the loop as the single process's kernels, one a rank (%s)",
               p->sync_P ? "one barrier a round" : "each rank its own rounds");
    else if (p->topo && !c->gpu)
      snprintf(p->why, sizeof p->why, "--mpi: each round ends with the exchange between ranks; "
               "a rank skips the points whose %.20s did not change, then runs to its fixpoint, "
               "%s %.20s first, on graphs of average degree 8 or less", p->topo,
               p->topo_max ? "highest" : "lowest", p->topo);
    else if (p->topo)
      snprintf(p->why, sizeof p->why, "--mpi: each round ends with the exchange between ranks; "
               "a rank's phase skips the points whose %s did not change, then goes on to "
               "the rank's fixpoint (GPU ranks: repeated; --target=cpu: lowest %s first, on "
               "graphs of average degree 8 or less)", p->topo, p->topo);
    else
      snprintf(p->why, sizeof p->why, "--mpi: each round ends with the exchange between ranks; "
               "no skip (%.160s)", p->twhy[0] ? p->twhy : "not one phase");
    return p->kind;
  }
  if (p->parts) {
    /* Every phase is followed by the exchange (fal_G_px_end), as on the
     * host: no phase moves or fuses, each starts after a barrier. */
    p->gp_copy = gp_copy_rule(c, p);
    place_barriers(p, c->gpu);
    /* the steps between phases move between the exchange's barriers
     * when none of them needs a barrier of its own */
    p->gp_early = p->gp_copy;
    for (int i = 0; i < p->nsteps; i++)
      if (p->steps[i].kind != STEP_PHASE && p->steps[i].sync_before)
        p->gp_early = false;
    for (int i = 1; i < p->nsteps; i++)
      if (p->steps[i].kind == STEP_PHASE) {
        p->steps[i].fuse_prev = false;
        p->steps[i].sync_before = true;
      }
    parts_topo_rule(c, p);
    parts_own_rule(c, p);
    parts_sync_rule(c, p);
    /* a level-synchronous loop's host rounds may pull (docs/optimiser.md
     * "Pull rounds on GPU parts"): the CPU's level and pull rules on its
     * one phase */
    for (int i = 1; p->sync_P && c->gpu && i < p->nsteps; i++)
      if (p->steps[i].kind == STEP_PHASE && node_field(p->steps[i].stmt, F_CONDITION))
        level_rule(c, p, &p->steps[i]);
    if (p->level && (!p->pull || strcmp(p->level, p->sync_P) != 0))
      drop_level(p);
    p->kind = PLAN_DEVICE;
    p->graph = p->pgraph;
    snprintf(p->fwhy, sizeof p->fwhy, "a kernel per part");
    return p->kind;
  }
  hoist_phases(c, p);
  place_barriers(p, c->gpu);
  p->kind = c->gpu ? PLAN_DEVICE : PLAN_REGION;
  plan_frontiers(c, p);
  if (p->kind == PLAN_DEVICE) {
    /* The kernel has the flag lists (falcon/cuda.cuh fal_dfront), for at
     * most FAL_DFRONT_MAX flags, and the topology-driven skip (a scan of
     * last-seen values, docs/optimiser.md "Loops that skip unchanged
     * points"); the level-synchronous lists are the CPU's only. */
    if (p->frontier && p->nflags > 8)
      no_frontier(p, loop, "more than 8 flags (the kernel's lists take 8)");
    /* the host's rounds may pull (docs/optimiser.md "Pull rounds on GPU
     * parts", one GPU): a loop without lists or Collections whose flag,
     * if any, is a GPU scalar (the only one a kernel's MIN may raise) */
    if (p->pull && !p->frontier && !p->colls && (!p->pull_flag || p->pull_flag_dev)) {
      p->lwhy[0] = '\0';
    } else {
      drop_level(p);
      p->lwhy[0] = p->pwhy[0] = '\0';
    }
    const char *rot = rot_rule(c, p);
    p->rot = rot ? xstrdup(rot) : NULL;
  }
  return p->kind;
}

const char *plan_kind_name(PlanKind k)
{
  return k == PLAN_DEVICE ? "device" : k == PLAN_REGION ? "region" : "host";
}

void plan_explain(const Ctx *c, const LoopPlan *p)
{
  FILE *f = stderr;
  fprintf(f, "%s:%u: loop: %s", c->src->path, p->loop->loc.line, plan_kind_name(p->kind));
  if (p->kind == PLAN_HOST) {
    fprintf(f, " (%s)\n", p->why);
    if (c->mpi && p->pull && (!c->gpu || p->sync_P))
      fprintf(f, "  pull: on undirected graphs of average degree above 8, a round may set each "
                 "rank's own points from their neighbours' %s, which the exchange refreshed "
                 "(chosen by frontier size, every rank alike)%s\n", p->level,
              c->gpu ? "; GPU ranks that map each other pull in their kernel with one barrier a "
                       "round, which the loop enters at its first round"
                     : "");
    else if (c->mpi && !c->gpu && p->pwhy[0])
      fprintf(f, "  no pull rounds (%s)\n", p->pwhy);
    if (c->mpi && !c->gpu && p->topo)
      fprintf(f, p->rank_window ? "  window: with 2 ranks or more a rank's heap stops each round "
                                  "at a window that the ranks share (a fixpoint loop)%s\n"
                                : "  window: none (%s)\n",
              p->rank_window ? p->wflag ? "; after the first round the heap alone visits "
                                                 "the points that changed (no sweep)"
                                               : "; every round sweeps the points that changed "
                                                 "(not an integer property)"
                             : p->wwhy);
    return;
  }
  fprintf(f, p->parts ? " (a cooperative kernel per part of '%s' when every part is on a GPU; "
                       "the exchange after each phase inside them)\n"
            : p->kind == PLAN_DEVICE ? " (one cooperative kernel, grid barriers)\n"
                                     : " (one OpenMP parallel region, barriers)\n", p->pgraph);
  if (p->rot)
    fprintf(f, "  flag: %s in three slots (no barrier around its reset)\n", p->rot);
  if (p->gp_copy)
    fprintf(f, "  graph properties: the steps of every thread read their copy of the "
               "exchange's values (no barrier before a leader step writes one)\n");
  if (p->gp_early)
    fprintf(f, "  steps between phases: between the exchange's two barriers (no grid "
               "barrier starts a phase)\n");
  if (p->colls)
    fprintf(f, "  collections: on the device while each is unordered and on the loop's GPU "
               "(checked when the loop moves there)\n");
  if (p->parts) {
    if (p->topo)
      fprintf(f, "  frontier: each part's phase skips its points whose %s is what it was when "
                 "the part last visited them (topology-driven: MIN/MAX only, merged by MIN/MAX)\n",
              p->topo);
    else
      fprintf(f, "  frontier: none (%s)\n", p->twhy[0] ? p->twhy : "not one phase");
    if (p->topo) /* the MINs' form: lower_expr.c render_atomic, plan_remote */
      fprintf(f, "  MINs on other parts' %s: to their owners at once, where the parts' GPUs "
                 "have atomics on each other's memory\n", p->topo);
    if (p->own_rounds)
      fprintf(f, "  rounds: each part's kernel runs its own, with no barrier between parts; "
                 "the loop ends when no part has work and no MIN is on its way (%s[0] == 0)\n",
              p->own_flag);
    else if (p->topo)
      fprintf(f, "  rounds: in step (%s)\n", p->owhy);
    else if (p->sync_P)
      fprintf(f, "  rounds: in step, one barrier between the parts a round and no exchange, "
                 "with two parts whose GPUs have atomics on each other's memory: MINs on %s go "
                 "to the point's owner and to the other part if it holds the point; %s[0] "
                 "combined at the barrier\n", p->sync_P, p->sync_flag);
    else if (p->swhy[0])
      fprintf(f, "  rounds: in step, with the exchange (%s)\n", p->swhy);
    /* (the host's rounds of a loop with sync_P: plan_loop's level and
     * pull rules) */
    if (p->sync_P && p->pull)
      fprintf(f, "  pull: %s, every part on a GPU and the graph undirected of average degree "
                 "above 8: a round may set each part's own points from their neighbours' %s "
                 "(chosen by frontier size)\n",
              c->mpi ? "the ranks' kernel with one barrier a round, which the loop enters at "
                       "its first round (their host rounds push where the ranks map each other, and "
                       "may pull where they do not)"
                     : "the host's rounds, and the kernel with one barrier a round",
              p->level);
    else if (p->sync_P && p->pwhy[0])
      fprintf(f, "  no pull rounds (%s)\n", p->pwhy);
    else if (p->sync_P && p->lwhy[0])
      fprintf(f, "  no pull rounds: not level-synchronous (%s)\n", p->lwhy);
  } else if (p->frontier) {
    fprintf(f, "  frontier: phases visit the lists of");
    for (int j = 0; j < p->nflags; j++)
      fprintf(f, " %s", p->flags[j]);
    fprintf(f, p->kind == PLAN_DEVICE ? " (with FALCON_FRONTIERS=on; else scans)\n" : "\n");
  } else if (p->kind == PLAN_REGION && p->topo) {
    fprintf(f, "  frontier: the phase visits the points whose %s changed in the round before "
               "(topology-driven: MIN/MAX only)\n", p->topo);
  } else if (p->kind == PLAN_DEVICE && p->topo) {
    fprintf(f, "  frontier: the phase skips the points whose %s is what it was when they were "
               "last visited (topology-driven: MIN/MAX only)\n", p->topo);
  } else if (p->kind == PLAN_REGION && p->level) {
    fprintf(f, "  frontier: the phase visits the points set to %s + 1 in the round before "
               "(level-synchronous)\n", p->lev);
    if (p->pull)
      fprintf(f, "  pull: on graphs of average degree above 8, a round may look for parents "
                 "among in-neighbours (chosen by frontier size)\n");
    else
      fprintf(f, "  no pull rounds (%s)\n", p->pwhy);
  } else {
    fprintf(f, "  frontier: none (%s)\n", p->fwhy);
    if (p->kind == PLAN_DEVICE && p->pull)
      fprintf(f, "  pull: the host's rounds, on an undirected graph of average degree above 8: "
                 "a round may set each point from its neighbours' %s (chosen by frontier "
                 "size)\n", p->level);
    if (p->lwhy[0])
      fprintf(f, "  not level-synchronous (%s)\n", p->lwhy);
    if (p->twhy[0])
      fprintf(f, "  not topology-driven (%s)\n", p->twhy);
  }
  for (int i = 0; i < p->nsteps; i++) {
    const Step *s = &p->steps[i];
    if (s->sync_before)
      fprintf(f, "    -- barrier --\n");
    const char *what = s->kind == STEP_COND ? "condition"
                       : s->kind == STEP_PHASE ? (s->fuse_prev ? "phase (fused with the one above)"
                                                               : "phase")
                       : s->leader ? "step (one thread)" : "step (every thread)";
    fprintf(f, "  line %u: %s", s->stmt->loc.line, what);
    if (s->coll)
      fprintf(f, " over the Collection %s", s->coll);
    if (p->frontier && s->kind == STEP_PHASE)
      fprintf(f, s->shuffle ? " [shuffle, union of lists]" : " [list of %s]",
              s->filter >= 0 ? p->flags[s->filter] : "");
    if (s->nacc) {
      fprintf(f, ":");
      for (int j = 0; j < s->nacc; j++)
        fprintf(f, " %s%s%s%s", s->acc[j].name,
                s->acc[j].write ? (s->acc[j].read ? "(rw" : "(w") : "(r",
                s->acc[j].own && s->kind == STEP_PHASE ? ",own" : s->acc[j].copy ? ",copy" : "",
                ")");
    }
    fprintf(f, "\n");
  }
}

void plan_free(LoopPlan *p)
{
  for (int i = 0; i < p->nsteps; i++) {
    for (int j = 0; j < p->steps[i].nacc; j++)
      free(p->steps[i].acc[j].name);
    free(p->steps[i].acc);
    for (int j = 0; j < p->steps[i].nhvar; j++)
      free(p->steps[i].hvar[j]);
    free(p->steps[i].hvar);
    free(p->steps[i].hmode);
  }
  free(p->steps);
  for (int i = 0; i < p->nwritten; i++)
    free(p->written[i]);
  free(p->written);
  for (int i = 0; i < p->nflags; i++)
    free(p->flags[i]);
  free(p->topo);
  free(p->own_flag);
  free(p->wflag);
  free(p->sync_P);
  free(p->sync_flag);
  free(p->level);
  free(p->lev);
  free(p->pull_k);
  free(p->pull_flag);
  free(p->rot);
  memset(p, 0, sizeof *p);
}
