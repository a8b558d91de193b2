/*
 * lower_warp.c: warp-per-point loops on the CUDA target (issue 14,
 * docs/optimiser.md "Warp-per-point loops").
 *
 * A kernel over g.points gives each point one thread, so a point with
 * 100,000 neighbours walks them alone while the rest of the GPU waits.
 * Where the legality rule below holds, falconc also writes the kernel
 * with one warp per point: the 32 lanes share each neighbour loop of the
 * point (lane l takes edges l, l+32, ...), sums into the point's locals
 * are added up across the warp, and the rest of the body runs as one
 * thread would run it.  The host picks a kernel per launch from the
 * graph's average degree (fal_warp_pick, falcon/cuda.cuh).
 *
 * The rule, for the foreach body and each element function it calls that
 * contains a neighbour loop (a "warp body"):
 *   - outside neighbour loops (code the whole warp runs in step, with the
 *     same control flow: conditions are taken from lane 0):
 *       declarations of locals whose initializers have no side effects;
 *       `x = e` / `x op= e` on a local with e free of side effects (every
 *       lane computes it); other expression statements (stores, MIN/MAX,
 *       adds, calls of other functions): lane 0 alone runs them, then the
 *       warp synchronises; a call of another warp body: the whole warp;
 *       if/else with a side-effect-free condition; `return;`; blocks;
 *       `continue` (the loop's own body only); neighbour loops.
 *       No other loops, switch, break, return with a value or goto.
 *   - inside a neighbour loop (each lane its own edges): anything a
 *     thread may do per edge, except break, return and goto (a lane
 *     cannot stop the others' edges) and calls of warp bodies; locals
 *     declared outside the loop are only summed into (`x += e`, `x -= e`,
 *     `x = x + e`) and not otherwise read or written there.  The lanes'
 *     partial sums are added to the value before the loop (floating-point
 *     sums in another order: results within the tolerance a parallel sum
 *     has anyway).
 * When the rule does not hold, the kernel has one thread per point only.
 */
#include "lower.h"

#include <string.h>

/* ---- what the rule looks at -------------------------------------------- */

#define W_MAXNAMES 128
#define W_MAXDEPTH 64

typedef struct WScan {
  Ctx *c;
  const Node *names[W_MAXNAMES]; /* locals in scope (identifiers) */
  int nnames;
  int nloops;                    /* neighbour loops at warp level */
  int calls;                     /* calls of warp bodies at warp level */
  const char *why;
  const Node *at;
  WarpInfo *out;                 /* NULL: only check */
  int depth;
} WScan;

static bool refuse(WScan *w, const Node *at, const char *why)
{
  if (!w->why) {
    w->why = why;
    w->at = at;
  }
  return false;
}

static bool same_name(Ctx *c, const Node *a, const Node *b)
{
  size_t la, lb;
  const char *ta = node_text(c->src, a, &la), *tb = node_text(c->src, b, &lb);
  return la == lb && memcmp(ta, tb, la) == 0;
}

static int local_index(WScan *w, const Node *id)
{
  for (int i = w->nnames - 1; i >= 0; i--)
    if (same_name(w->c, w->names[i], id))
      return i;
  return -1;
}

static bool add_name(WScan *w, const Node *id)
{
  if (!id)
    return true;
  if (w->nnames == W_MAXNAMES)
    return refuse(w, id, "too many locals");
  w->names[w->nnames++] = id;
  return true;
}

/* A call of an element function that is itself a warp body. */
static FuncInfo *callee(Ctx *c, const Node *call)
{
  const Node *fn = node_field(call, F_FUNCTION);
  if (!fn || fn->kind != K_IDENTIFIER)
    return NULL;
  char *name = text_of(c, fn);
  FuncInfo *f = name ? program_func(c->prog, name) : NULL;
  return f && f->def ? f : NULL;
}

