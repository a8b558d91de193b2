/*
 * lower_coll.c: Collections (§3.5) and Sets (§3.4): declarations,
 * parameters, their operations, whole assignment, and foreach over a
 * collection (§4.1).  The runtime is falcon/coll.h (+ falcon/cuda.cuh).
 *
 * Naming in the output: host code calls fal_hc_* (collections) and
 * fal_hs_* (sets), which on the CUDA target look at where the object
 * lives at run time; code that runs per element (loop bodies, element
 * functions, kernels) calls fal_coll_* and fal_set_* on the object itself.
 *
 *   Collection c[Point(g)];   ->  fal_coll fal_cs_c; fal_coll *c = &fal_cs_c;
 *                                 fal_hc_init(c, sizeof(fal_point));
 *   c.add(t)                  ->  fal_coll_addp(c, (fal_point)(t))
 *   foreach (t In c) S        ->  drain loop: each batch of c (all of it,
 *                                 or one bucket when ordered) as a
 *                                 parallel loop or a kernel
 *   Set s[Point(g)];          ->  fal_set ...; fal_set_init(s, &g->npoints, ...)
 */
#include "lower.h"

#include <stdlib.h>
#include <string.h>

bool host_code(const Ctx *c)
{
  return !c->element && c->foreach_depth == 0 && !c->in_kernel;
}

/* The scalar steps of a loop the planner put on the device (lower_plan.c
 * device_loop_kernel): host code run by the kernel's leader thread. */
static bool loop_step_code(const Ctx *c)
{
  return c->loop_kernel && c->loop_step && c->in_kernel;
}

/* The Collection or Set an expression names: `c`, `*c`, `c.items`,
 * `(c)`; NULL if it names none. */
const Sym *coll_sym(Ctx *c, const Node *e)
{
  while (e) {
    if (e->kind == K_PARENTHESIZED_EXPRESSION) {
      e = node_named_child(e, 0);
    } else if (e->kind == K_POINTER_EXPRESSION &&
               node_text_is(c->src, node_field(e, F_OPERATOR), "*")) {
      e = node_field(e, F_ARGUMENT);
    } else if (e->kind == K_FIELD_EXPRESSION &&
               node_text_is(c->src, node_field(e, F_FIELD), "items")) {
      e = node_field(e, F_ARGUMENT);
    } else {
      break;
    }
  }
  const Sym *s = ident_sym(c, e);
  return s && (s->kind == FK_COLL || s->kind == FK_SET) ? s : NULL;
}

/* ---- declarations and parameters ----------------------------------------- */

typedef struct Elem {
  const char *ctype; /* the element's C type */
  const char *graph; /* Point(g) / Edge(g) / struct T (g): g */
  FalKind kind;      /* FK_POINT, FK_EDGE, FK_ELEM (elements of a view),
                      * FK_PROPVAL (graph-bound struct values) or FK_NONE */
  const char *view;  /* FK_ELEM: the view; FK_PROPVAL: the struct (§3.6) */
} Elem;

static const Node *element_declarator_in(const Node *d)
{
  while (d && d->kind != K_ELEMENT_DECLARATOR)
    d = node_field(d, F_DECLARATOR);
  return d;
}

static bool elem_of(Ctx *c, const Node *ed, Elem *out)
{
  const Node *el = node_field(ed, F_ELEMENT);
  if (!el)
    return false;
  if (el->kind == K_POINT_TYPE || el->kind == K_EDGE_TYPE) {
    bool point = el->kind == K_POINT_TYPE;
    const char *g = bound_graph_of(c, node_field(el, F_GRAPH));
    if (!g)
      return false;
    *out = (Elem){point ? "fal_point" : "fal_edge", g, point ? FK_POINT : FK_EDGE, NULL};
    return true;
  }
  if (el->kind == K_BOUND_STRUCT_TYPE) { /* struct T (g) (§3.6) */
    Bound b;
    if (!bound_struct_of(c, el, &b))
      return false;
    if (b.view)
      *out = (Elem){"int", b.graph, FK_ELEM, b.view->name};
    else
      *out = (Elem){ctx_printf(c, "struct %s", b.sname), b.graph, FK_PROPVAL, b.sname};
    return true;
  }
  *out = (Elem){text_of(c, el), NULL, FK_NONE, NULL};
  return true;
}

/* Collection *p[...]: a pointer declarator above the element declarator. */
static bool is_pointer_declarator(const Node *d)
{
  for (; d && d->kind != K_ELEMENT_DECLARATOR; d = node_field(d, F_DECLARATOR))
    if (d->kind == K_POINTER_DECLARATOR)
      return true;
  return false;
}

static Sym *add_coll_sym(Ctx *c, const char *name, FalKind kind, const Elem *el,
                         bool gpu, bool local)
{
  Sym *s = sym_add(c, name, kind, el->graph, NULL);
  s->ctype = xstrdup(el->ctype);
  s->elem = el->kind;
  s->view = el->view ? xstrdup(el->view) : NULL;
  s->gpu = gpu;
  s->local = local;
  return s;
}

/* Collection c[Point(g)], d[struct node];  Set s[Point(g)];
 * Each declarator becomes its own declarations and initialisation. */