/* Calls that read only: math and graph queries (also plan.c). */
bool call_is_pure(Ctx *c, const Node *call)
{
  static const char *fns[] = {"fabs", "fabsf", "sqrt", "sqrtf", "abs", "labs", "fmin", "fmax",
                              "exp", "log", "pow", "floor", "ceil", "min", "max", NULL};
  static const char *methods[] = {"getweight", "getOutDegree", "getInDegree", "getedge",
                                  "isanedge", "find", NULL};
  const Node *fn = node_field(call, F_FUNCTION);
  if (!fn)
    return false;
  if (fn->kind == K_IDENTIFIER) {
    for (int i = 0; fns[i]; i++)
      if (node_text_is(c->src, fn, fns[i]))
        return true;
    return false;
  }
  if (fn->kind == K_FIELD_EXPRESSION) {
    const Node *f = node_field(fn, F_FIELD);
    for (int i = 0; methods[i]; i++)
      if (node_text_is(c->src, f, methods[i]))
        return true;
  }
  return false;
}

/* No assignment, increment or call with effects anywhere in e. */
static bool pure_expr(Ctx *c, const Node *e)
{
  for (const Node *n = e; n; n = node_next(n, e, true)) {
    if (n->kind == K_ASSIGNMENT_EXPRESSION || n->kind == K_UPDATE_EXPRESSION ||
        n->kind == K_REDUCTION_EXPRESSION)
      return false;
    if (n->kind == K_CALL_EXPRESSION && !call_is_pure(c, n))
      return false;
  }
  return true;
}

/* The identifier an assignment or update writes when it is a plain name. */
static const Node *written_name(const Node *n)
{
  const Node *t = n->kind == K_ASSIGNMENT_EXPRESSION ? node_field(n, F_LEFT)
                  : n->kind == K_UPDATE_EXPRESSION   ? node_field(n, F_ARGUMENT)
                                                     : NULL;
  t = node_unparen(t);
  return t && t->kind == K_IDENTIFIER ? t : NULL;
}

static const Node *assign_op(const Node *n)
{
  for (const Node *ch = n->child; ch; ch = ch->next)
    if (!ch->named && ch->field == F_OPERATOR)
      return ch;
  for (const Node *ch = n->child; ch; ch = ch->next)
    if (!ch->named)
      return ch;
  return NULL;
}

static bool uniform_stmt(WScan *w, const Node *s, bool body_of_loop);

/* x += e, x -= e, x = x + e on local x: the reduction's name, else NULL. */
static const Node *sum_into(WScan *w, const Node *e)
{
  if (!e || e->kind != K_ASSIGNMENT_EXPRESSION)
    return NULL;
  const Node *x = written_name(e), *op = assign_op(e), *r = node_field(e, F_RIGHT);
  if (!x || !op || !r)
    return NULL;
  if (node_text_is(w->c->src, op, "+=") || node_text_is(w->c->src, op, "-="))
    return x;
  if (!node_text_is(w->c->src, op, "="))
    return NULL;
  /* x = x + e */
  if (strcmp(r->type, "binary_expression") != 0)
    return NULL;
  const Node *l = node_field(r, F_LEFT), *bop = assign_op(r);
  if (l && l->kind == K_IDENTIFIER && same_name(w->c, l, x) && bop &&
      node_text_is(w->c->src, bop, "+"))
    return x;
  return NULL;
}

static bool record_sum(WScan *w, const Node *loop, const Node *x)
{
  if (!w->out)
    return true;
  for (int i = 0; i < w->out->nsums; i++)
    if (w->out->sums[i].loop == loop && same_name(w->c, w->out->sums[i].var, x))
      return true;
  if (w->out->nsums == W_MAXSUMS)
    return refuse(w, x, "too many sums in neighbour loops");
  w->out->sums[w->out->nsums++] = (WarpSum){loop, x};
  return true;
}