void render_coll_declaration(Ctx *c, const Node *n, const Node *type, FalKind kind)
{
  bool local = c->element || c->foreach_depth > 0;
  bool file_scope = c->fn == NULL;
  const char *storage = in_main(c) ? "static " : "";
  bool first = true;
  for (const Node *d = n->child; d; d = d->next) {
    if (d->field != F_DECLARATOR)
      continue;
    const Node *ed = element_declarator_in(d);
    const Node *id = ed ? declarator_name(ed) : NULL;
    if (!ed || !id) {
      error_at(c->src, d->loc, "a %s is declared as '%s name[%s]' (§3.%d)",
               kind == FK_SET ? "Set" : "Collection",
               kind == FK_SET ? "Set" : "Collection",
               kind == FK_SET ? "Point(g)" : "Point(g) or struct T",
               kind == FK_SET ? 4 : 5);
      continue;
    }
    Elem el;
    if (!elem_of(c, ed, &el))
      continue;
    char *name = text_of(c, id);
    const char *dev = gpu_device_of(c, d);
    bool gpu = c->gpu && (el.graph ? graph_on_gpu(c, el.graph) : dev != NULL);
    if (!first)
      put(c, " ");
    first = false;
    if (file_scope)
      copy_range(c, n->start, type->start); /* static, extern */
    if (kind == FK_SET) {
      if (el.kind != FK_POINT) {
        error_at(c->src, ed->loc, "a Set holds the points of a graph: "
                 "'Set %s[Point(g)]' (§3.4)", name);
        continue;
      }
      if (local) {
        report_unsupported(c, n, "a Set declared in code that runs per "
                                 "element (declare it in host code)");
        continue;
      }
      if (file_scope) {
        /* A constant initialiser (no code runs at file scope in C): the
         * parent array is made when the Set is first used after its graph
         * is read (fal_set_ready, fal_hs_ready; §3.4). */
        putf(c, "fal_set fal_ss_%s = {NULL, 0, &fal_gs_%s.npoints, %d, -1, "
             "&fal_gs_%s.fal_base}; fal_set *%s = &fal_ss_%s;", name, el.graph, gpu ? 1 : 0,
             el.graph, name, name);
        add_coll_sym(c, name, kind, &el, gpu, local);
        continue;
      }
      putf(c, "%sfal_set fal_ss_%s; fal_set *%s = &fal_ss_%s; %s(%s, &%s->npoints, "
           "&%s->fal_base);", storage, name, name, name,
           gpu ? "fal_hs_init_gpu" : "fal_set_init", name, el.graph, el.graph);
    } else if (local) {
      if (c->gpu)
        putf(c, "fal_local_coll fal_cs_%s(sizeof(%s)); fal_coll *%s = &fal_cs_%s.c;",
             name, el.ctype, name, name);
      else
        putf(c, "fal_coll fal_cs_%s __attribute__((cleanup(fal_coll_local_free))); "
             "fal_coll *%s = &fal_cs_%s; fal_coll_local_init(%s, sizeof(%s));",
             name, name, name, name, el.ctype);
      gpu = false;
    } else if (is_pointer_declarator(d)) {
      /* Collection *p[Point(g)]: a pointer to a collection (§3.5),
       * set with `p = &c;` */
      putf(c, "fal_coll *%s = NULL;", name);
      add_coll_sym(c, name, kind, &el, gpu, false)->ptr = true;
      continue;
    } else if (file_scope) {
      if (gpu) {
        report_unsupported(c, n, "a GPU Collection at file scope");
        continue;
      }
      /* A constant initialiser: its store is a file-scope object too. */
      putf(c, "fal_cstore fal_cst_%s; ", name);
      copy_range(c, n->start, type->start);
      putf(c, "fal_coll fal_cs_%s = {0, (int64_t)sizeof(%s), &fal_cst_%s}; "
           "fal_coll *%s = &fal_cs_%s;", name, el.ctype, name, name, name);
    } else if (gpu) {
      putf(c, "%sfal_coll fal_cs_%s; fal_coll *%s = &fal_cs_%s; "
           "fal_hc_init_gpu(%s, sizeof(%s), %s%s%s, %s);", storage, name, name, name,
           name, el.ctype, el.graph ? "&" : "", el.graph ? el.graph : "NULL",
           el.graph ? "->fal_base" : "", dev ? dev : "-1");
    } else {
      putf(c, "%sfal_coll fal_cs_%s; fal_coll *%s = &fal_cs_%s; fal_hc_init(%s, "
           "sizeof(%s));", storage, name, name, name, name, el.ctype);
    }
    add_coll_sym(c, name, kind, &el, gpu, local);
  }
}

/* Collection c[Point(g)], Collection *c[Point(g)], Set s[Point(g)] as
 * parameters: a pointer to the object. */
void render_coll_parameter(Ctx *c, const Node *n, const Node *type, FalKind kind)
{
  (void)type;
  const Node *d = node_field(n, F_DECLARATOR);
  const Node *ed = element_declarator_in(d);
  const Node *id = ed ? declarator_name(ed) : NULL;
  put(c, kind == FK_SET ? "fal_set *" : "fal_coll *");
  if (!id) {
    if (d)
      error_at(c->src, d->loc, "a %s parameter is written 'name[Point(g)]'",
               kind == FK_SET ? "Set" : "Collection");
    return;
  }
  char *name = text_of(c, id);
  put(c, name);
  if (!c->fn) /* a prototype */
    return;
  Elem el;
  if (!elem_of(c, ed, &el))
    return;
  bool gpu = c->gpu && (el.graph ? graph_on_gpu(c, el.graph) : gpu_device_of(c, d) != NULL);
  add_coll_sym(c, name, kind, &el, gpu, false);
}

/* ---- operations --------------------------------------------------------------- */

static const char *obj_name(Ctx *c, const Sym *s, const Node *at)
{
  if (c->in_kernel)
    note_use(c, s, at);
  return s->name;
}

/* A value added to a collection of T: a temporary of type T. */
static void put_add(Ctx *c, const Sym *s, const char *obj, const char *x, bool host)
{
  const char *pre = host ? "fal_hc" : s->local ? "fal_lcoll" : "fal_coll";
  if (s->elem == FK_POINT || s->elem == FK_ELEM) { /* 4-byte ids (§3.6: indices) */
    putf(c, "%s_addp(%s, (fal_point)(%s))", pre, obj, x);
  } else if (c->gpu) {
    putf(c, "[&]() { %s fal_v = (%s); %s_add(%s, &fal_v); }()", s->ctype, x, pre, obj);
  } else { /* a one-element array literal holds the value */
    putf(c, "%s_add(%s, (%s[1]){%s})", pre, obj, s->ctype, x);
  }
}

static bool check_host(Ctx *c, const Node *n, const char *what)
{
  if (host_code(c))
    return true;
  error_at(c->src, n->loc, "%s is only allowed in host code, not inside a "
           "parallel foreach (§3.5)", what);
  return false;
}

static void render_order(Ctx *c, const Node *n, const Sym *s, const char *obj,
                         const Node *args)
{
  const Node *f = node_named_child(args, 0);
  if (node_named_count(args) != 2 || !f || f->kind != K_IDENTIFIER) {
    error_at(c->src, n->loc, "OrderByIntValue takes a field name and a shift: "
             "c.OrderByIntValue(dist, k) (§3.5)");
    return;
  }
  char *field = text_of(c, f);
  char *k = render_str(c, node_named_child(args, 1));
  if (s->elem == FK_POINT) {
    const Prop *p = program_prop(c->prog, field);
    if (!p || p->kind != PK_POINT || strcmp(p->ctype, "int") != 0) {
      error_at(c->src, f->loc, "OrderByIntValue needs an int point property; "
               "'%s' is not one (§3.5)", field);
      return;
    }
    putf(c, "fal_hc_order(%s, &%s->%s, 0, %s)", obj, s->graph, field, k);
  } else if (s->elem == FK_NONE) {
    putf(c, "fal_hc_order(%s, NULL, (int64_t)offsetof(%s, %s), %s)", obj, s->ctype,
         field, k);
  } else {
    error_at(c->src, n->loc, "OrderByIntValue orders points or structs (§3.5)");
  }
}

static bool render_set_call(Ctx *c, const Node *n, const Sym *s, const Node *obj_node,
                            const char *m)
{
  const Node *args = node_field(n, F_ARGUMENTS);
  int nargs = node_named_count(args);
  bool host = host_code(c);
  const char *obj = obj_name(c, s, obj_node);
  const char *op = NULL;
  int want = 1;
  if (strcmp(m, "find") == 0)
    op = "find";
  else if (strcmp(m, "Findcompress") == 0 || strcmp(m, "findcompress") == 0)
    op = "findc";
  else if (strcmp(m, "Union") == 0 || strcmp(m, "Merge") == 0 ||
           strcmp(m, "union") == 0 || strcmp(m, "merge") == 0)
    op = "union", want = 2;
  if (!op) {
    error_at(c->src, n->loc, "unknown Set member function '%s': find, "
             "Findcompress, Union, Merge (§3.4)", m);
    return true;
  }
  if (nargs != want) {
    error_at(c->src, n->loc, "%s takes %d argument%s (§3.4)", m, want,
             want == 1 ? "" : "s");
    return true;
  }
  putf(c, "%s_%s(%s, %s", host ? "fal_hs" : "fal_set", op, obj,
       render_str(c, node_named_child(args, 0)));
  if (want == 2)
    putf(c, ", %s", render_str(c, node_named_child(args, 1)));
  put(c, ")");
  return true;
}

/* c.add(x), c.del(x), c.getSize(), c.clear(), c.empty(),
 * c.OrderByIntValue(f, k); s.find(x), s.Union(a, b), ... */
bool render_coll_call(Ctx *c, const Node *n, const Node *obj_node, const char *m)
{
  const Sym *s = coll_sym(c, obj_node);
  if (!s)
    return false;
  if (s->kind == FK_SET)
    return render_set_call(c, n, s, obj_node, m);
  const Node *args = node_field(n, F_ARGUMENTS);
  int nargs = node_named_count(args);
  bool host = host_code(c);
  const char *obj = obj_name(c, s, obj_node);
  const char *pre = host ? "fal_hc" : "fal_coll";
  if ((strcmp(m, "add") == 0 || strcmp(m, "push") == 0) && nargs == 1) {
    const Node *x = node_named_child(args, 0);
    put_add(c, s, obj, s->elem == FK_ELEM ? render_elem_value(c, x, s->view) : render_str(c, x),
            host);
  } else if ((strcmp(m, "del") == 0 || strcmp(m, "pop") == 0) && nargs == 1) {
    if (c->in_kernel) {
      error_at(c->src, n->loc, "'%s.%s' is not available in GPU code (§3.5)", s->name, m);
      return true;
    }
    putf(c, "%s_pop(%s, &(%s))", host ? "fal_hc" : "fal_coll", obj,
         render_str(c, node_named_child(args, 0)));
  } else if ((strcmp(m, "getSize") == 0 || strcmp(m, "size") == 0) && nargs == 0) {
    putf(c, "%s_size(%s)", pre, obj);
  } else if (strcmp(m, "empty") == 0 && nargs == 0) {
    putf(c, "(%s_size(%s) == 0)", pre, obj);
  } else if (strcmp(m, "clear") == 0 && nargs == 0) {
    if (c->in_kernel && !s->local) {
      error_at(c->src, n->loc, "a GPU foreach cannot clear '%s'; clear it in "
               "host code (§3.5)", s->name);
      return true;
    }
    putf(c, "%s_set_size(%s, 0)", s->local ? "fal_lcoll" : pre, obj);
  } else if (strcmp(m, "OrderByIntValue") == 0) {
    if (check_host(c, n, "OrderByIntValue"))
      render_order(c, n, s, obj, args);
  } else {
    error_at(c->src, n->loc, "unknown Collection member function '%s' or wrong "
             "number of arguments: add, push, del, getSize, clear, empty, "
             "OrderByIntValue (§3.5)", m);
  }
  return true;
}