/* The body of a neighbour loop at warp level: per lane. */
static bool lane_code(WScan *w, const Node *loop)
{
  int outer = w->nnames;
  const Node *sums[W_MAXSUMS];
  int nsums = 0, uses = 0;
  bool ok = true;
  for (const Node *n = loop->child; n && ok; n = node_next(n, loop, true)) {
    switch (n->kind) {
    case K_RETURN_STATEMENT:
      return refuse(w, n, "a return inside the neighbour loop");
    case K_BREAK_STATEMENT: {
      /* a break of an inner C loop or switch is the lane's own */
      const Node *p = n->parent;
      while (p && p != loop && p->kind != K_LOOP_STATEMENT && p->kind != K_SWITCH_STATEMENT &&
             p->kind != K_FOREACH_STATEMENT)
        p = p->parent;
      if (p == loop)
        return refuse(w, n, "a break out of the neighbour loop");
      break;
    }
    case K_CALL_EXPRESSION: {
      FuncInfo *f = callee(w->c, n);
      if (f && f->element && warp_body_fn(w->c, f))
        return refuse(w, n, "a call of a warp-split function inside a neighbour loop");
      break;
    }
    case K_DECLARATION:
      for (const Node *ch = n->child; ch && ok; ch = ch->next) {
        const Node *d = ch->field == F_DECLARATOR ? declarator_name(ch) : NULL;
        if (!d)
          continue;
        if (local_index(w, d) >= 0 && local_index(w, d) < outer)
          return refuse(w, d, "a local of the neighbour loop hides an outer one");
        ok = add_name(w, d);
      }
      break;
    case K_ASSIGNMENT_EXPRESSION:
    case K_UPDATE_EXPRESSION: {
      const Node *x = written_name(n);
      int i = x ? local_index(w, x) : -1;
      if (i < 0 || i >= outer)
        break; /* memory, or the loop's own local */
      const Node *sx = sum_into(w, n);
      if (!sx || n->parent->kind != K_EXPRESSION_STATEMENT)
        return refuse(w, n, "a local of the point written in a neighbour loop other "
                            "than by a sum");
      if (nsums == W_MAXSUMS)
        return refuse(w, n, "too many sums in neighbour loops");
      sums[nsums++] = sx;
      ok = record_sum(w, loop, sx);
      break;
    }
    default:
      break;
    }
  }
  w->nnames = outer;
  if (!ok)
    return false;
  /* A sum's local is read nowhere else in the loop. */
  for (int k = 0; k < nsums; k++) {
    uses = 0;
    int allowed = 0;
    for (const Node *n = loop->child; n; n = node_next(n, loop, true)) {
      if (n->kind == K_IDENTIFIER && same_name(w->c, n, sums[k]))
        uses++;
      if (n->kind == K_ASSIGNMENT_EXPRESSION && sum_into(w, n) &&
          same_name(w->c, sum_into(w, n), sums[k]))
        allowed += node_text_is(w->c->src, assign_op(n), "=") ? 2 : 1;
    }
    if (uses != allowed)
      return refuse(w, sums[k], "a sum's local is read inside its neighbour loop");
  }
  return true;
}

static bool is_nbr_loop(Ctx *c, const Node *s)
{
  if (s->kind != K_FOREACH_STATEMENT)
    return false;
  const Node *it = node_field(s, F_ITERABLE);
  if (!it || it->kind != K_FIELD_EXPRESSION)
    return false;
  const Node *f = node_field(it, F_FIELD);
  return node_text_is(c->src, f, "outnbrs") || node_text_is(c->src, f, "innbrs") ||
         node_text_is(c->src, f, "nbrs");
}