/* c.size (read); assignments are render_coll_assignment's. */
bool render_coll_field(Ctx *c, const Node *n)
{
  const Node *obj = node_field(n, F_ARGUMENT);
  const Sym *s = coll_sym(c, obj);
  if (!s)
    return false;
  const char *f = text_of(c, node_field(n, F_FIELD));
  if (s->kind == FK_COLL && strcmp(f, "size") == 0) {
    putf(c, "%s_size(%s)", host_code(c) ? "fal_hc" : "fal_coll", obj_name(c, s, obj));
    return true;
  }
  error_at(c->src, n->loc, "a %s has no field '%s'%s", s->kind == FK_SET ? "Set" : "Collection",
           f, s->kind == FK_COLL ? " (it has 'size', §3.5)" : " (§3.4)");
  return true;
}

/* c[i]: element i. */
bool render_coll_subscript(Ctx *c, const Node *n)
{
  const Node *obj = node_field(n, F_ARGUMENT);
  const Sym *s = coll_sym(c, obj);
  if (!s || s->kind != FK_COLL)
    return false;
  const char *name = obj_name(c, s, obj);
  bool lv = c->lvalue;
  c->lvalue = false;
  char *i = render_str(c, node_field(n, F_INDEX));
  c->lvalue = lv;
  if (host_code(c) && c->gpu && !lv)
    putf(c, "fal_hc_get<%s>(%s, %s)", s->ctype, name, i);
  else
    putf(c, "(*(%s *)%s_at(%s, %s))", s->ctype,
         host_code(c) ? "fal_hc" : s->local ? "fal_lcoll" : "fal_coll", name, i);
  return true;
}

/* c1 = c2 (§3.5), s1 = s2 (§2, §5), c.size = n. */
bool render_coll_assignment(Ctx *c, const Node *n)
{
  const Node *l = node_field(n, F_LEFT), *r = node_field(n, F_RIGHT);
  bool eq = node_text_is(c->src, node_field(n, F_OPERATOR), "=");
  if (l && l->kind == K_FIELD_EXPRESSION &&
      node_text_is(c->src, node_field(l, F_FIELD), "size")) {
    const Sym *s = coll_sym(c, node_field(l, F_ARGUMENT));
    if (!s || s->kind != FK_COLL)
      return false;
    if (!eq) {
      error_at(c->src, n->loc, "'%s.size' is assigned with '=' (§3.5)", s->name);
      return true;
    }
    if (c->in_kernel && !s->local && loop_step_code(c)) {
      putf(c, "fal_d_coll_set_size(%s, %s)", obj_name(c, s, node_field(l, F_ARGUMENT)),
           render_str(c, r));
      return true;
    }
    if (c->in_kernel && !s->local) {
      error_at(c->src, n->loc, "a GPU foreach cannot assign '%s.size'; do it in "
               "host code (§3.5)", s->name);
      return true;
    }
    putf(c, "%s_set_size(%s, %s)", s->local ? "fal_lcoll" : host_code(c) ? "fal_hc" : "fal_coll",
         obj_name(c, s, node_field(l, F_ARGUMENT)), render_str(c, r));
    return true;
  }
  const Sym *a = coll_sym(c, l), *b = coll_sym(c, r);
  if (!a && !b && !(l && r && r->kind == K_POINTER_EXPRESSION &&
                    coll_sym(c, node_field(r, F_ARGUMENT))))
    return false;
  /* p = &c; p = q; (p a Collection pointer, §3.5) */
  if (a && a->ptr && l->kind == K_IDENTIFIER) {
    const Node *rr = r;
    rr = node_unparen(rr);
    const Sym *t = NULL;
    if (rr && rr->kind == K_POINTER_EXPRESSION &&
        node_text_is(c->src, node_field(rr, F_OPERATOR), "&"))
      t = ident_sym(c, node_field(rr, F_ARGUMENT));
    else if (rr && rr->kind == K_IDENTIFIER && b && b->ptr)
      t = b;
    else if (rr && rr->kind == K_IDENTIFIER && (rr->end - rr->start == 4) &&
             node_text_is(c->src, rr, "NULL"))
      t = a;
    if (!t || t->kind != FK_COLL || !eq) {
      error_at(c->src, n->loc, "'%s' points to a Collection: assign it '&c' or "
               "another pointer (§3.5)", a->name);
      return true;
    }
    if (t != a && strcmp(t->ctype, a->ctype) != 0) {
      error_at(c->src, n->loc, "'%s' points to a Collection of %s, '%s' holds %s",
               a->name, a->ctype, t->name, t->ctype);
      return true;
    }
    if (!check_host(c, n, "assigning a Collection pointer"))
      return true;
    putf(c, "(%s = %s)", a->name, t == a ? "NULL" : t->name);
    return true;
  }
  if ((a && a->ptr && l->kind == K_IDENTIFIER) ||
      (b && b->ptr && r->kind == K_IDENTIFIER)) {
    error_at(c->src, n->loc, "'%s' is a pointer to a Collection: write '*%s' for "
             "the collection (§3.5)", (a && a->ptr) ? a->name : b->name,
             (a && a->ptr) ? a->name : b->name);
    return true;
  }
  if (!a && !b) { /* x = &c, x not a Collection pointer */
    error_at(c->src, n->loc, "the address of a Collection is assigned only to a "
             "Collection pointer (§3.5)");
    return true;
  }
  if (!a || !b || a->kind != b->kind || !eq) {
    error_at(c->src, n->loc, "a %s is assigned only from another %s (§3.%d)",
             (a ? a : b)->kind == FK_SET ? "Set" : "Collection",
             (a ? a : b)->kind == FK_SET ? "Set" : "Collection",
             (a ? a : b)->kind == FK_SET ? 4 : 5);
    return true;
  }
  if (a->kind == FK_COLL && strcmp(a->ctype, b->ctype) != 0) {
    error_at(c->src, n->loc, "'%s' holds %s and '%s' holds %s", a->name, a->ctype,
             b->name, b->ctype);
    return true;
  }
  if (a->kind == FK_COLL && loop_step_code(c)) { /* plan.c: both on the loop's GPU */
    putf(c, "fal_d_coll_assign(%s, %s)", obj_name(c, a, l), obj_name(c, b, r));
    return true;
  }
  if (!check_host(c, n, "assigning a whole Collection or Set"))
    return true;
  putf(c, "%s(%s, %s)", a->kind == FK_SET ? "fal_hs_assign" : "fal_hc_assign",
       a->name, b->name);
  return true;
}