static bool uniform_decl(WScan *w, const Node *d)
{
  for (const Node *ch = d->child; ch; ch = ch->next) {
    if (ch->field != F_DECLARATOR)
      continue;
    if (ch->kind == K_INIT_DECLARATOR) {
      const Node *v = node_field(ch, F_VALUE);
      if (v && !pure_expr(w->c, v))
        return refuse(w, v, "an initializer with side effects");
    } else if (ch->kind != K_IDENTIFIER) {
      return refuse(w, ch, "a declaration other than of scalars");
    }
    if (!add_name(w, declarator_name(ch)))
      return false;
  }
  for (const Node *ch = d->child; ch; ch = ch->next)
    if (ch->kind == K_FALCON_TYPE || ch->kind == K_STRUCT_SPECIFIER)
      return refuse(w, ch, "a Falcon or struct local");
  return true;
}

/* A statement the whole warp runs in step. */
static bool uniform_stmt(WScan *w, const Node *s, bool body_of_loop)
{
  if (!s)
    return true;
  if (++w->depth > W_MAXDEPTH)
    return refuse(w, s, "nested too deeply");
  bool ok = true;
  switch (s->kind) {
  case K_COMPOUND_STATEMENT: {
    int mark = w->nnames;
    for (const Node *ch = s->child; ch && ok; ch = ch->next)
      if (ch->named && ch->kind != K_COMMENT)
        ok = uniform_stmt(w, ch, body_of_loop);
    w->nnames = mark;
    break;
  }
  case K_DECLARATION:
    ok = uniform_decl(w, s);
    break;
  case K_COMMENT:
    break;
  case K_EXPRESSION_STATEMENT: {
    const Node *e = node_named_child(s, 0);
    if (!e)
      break;
    if (e->kind == K_REDUCTION_EXPRESSION) {
      ok = refuse(w, e, "a reduction statement");
      break;
    }
    const Node *x = e->kind == K_ASSIGNMENT_EXPRESSION || e->kind == K_UPDATE_EXPRESSION
                        ? written_name(e) : NULL;
    if (x && local_index(w, x) >= 0) { /* every lane updates its copy */
      const Node *r = node_field(e, F_RIGHT);
      if (r && !pure_expr(w->c, r))
        ok = refuse(w, e, "a local assigned a value with side effects");
      break;
    }
    for (const Node *n = e; n; n = node_next(n, e, true)) {
      const Node *y = written_name(n);
      if (y && local_index(w, y) >= 0) {
        ok = refuse(w, n, "a local written inside a larger expression");
        break;
      }
    }
    if (ok && e->kind == K_CALL_EXPRESSION) {
      FuncInfo *f = callee(w->c, e);
      if (f && f->element && warp_body_fn(w->c, f)) {
        for (const Node *a = node_field(e, F_ARGUMENTS); a; a = NULL)
          if (!pure_expr(w->c, a))
            ok = refuse(w, e, "a warp-split function called with side effects in its arguments");
        w->calls++;
        break;
      }
    }
    if (ok && w->out) { /* lane 0 alone */
      if (w->out->nlane0 == W_MAXLANE0)
        return refuse(w, s, "too many statements");
      w->out->lane0[w->out->nlane0++] = s;
    }
    break;
  }
  case K_IF_STATEMENT: {
    const Node *cond = node_field(s, F_CONDITION);
    if (cond && !pure_expr(w->c, cond)) {
      ok = refuse(w, cond, "a condition with side effects");
      break;
    }
    ok = uniform_stmt(w, node_field(s, F_CONSEQUENCE), body_of_loop);
    const Node *alt = node_field(s, F_ALTERNATIVE);
    if (ok && alt) { /* else_clause, or the statement itself */
      const Node *a = alt->kind == K_OTHER ? node_named_child(alt, 0) : alt;
      ok = uniform_stmt(w, a, body_of_loop);
    }
    break;
  }
  case K_RETURN_STATEMENT:
    if (node_named_child(s, 0))
      ok = refuse(w, s, "a return with a value");
    break;
  case K_CONTINUE_STATEMENT:
  case K_BREAK_STATEMENT: /* in a parallel foreach's body: the next element */
    if (!body_of_loop)
      ok = refuse(w, s, "a continue or break");
    break;
  case K_FOREACH_STATEMENT:
    if (!is_nbr_loop(w->c, s)) {
      ok = refuse(w, s, "a foreach other than over a point's neighbours");
      break;
    }
    if (node_field(s, F_CONDITION) && !pure_expr(w->c, node_field(s, F_CONDITION))) {
      /* a filter with effects runs per edge: fine */
    }
    ok = lane_code(w, s);
    w->nloops++;
    break;
  default:
    ok = refuse(w, s, "a statement the warp cannot run in step (a loop, switch, break, "
                      "single, ...)");
    break;
  }
  w->depth--;
  return ok;
}