/* `&c` of a Collection: the lowered `c` is already a pointer to it, as a
 * `Collection *x[...]` parameter or pointer expects (§3.5). */
bool render_coll_address(Ctx *c, const Node *n)
{
  const Node *arg = node_field(n, F_ARGUMENT);
  if (!node_text_is(c->src, node_field(n, F_OPERATOR), "&"))
    return false;
  arg = node_unparen(arg);
  const Sym *s = arg && arg->kind == K_IDENTIFIER ? ident_sym(c, arg) : NULL;
  if (!s || s->kind != FK_COLL)
    return false;
  if (s->ptr) {
    error_at(c->src, n->loc, "'%s' is already a pointer to a Collection (§3.5)", s->name);
    return true;
  }
  put(c, obj_name(c, s, arg));
  return true;
}

/* Sets used by a parallel loop are sized first (a Set may be declared
 * before its graph is read). */
void ready_sets(Ctx *c)
{
  for (int i = 0; i < c->nsyms; i++)
    if (c->syms[i].kind == FK_SET && !sym_shadowed(c, &c->syms[i]))
      putf(c, "fal_hs_ready(%s); ", c->syms[i].name);
}

/* ---- foreach over a collection (§4.1, §3.5) ------------------------------ */

static void bind_element(Ctx *c, const Sym *s, const char *var)
{
  if (s->elem == FK_POINT || s->elem == FK_EDGE)
    sym_add(c, var, s->elem, s->graph, NULL);
  else if (s->elem == FK_ELEM || s->elem == FK_PROPVAL) /* §3.6 */
    sym_add(c, var, s->elem, s->graph, NULL)->ctype = xstrdup(s->view);
  else
    sym_add(c, var, FK_NONE, NULL, NULL);
}

/* Inside per-element code: a sequential loop over the elements there are
 * when it starts. */
static void render_coll_loop_seq(Ctx *c, const Node *n, const Sym *s, const char *var)
{
  int id = ++c->uniq;
  const char *obj = obj_name(c, s, node_field(n, F_ITERABLE));
  putf(c, "{ fal_coll *fal_c%d = %s; int64_t fal_n%d = fal_coll_size(fal_c%d); "
       "for (int64_t fal_i%d = 0; fal_i%d < fal_n%d; fal_i%d++) { %s %s = *(%s *)"
       "%s(fal_c%d, fal_i%d); ", id, obj, id, id, id, id, id, id, s->ctype,
       var, s->ctype, s->local ? "fal_lcoll_at" : "fal_coll_at", id, id);
  int mark = c->nsyms;
  bind_element(c, s, var);
  render_foreach_body(c, n, false);
  sym_pop(c, mark);
  put(c, " } }");
}

static void put_single_resets(Ctx *c, const Sym *s, bool sp, bool se, bool gpu)
{
  if (!s->graph)
    return;
  const char *fn = gpu ? "fal_gpu_single_reset" : "fal_single_reset";
  const char *tail = gpu ? ", __FILE__, __LINE__" : "";
  if (sp)
    putf(c, "%s(&%s->fal_base, 0%s); ", fn, s->graph, tail);
  if (se)
    putf(c, "%s(&%s->fal_base, 1%s); ", fn, s->graph, tail);
}

/* `for (i < count) { T var = batch[i]; body }` over a drain's batch
 * (fal_i<id> its index). */
static void put_elem_loop(Ctx *c, const Sym *s, const char *var, int id, const char *batch,
                          const char *count, const char *body)
{
  putf(c, "for (int64_t fal_i%d = 0; fal_i%d < %s; fal_i%d++) { %s %s = *(%s *)"
       "fal_coll_at(%s, fal_i%d); %s }", id, id, count, id, s->ctype, var, s->ctype, batch, id, body);
}