/* ---- the rule for functions and foreach bodies ---------------------------- */

/* Scans f's body with its parameters as locals. */
static bool scan_fn(WScan *w, const FuncInfo *f)
{
  const Node *params = function_params(f->def);
  for (const Node *p = params ? params->child : NULL; p; p = p->next)
    if (p->kind == K_PARAMETER_DECLARATION)
      add_name(w, declarator_name(node_field(p, F_DECLARATOR)));
  return uniform_stmt(w, node_field(f->def, F_BODY), false);
}

bool warp_body_fn(Ctx *c, FuncInfo *f)
{
  if (f->warp)
    return f->warp == 1;
  f->warp = 2; /* while looking (recursion): not a warp body */
  WScan w = {.c = c};
  const Node *ret = node_field(f->def, F_TYPE);
  bool ok = (!ret || node_text_is(c->src, ret, "void")) && scan_fn(&w, f) && w.nloops > 0;
  f->warp = ok ? 1 : 2;
  return ok;
}

bool warp_body_check(Ctx *c, const Node *foreach, const char *var, WarpInfo *out,
                     const char **why)
{
  WScan w = {.c = c, .out = out};
  (void)var;
  if (out)
    memset(out, 0, sizeof *out);
  const Node *cond = node_field(foreach, F_CONDITION);
  bool ok = true;
  if (cond && !pure_expr(c, cond))
    ok = refuse(&w, cond, "a filter with side effects");
  const Node *v = node_field(foreach, F_VARIABLE);
  if (ok)
    add_name(&w, v);
  ok = ok && uniform_stmt(&w, node_field(foreach, F_BODY), true);
  if (ok && w.nloops == 0 && w.calls == 0)
    ok = refuse(&w, foreach, "no neighbour loop to share");
  if (why)
    *why = ok ? NULL : w.why;
  return ok;
}

/* ---- a hub over several blocks (docs/optimiser.md) ---------------------- */

/* Whether s runs the same when a hub's edges are split among several
 * blocks (pieces) that each run it at their own time: it is only
 * neighbour loops (each edge is one lane's in one piece), blocks, and
 * calls of warp bodies that are themselves such, with arguments that
 * are names or numbers (read once, at the call, and not changing: a
 * property read there could differ between pieces).  One neighbour loop
 * in all: pieces do not wait for each other between two.  No sums, no lane-0
 * stores, no conditions, locals or returns: those would run once per
 * piece, or read what other points change at different times.  The
 * foreach's own filter is decided once per hub (fal_hclaim). */
static bool split_stmt(Ctx *c, const Node *s, int depth, int *loops)
{
  if (!s || depth > W_MAXDEPTH)
    return false;
  switch (s->kind) {
  case K_COMMENT:
    return true;
  case K_COMPOUND_STATEMENT:
    for (const Node *ch = s->child; ch; ch = ch->next)
      if (ch->named && !split_stmt(c, ch, depth + 1, loops))
        return false;
    return true;
  case K_FOREACH_STATEMENT: /* one loop: a second would not wait for the first */
    return is_nbr_loop(c, s) && ++*loops == 1;
  case K_EXPRESSION_STATEMENT: {
    const Node *e = node_named_child(s, 0);
    if (!e || e->kind != K_CALL_EXPRESSION)
      return false;
    FuncInfo *f = callee(c, e);
    if (!f || !f->element || !warp_body_fn(c, f))
      return false;
    const Node *al = node_field(e, F_ARGUMENTS);
    for (const Node *a = al ? al->child : NULL; a; a = a->next)
      if (a->named && a->kind != K_COMMENT && a->kind != K_IDENTIFIER &&
          strcmp(a->type, "number_literal") != 0)
        return false;
    WarpInfo wi;
    if (!warp_fn_info(c, f, &wi) || wi.nsums || wi.nlane0)
      return false;
    return split_stmt(c, node_field(f->def, F_BODY), depth + 1, loops);
  }
  default:
    return false;
  }
}