/* What this thread added to the current bucket of ordered drain <id>
 * itself, while it is small, at once (fal_coll_bin_take). */
static void put_bin_take(Ctx *c, const Sym *s, const char *var, int id, const char *body)
{
  putf(c, "{ int64_t fal_k%d; const void *fal_x%d; "
       "while ((fal_x%d = fal_coll_bin_take(fal_c%d, &fal_k%d)) != NULL) for (int64_t fal_i%d = 0; "
       "fal_i%d < fal_k%d; fal_i%d++) { %s %s = ((const %s *)fal_x%d)[fal_i%d]; %s } }",
       id, id, id, id, id, id, id, id, id, s->ctype, var, s->ctype, id, id, body);
}

/* The drain: every batch of the collection (all of it, or one bucket of
 * an ordered collection at a time) runs as a parallel loop. */
static void render_coll_loop_cpu(Ctx *c, const Node *n, const Sym *s, const char *var)
{
  int id = ++c->uniq;
  int mark = c->nsyms;
  bind_element(c, s, var);
  bool sp = c->single_points, se = c->single_edges;
  c->single_points = c->single_edges = false;
  CollSingle cs, *scs;
  coll_single_enter(c, &cs, &scs, true, ctx_printf(c, "fal_i%d", id));
  char *body;
  {
    StrBuf b = {0}, *saved = c->out;
    c->out = &b;
    render_foreach_body(c, n, true);
    c->out = saved;
    body = ctx_own(c, b.data ? b.data : xstrdup(""));
  }
  coll_single_leave(c, &cs, scs);
  sym_pop(c, mark);
  putf(c, "{ fal_coll *fal_c%d = %s; ", id, s->name);
  ready_sets(c);
  put_single_resets(c, s, c->single_points, c->single_edges, false);
  c->single_points |= sp;
  c->single_edges |= se;
  if (!cs.used) {
    /* One parallel region for the whole drain: the threads stay up from
     * batch to batch (a barrier, and one thread takes the next batch,
     * which on the host gathers the threads' own bucket lists). */
    putf(c, "fal_hc_drain_begin(fal_c%d); int fal_s%d = fal_hc_drain_next(fal_c%d, 0); ", id, id, id);
    /* A small unordered batch runs in this thread (one schedule of a
     * parallel foreach, §4.1): starting the threads and joining them costs
     * more than a hundred light elements (falcon/coll.h FAL_DRAIN_SERIAL;
     * docs/optimiser.md "Collection drains"). */
    putf(c, "int64_t fal_q%d = fal_s%d && !fal_c%d->ordered ? fal_hc_size(fal_c%d) : "
         "(int64_t)FAL_DRAIN_SERIAL; if (fal_q%d < FAL_DRAIN_SERIAL) { ", id, id, id, id, id);
    put_elem_loop(c, s, var, id, ctx_printf(c, "fal_c%d", id), ctx_printf(c, "fal_q%d", id), body);
    putf(c, " } else if (fal_s%d) {", id);
    pragma_line(c, "omp parallel");
    /* Adds to other collections are buffered per thread (fal_abuf_*,
     * falcon/coll.h) and appended before each barrier. */
    putf(c, "{ fal_abuf_begin(); for (int fal_r%d = 0; ; fal_r%d++) { int64_t fal_n%d; fal_coll *fal_b%d = "
         "fal_hc_batch(fal_c%d, &fal_n%d);", id, id, id, id, id, id);
    pragma_line(c, ctx_printf(c, "omp for schedule(dynamic, fal_omp_chunk(fal_n%d)) nowait", id));
    resync(c, n->start);
    put_elem_loop(c, s, var, id, ctx_printf(c, "fal_b%d", id), ctx_printf(c, "fal_n%d", id), body);
    /* An unordered collection is one batch: the region's end is the
     * only barrier, as for a parallel for.  An ordered one: what this
     * thread added to the current bucket itself (put_bin_take; the body
     * is printed again for it), then the barrier and the next batch. */
    putf(c, "\nif (!fal_c%d->ordered) break;\n", id);
    put_bin_take(c, s, var, id, body);
    put(c, "\nfal_abuf_flush();");
    pragma_line(c, "omp barrier");
    pragma_line(c, "omp single");
    /* The thread that forms the next batch runs it alone while batches
     * stay small (FAL_DRAIN_SERIAL), forming each next one itself: the
     * others wait at the single's barrier instead of one barrier a batch.
     * One thread running a batch is a schedule §4.1 allows; its adds go
     * to its own bucket lists (and it takes those of the current bucket,
     * as any thread does), and the others' lists do not change while
     * they wait, so each next batch is the one the threads together
     * would form. */
    putf(c, "{ fal_s%d = fal_hc_drain_next(fal_c%d, fal_r%d + 1);\n"
         "while (fal_s%d) { int64_t fal_m%d; fal_coll *fal_bm%d = fal_hc_batch(fal_c%d, &fal_m%d); "
         "if (fal_m%d >= FAL_DRAIN_SERIAL) break; ", id, id, id, id, id, id, id, id, id);
    put_elem_loop(c, s, var, id, ctx_printf(c, "fal_bm%d", id), ctx_printf(c, "fal_m%d", id), body);
    put(c, "\n");
    put_bin_take(c, s, var, id, body);
    putf(c, "\nfal_abuf_flush(); fal_s%d = fal_hc_drain_next(fal_c%d, fal_r%d + 1); } }\n", id, id, id);
    putf(c, "if (!fal_s%d) break; } "
         "fal_abuf_end(); } } fal_hc_drain_end(fal_c%d); }", id, id);
    strbuf_free(&cs.begins);
    return;
  }
  putf(c, "fal_hc_drain_begin(fal_c%d); for (int fal_r%d = 0; fal_hc_drain_next(fal_c%d, "
       "fal_r%d); fal_r%d++) { int64_t fal_n%d; fal_coll *fal_b%d = fal_hc_batch(fal_c%d, "
       "&fal_n%d);", id, id, id, id, id, id, id, id, id);
  { /* the two phases of a single on a Collection (§4.3) */
    put(c, " ");
    coll_single_phases(c, &cs, ctx_printf(c, "fal_n%d", id), NULL);
  }
  pragma_line(c, "omp parallel for schedule(dynamic, 256)");
  resync(c, n->start);
  put_elem_loop(c, s, var, id, ctx_printf(c, "fal_b%d", id), ctx_printf(c, "fal_n%d", id), body);
  putf(c, "%s } fal_hc_drain_end(fal_c%d); }", cs.used ? " } fal_pend_free(fal_pend);" : "", id);
  strbuf_free(&cs.begins);
}

/* The same on the GPU: a kernel per batch. */
static void render_coll_loop_gpu(Ctx *c, const Node *n, const Sym *s, const char *var)
{
  const char *name = kernel_name(c, n, "foreach");
  KernelState saved = kernel_enter(c);
  int mark = c->nsyms;
  bind_element(c, s, var);
  CollSingle cs, *scs;
  coll_single_enter(c, &cs, &scs, true, "fal_i");
  StrBuf body = {0}, *out = c->out;
  c->out = &body;
  render_foreach_body(c, n, true);
  c->out = out;
  /* The same body with a warp per element (lower_warp.c's rule, as for
   * a foreach over g.points): the lanes share its neighbour loops.  The
   * host picks the kernels by the graph's degree (fal_gc_warp_pick). */
  StrBuf wbody = {0};
  const char *why = NULL;
  WarpInfo wi;
  bool warp = s->elem == FK_POINT && !cs.used && warp_body_check(c, n, var, &wi, &why);
  if (warp) {
    WarpScope ws = warp_begin(c, &wi);
    c->out = &wbody;
    render_foreach_body(c, n, true);
    c->out = out;
    warp_end(c, ws);
  }
  warp_explain(c, n, warp, why, "element");
  coll_single_leave(c, &cs, scs);
  sym_pop(c, mark);
  StrBuf params = {0}, views = {0}, args = {0}, pre = {0}, post = {0};
  kernel_signature(c, &params, &views, &args, &pre, &post);
  if (cs.used) /* the two phases of a single on a Collection (§4.3) */
    coll_single_params(c, &params, &args);
  StrBuf *k = &c->kernels;
  /* A thread per element, then (warp) a warp per element: blocks of
   * 32 x FAL_BLOCK/32, threadIdx.y the warp. */
  for (int w = 0; w <= (warp ? 1 : 0); w++) {
    const char *idx = w ? "blockIdx.x * (int64_t)blockDim.y + threadIdx.y"
                        : "blockIdx.x * (int64_t)blockDim.x + threadIdx.x";
    const char *step = w ? "(int64_t)gridDim.x * blockDim.y" : "(int64_t)gridDim.x * blockDim.x";
    const char *b = w ? wbody.data : body.data;
    if (c->opt->line_directives)
      emit_line_directive(k, n->loc.line, c->src->path);
    strbuf_printf(k, "__global__ void %s%s(fal_coll *fal_b, int64_t fal_n%s%s)\n{\n%s%s", name,
                  w ? "_w" : "", params.len ? ", " : "", params.data ? params.data : "",
                  views.data ? views.data : "", w ? "  fal_wbegin();\n" : "");
    strbuf_printf(k, "  for (int64_t fal_i = %s; fal_i < fal_n; fal_i += %s) "
                  "{ %s %s = *(%s *)fal_coll_at(fal_b, fal_i); %s }\n}\n", idx, step, s->ctype,
                  var, s->ctype, b ? b : "");
    /* The drain as one cooperative kernel (ordered collections: batch
     * after batch with grid barriers, fal_drain_step in falcon/cuda.cuh);
     * the host loop below stays for unordered collections and GPUs
     * without cooperative launch.  Not with a single on the collection
     * (its two phases are launches of their own). */
    if (cs.used)
      continue;
    if (c->opt->line_directives)
      emit_line_directive(k, n->loc.line, c->src->path);
    strbuf_printf(k, "__global__ void %s_drain%s(fal_coll *fal_c, long long *fal_w%s%s)\n{\n%s%s",
                  name, w ? "_w" : "", params.len ? ", " : "", params.data ? params.data : "",
                  views.data ? views.data : "", w ? "  fal_wbegin();\n" : "");
    strbuf_printf(k, "  cooperative_groups::grid_group fal_grid = cooperative_groups::this_grid();\n"
                  "  for (;;) {\n"
                  "    fal_coll *fal_b = fal_c->cur;\n"
                  "    int64_t fal_n = fal_coll_size(fal_b);\n"
                  "    for (int64_t fal_i = %s; fal_i < fal_n; fal_i += %s) "
                  "{ %s %s = *(%s *)fal_coll_at(fal_b, fal_i); %s }\n"
                  "    fal_grid.sync();\n"
                  "    if (!fal_drain_step(fal_c, fal_grid, fal_w))\n      break;\n  }\n}\n",
                  idx, step, s->ctype, var, s->ctype, b ? b : "");
  }
  bool sp = c->single_points, se = c->single_edges;
  bool more = args.len > 0;
  char *a = xstrdup(args.data ? args.data : "");
  kernel_leave(c, &saved);
  int id = ++c->uniq;
  putf(c, "{ fal_coll *fal_c%d = %s; ", id, s->name);
  put_single_resets(c, s, sp, se, true);
  /* Batches from the host; the rest of an ordered drain moves into its
   * cooperative kernel once batches are small (fal_gc_drain_switch). */
  putf(c, "fal_hc_drain_begin(fal_c%d); { ", id);
  if (!cs.used)
    putf(c, "fal_loop_sw fal_sw%d = {0}; ", id);
  if (warp)
    putf(c, "const bool fal_wk%d = fal_gc_warp_pick(fal_c%d), fal_dw%d = fal_warp_mode() != 2; ",
         id, id, id);
  putf(c, "for (int fal_r%d = 0; "
       "fal_hc_drain_next(fal_c%d, fal_r%d); fal_r%d++) { int64_t fal_n%d; fal_coll *fal_b%d = "
       "fal_hc_batch(fal_c%d, &fal_n%d); if (fal_n%d == 0) continue; fal_cuda_use(fal_c%d->device); ",
       id, id, id, id, id, id, id, id, id, id);
  const char *wk = ctx_printf(c, "fal_wk%d", id);
  if (!cs.used) {
    const char *launch = ctx_printf(c, "fal_coop_launch_v(%s_drain, \"%s_drain\", __FILE__, "
                                    "__LINE__, fal_hc_dev(fal_c%d), fal_gc_drain_scratch(fal_c%d->device)%s%s);",
                                    name, name, id, id, more ? ", " : "", a);
    /* The drain kernel takes a warp per element whatever the degree
     * (unless FALCON_WARP=off): it runs small batches, and the lanes
     * sharing an element's neighbours shorten the batch's wait (road-FLA
     * sssp_delta on an H100: 51 ms against 82, docs/optimiser.md). */
    const char *dw = ctx_printf(c, "fal_dw%d", id);
    if (warp) /* the warp kernel: fal_coop_launch_wv, blocks of 32 x FAL_BLOCK/32 */
      launch = ctx_printf(c, "if (%s) fal_coop_launch_wv(%s_drain_w, \"%s_drain_w\", __FILE__, "
                          "__LINE__, fal_hc_dev(fal_c%d), fal_gc_drain_scratch(fal_c%d->device)%s%s); "
                          "else %s", dw, name, name, id, id, more ? ", " : "", a, launch);
    putf(c, "if (fal_gc_drain_switch(&fal_sw%d, fal_c%d, %s, fal_n%d)) { "
         "fal_gc_drain_room(fal_c%d); %s%s fal_gc_drain_sync(fal_c%d);%s break; } ",
         id, id,
         warp ? ctx_printf(c, "%s ? (const void *)%s_drain_w : (const void *)%s_drain", dw, name, name)
              : ctx_printf(c, "(const void *)%s_drain", name),
         id, id, pre.data ? pre.data : "", launch, id,
         post.data ? post.data : "");
  }
  if (cs.used)
    coll_single_phases(c, &cs, ctx_printf(c, "fal_n%d", id),
                       ctx_printf(c, "fal_c%d->device", id));
  put(c, pre.data ? pre.data : "");
  if (warp)
    putf(c, "if (%s) %s_w<<<fal_cuda_grid(fal_n%d * 32), dim3(32, FAL_BLOCK / 32)>>>(fal_b%d, "
         "fal_n%d%s%s); else ", wk, name, id, id, id, more ? ", " : "", a);
  putf(c, "%s<<<fal_cuda_grid(fal_n%d), FAL_BLOCK>>>(fal_b%d, fal_n%d%s%s); "
       "FAL_CHECK_LAUNCH(\"%s\");%s%s } } fal_hc_drain_end(fal_c%d); }",
       name, id, id, id, more ? ", " : "", a, name,
       post.data ? post.data : "", cs.used ? " }" : "", id);
  strbuf_free(&cs.begins);
  free(a);
  strbuf_free(&body);
  strbuf_free(&wbody);
  strbuf_free(&params);
  strbuf_free(&views);
  strbuf_free(&args);
  strbuf_free(&pre);
  strbuf_free(&post);
}

bool render_foreach_coll(Ctx *c, const Node *n)
{
  const Node *it = node_field(n, F_ITERABLE);
  const Sym *s = coll_sym(c, it);
  if (!s)
    return false;
  if (s->kind == FK_SET) {
    report_unsupported(c, it, "foreach over a Set (iterate the graph's points "
                              "and use find)");
    return true;
  }
  if (node_field(n, F_OFFSET)) {
    error_at(c->src, node_field(n, F_OFFSET)->loc,
             "an offset '(+ k)' applies to neighbour loops only (§4.1)");
    return true;
  }
  char *var = text_of(c, node_field(n, F_VARIABLE));
  bool parallel = !c->element && c->foreach_depth == 0;
  if (!parallel)
    render_coll_loop_seq(c, n, s, var);
  else if (c->gpu && s->gpu)
    render_coll_loop_gpu(c, n, s, var);
  else
    render_coll_loop_cpu(c, n, s, var);
  return true;
}