bool warp_split_check(Ctx *c, const Node *foreach, const WarpInfo *wi)
{
  int loops = 0;
  return !wi->nsums && !wi->nlane0 && split_stmt(c, node_field(foreach, F_BODY), 0, &loops) &&
         loops == 1;
}

/* The sums and lane-0 statements of a warp-split function, for its
 * rendering. */
bool warp_fn_info(Ctx *c, FuncInfo *f, WarpInfo *out)
{
  if (!warp_body_fn(c, f))
    return false;
  WScan w = {.c = c, .out = out};
  memset(out, 0, sizeof *out);
  return scan_fn(&w, f);
}

/* Whether code in n calls a warp body, directly or through the functions
 * it calls: code that must not run where FAL_WN is 32 unless it is
 * itself rendered as a warp body (a loop kernel with a warp per element,
 * lower_plan.c). */
static bool reaches_warp_body(Ctx *c, const Node *n, int depth)
{
  for (const Node *m = n; m; m = node_next(m, n, true)) {
    if (m->kind != K_CALL_EXPRESSION)
      continue;
    FuncInfo *f = callee(c, m);
    if (!f)
      continue;
    if (warp_body_fn(c, f))
      return true;
    if (depth >= W_MAXDEPTH || reaches_warp_body(c, node_field(f->def, F_BODY), depth + 1))
      return true; /* too deep to tell: as if it did */
  }
  return false;
}

bool calls_warp_body(Ctx *c, const Node *n)
{
  return reaches_warp_body(c, n, 0);
}

/* ---- rendering helpers ---------------------------------------------------- */

WarpScope warp_begin(Ctx *c, WarpInfo *wi)
{
  WarpScope saved = {c->warp, c->warp_nbr};
  c->warp = wi;
  c->warp_nbr = 0;
  return saved;
}

void warp_end(Ctx *c, WarpScope saved)
{
  c->warp = saved.warp;
  c->warp_nbr = saved.nbr;
}

void warp_explain(Ctx *c, const Node *n, bool warp, const char *why, const char *what)
{
  if (!c->opt->explain || !(warp || (why && strcmp(why, "no neighbour loop to share") != 0)))
    return;
  if (warp)
    fprintf(stderr, "%s:%u: foreach: a thread per %s, or a warp per %s on graphs of average "
            "degree 8 or more (the lanes share its neighbour loops)\n", c->src->path,
            n->loc.line, what, what);
  else
    fprintf(stderr, "%s:%u: foreach: a thread per %s (no warp per %s: %s)\n", c->src->path,
            n->loc.line, what, what, why ? why : "?");
}

bool warp_lane0(const Ctx *c, const Node *stmt)
{
  if (!c->warp || c->warp_nbr)
    return false;
  for (int i = 0; i < c->warp->nlane0; i++)
    if (c->warp->lane0[i] == stmt)
      return true;
  return false;
}

int warp_sums(Ctx *c, const Node *loop, const char **names, int max)
{
  int n = 0;
  if (!c->warp || c->warp_nbr)
    return 0;
  for (int i = 0; i < c->warp->nsums && n < max; i++)
    if (c->warp->sums[i].loop == loop)
      names[n++] = text_of(c, c->warp->sums[i].var);
  return n;
}
