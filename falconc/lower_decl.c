/*
 * lower_decl.c: declarations of graphs, points and edges, placement and
 * getType (§2, §3).  See lower.h for the map of the lowering files.
 */
#include "lower.h"

#include <stdlib.h>
#include <string.h>

/* ---- declarations (§2, §3) ------------------------------------------------ */

/* Strips `<GPU>` and returns the declarator under it. */
static const Node *unplace(const Node *d)
{
  while (d && d->kind == K_PLACED_DECLARATOR)
    d = node_field(d, F_DECLARATOR);
  return d;
}

void report_unsupported(Ctx *c, const Node *n, const char *what)
{
  error_at(c->src, n->loc, "%s is not supported yet", what);
}

/* The graph a point or edge declared without `(g)` belongs to: the one
 * Graph parameter of the enclosing function. */
static const char *default_graph(Ctx *c)
{
  return c->fn ? c->fn->graph_param : NULL;
}

/* The device of a placed declarator: "-1" for <GPU>, "n" for <GPU, n>;
 * NULL when it is not placed on a GPU (or the target is the CPU). */
const char *gpu_device_of(Ctx *c, const Node *d)
{
  if (d && d->kind == K_INIT_DECLARATOR)
    d = node_field(d, F_DECLARATOR);
  if (!c->gpu || !d || d->kind != K_PLACED_DECLARATOR)
    return NULL;
  const Node *pl = node_field(d, F_PLACEMENT);
  if (!pl || !node_text_is(c->src, node_field(pl, F_KIND), "GPU"))
    return NULL;
  const Node *dev = node_field(pl, F_DEVICE);
  return dev ? text_of(c, dev) : "-1";
}

/* CPU target: a graph declared in a function other than main (not
 * static) is freed when its block ends (fal_G_drop, lower.c). */
static const char *graph_cleanup(Ctx *c, const Node *d)
{
  if (c->gpu || !c->fn || strcmp(c->fn->name, "main") == 0)
    return "";
  for (const Node *p = d->parent; p; p = p->parent)
    if (p->kind == K_DECLARATION || p->kind == K_GETTYPE_DECLARATION) {
      for (const Node *ch = p->child; ch && ch->field != F_DECLARATOR; ch = ch->next)
        if (node_text_is(c->src, ch, "static"))
          return "";
      break;
    }
  return " __attribute__((cleanup(fal_G_drop)))";
}

static void render_graph_declarator(Ctx *c, const Node *d, bool param)
{
  const char *dev = gpu_device_of(c, d);
  d = unplace(d);
  if (!d || d->kind != K_IDENTIFIER) {
    error_at(c->src, (d ? d : c->prog->struct_at)->loc,
             "a graph is declared as 'Graph name' (no pointer, array or "
             "initialiser)");
    return;
  }
  char *name = text_of(c, d);
  if (param)
    putf(c, "*%s", name);
  else if (dev)
    putf(c, "fal_gs_%s = fal_G_gpu(%s), *%s = &fal_gs_%s", name, dev, name, name);
  else
    putf(c, "fal_gs_%s%s = {0}, *%s = &fal_gs_%s", name, graph_cleanup(c, d), name, name);
  Sym *s = sym_add(c, name, FK_GRAPH, NULL, NULL);
  /* A Graph <GPU> parameter is a graph on the GPU. */
  s->gpu = dev != NULL || (param && c->gpu && d->parent &&
                           d->parent->kind == K_PLACED_DECLARATOR);
}

/* Point/Edge declarators: `t`, `t = expr`; pointers and arrays of ids are
 * plain C and register no symbol. */
static void render_id_declarator(Ctx *c, const Node *d, FalKind kind,
                                 const char *graph)
{
  d = unplace(d);
  const Node *name = d;
  if (d->kind == K_INIT_DECLARATOR)
    name = unplace(node_field(d, F_DECLARATOR));
  if (name && name->kind == K_IDENTIFIER) {
    if (!graph)
      error_at(c->src, name->loc, "cannot tell which graph '%s' belongs to: "
               "write 'Point (g) %s;' or give the function one Graph "
               "parameter (§3.2)", text_of(c, name), text_of(c, name));
    sym_add(c, text_of(c, name), kind, graph, NULL);
  }
  if (d->kind == K_INIT_DECLARATOR) {
    render(c, name);
    put(c, " = ");
    render(c, node_field(d, F_VALUE));
  } else {
    render(c, d);
  }
}

/* The graph named by `Point (g)`, checked to be a graph in scope. */
static const char *bound_graph(Ctx *c, const Node *type)
{
  return bound_graph_of(c, node_field(type->child, F_GRAPH));
}

/* The same from the graph's name node (NULL: the function's graph). */
const char *bound_graph_of(Ctx *c, const Node *g)
{
  if (!g)
    return default_graph(c);
  size_t len;
  const char *t = node_text(c->src, g, &len);
  const Sym *s = sym_find(c, t, len);
  if (!s || s->kind != FK_GRAPH) {
    error_at(c->src, g->loc, "'%.*s' is not a graph", (int)len, t);
    return NULL;
  }
  return s->name;
}

/* Graphs of main live as long as the program: their storage is static,
 * so the data stays reachable until exit (leak checkers stay quiet). */
static void render_main_graphs(Ctx *c, const Node *n)
{
  for (const Node *d = n->child; d; d = d->next) {
    if (d->field != F_DECLARATOR)
      continue;
    const Node *id = unplace(d);
    if (!id || id->kind != K_IDENTIFIER) {
      render_graph_declarator(c, d, false); /* reports the error */
      continue;
    }
    char *name = text_of(c, id);
    const char *dev = gpu_device_of(c, d);
    putf(c, "%sstatic fal_G fal_gs_%s%s%s%s; fal_G *%s = &fal_gs_%s;",
         d == node_field(n, F_DECLARATOR) ? "" : " ", name,
         dev ? " = fal_G_gpu(" : "", dev ? dev : "", dev ? ")" : "", name, name);
    sym_add(c, name, FK_GRAPH, NULL, NULL)->gpu = dev != NULL;
  }
}

static void render_falcon_declaration(Ctx *c, const Node *n, const Node *type)
{
  FalKind kind = falcon_type_kind(type);
  if (kind == FK_COLL || kind == FK_SET) {
    render_coll_declaration(c, n, type, kind);
    return;
  }
  if (kind == FK_ELEM) { /* struct T (g) t; (§3.6) */
    render_bound_declaration(c, n, type);
    return;
  }
  if (kind == FK_GRAPH && c->fn && strcmp(c->fn->name, "main") == 0) {
    render_main_graphs(c, n);
    return;
  }
  copy_range(c, n->start, type->start); /* storage class, qualifiers */
  const char *graph = kind == FK_GRAPH ? NULL : bound_graph(c, type);
  put(c, kind == FK_GRAPH ? "fal_G " : kind == FK_POINT ? "fal_point " : "fal_edge ");
  bool first = true;
  for (const Node *d = n->child; d; d = d->next) {
    if (d->field != F_DECLARATOR)
      continue;
    if (!first)
      put(c, ", ");
    first = false;
    if (kind == FK_GRAPH)
      render_graph_declarator(c, d, false);
    else
      render_id_declarator(c, d, kind, graph);
  }
  put(c, ";");
}

/* CUDA target: remembers a plain C variable and the type to pass it to a
 * kernel by value (NULL for arrays, which cannot be passed). */
static void register_cvar(Ctx *c, const Node *type, const Node *d)
{
  int stars = 0;
  bool array = false;
  d = unplace(d);
  if (d && d->kind == K_INIT_DECLARATOR)
    d = unplace(node_field(d, F_DECLARATOR));
  while (d && d->kind != K_IDENTIFIER) {
    if (d->kind == K_POINTER_DECLARATOR)
      stars++;
    else if (d->kind == K_ARRAY_DECLARATOR)
      array = true;
    else if (d->kind != K_PLACED_DECLARATOR)
      return; /* function declarators and the like */
    d = node_field(d, F_DECLARATOR);
  }
  if (!d)
    return;
  Sym *s = sym_add(c, text_of(c, d), FK_CVAR, NULL, NULL);
  if (!array && type) {
    StrBuf t = {0};
    strbuf_puts(&t, text_of(c, type));
    for (int i = 0; i < stars; i++)
      strbuf_puts(&t, i ? "*" : " *");
    s->ctype = t.data;
  }
}

/* int <GPU> a = 0, <GPU> b = 0, h;  ==>  __device__ int a = 0, b = 0; int h;
 * (CUDA target, file scope; §2) */
static void render_gpu_scalars(Ctx *c, const Node *n, const Node *type)
{
  if (c->fn) {
    report_unsupported(c, n, "a local variable placed on the GPU (declare it "
                             "at file scope)");
    return;
  }
  for (int pass = 0; pass < 2; pass++) {
    bool first = true;
    for (const Node *d = n->child; d; d = d->next) {
      if (d->field != F_DECLARATOR || (gpu_device_of(c, d) != NULL) != (pass == 0))
        continue;
      if (first) {
        if (pass == 1)
          put(c, " ");
        copy_range(c, n->start, type->start);
        putf(c, "%s%s ", pass == 0 ? "__device__ " : "", text_of(c, type));
      } else {
        put(c, ", ");
      }
      first = false;
      render(c, unplace(d));
      if (pass == 0)
        sym_add(c, text_of(c, unplace(d)->kind == K_INIT_DECLARATOR
                                  ? unplace(node_field(unplace(d), F_DECLARATOR))
                                  : unplace(d)), FK_GPUVAR, NULL, NULL);
      else
        register_cvar(c, type, d);
    }
    if (!first)
      put(c, ";");
  }
}

/* CUDA target: a prototype at file scope gets the linkage and qualifiers
 * its definition gets (put_linkage, as in render_function). */
static void prototype_prefix(Ctx *c, const Node *n)
{
  const Node *d = node_field(n, F_DECLARATOR);
  while (d && d->kind != K_FUNCTION_DECLARATOR && d->kind != K_IDENTIFIER)
    d = node_field(d, F_DECLARATOR);
  const Node *name = d && d->kind == K_FUNCTION_DECLARATOR ? declarator_name(d) : NULL;
  if (c->fn || !name)
    return;
  put_linkage(c, n, program_func(c->prog, text_of(c, name)),
              node_text_is(c->src, name, "main"));
}

void render_declaration(Ctx *c, const Node *n)
{
  const Node *type = node_field(n, F_TYPE);
  prototype_prefix(c, n);
  if (!type) { /* §1: a prototype without a return type returns void */
    const Node *d = node_field(node_field(n, F_DECLARATOR), F_DECLARATOR);
    put(c, d && node_text_is(c->src, d, "main") ? "int " : "void ");
  }
  if (type && type->kind == K_FALCON_TYPE) {
    render_falcon_declaration(c, n, type);
    return;
  }
  if (!c->gpu) {
    render_children_of(c, n);
    return;
  }
  for (const Node *d = n->child; d; d = d->next)
    if (d->field == F_DECLARATOR && gpu_device_of(c, d)) {
      render_gpu_scalars(c, n, type);
      return;
    }
  /* Registered first so the declarators do not read as uses of an outer
   * variable of the same name. */
  for (const Node *d = n->child; d; d = d->next)
    if (d->field == F_DECLARATOR)
      register_cvar(c, type, d);
  render_children_of(c, n);
}

void render_parameter(Ctx *c, const Node *n)
{
  const Node *type = node_field(n, F_TYPE);
  FalKind kind = falcon_type_kind(type);
  const Node *d = node_field(n, F_DECLARATOR);
  if (!type || type->kind != K_FALCON_TYPE) {
    if (c->gpu && d)
      register_cvar(c, type, d);
    render_children_of(c, n);
    return;
  }
  if (kind == FK_COLL || kind == FK_SET) {
    render_coll_parameter(c, n, type, kind);
    return;
  }
  if (kind == FK_ELEM) { /* struct T (g) t (§3.6) */
    render_bound_parameter(c, n, type);
    return;
  }
  bool merge_point = c->fn && c->fn->merge && kind == FK_POINT;
  if (!merge_point)
    put(c, kind == FK_GRAPH ? "fal_G " : kind == FK_POINT ? "fal_point " : "fal_edge ");
  if (!d)
    return;
  if (kind == FK_GRAPH) {
    render_graph_declarator(c, d, true);
  } else if (!c->fn) { /* a prototype's parameter: no body to resolve */
    render(c, unplace(d));
  } else if (c->fn && c->fn->merge && kind == FK_POINT && unplace(d) &&
             unplace(d)->kind == K_IDENTIFIER) {
    /* merge(Point orig, Point incom) (§7): each point comes with the copy
     * of the partition it belongs to. */
    char *name = text_of(c, unplace(d));
    char *graph = ctx_printf(c, "fal_g_%s", name);
    putf(c, "fal_G *%s, fal_point %s", graph, name);
    sym_add(c, graph, FK_GRAPH, NULL, NULL);
    sym_add(c, name, FK_POINT, graph, NULL);
  } else {
    render_id_declarator(c, d, kind, bound_graph(c, type));
  }
}

/* `G1.getType() <GPU> G2;` (§2).  G2 is a graph of its own on every
 * target: on the CPU target a host graph, whose `G2 = G1` copies the
 * properties and borrows the read-only structure (fal_G_copy). */
void render_gettype(Ctx *c, const Node *n)
{
  const Node *srcg = node_field(n, F_SOURCE);
  const Sym *s = srcg ? sym_find(c, c->src->text + srcg->start,
                                 srcg->end - srcg->start) : NULL;
  if (!s || s->kind != FK_GRAPH) {
    error_at(c->src, n->loc, "getType needs a graph before '.getType()' (§2)");
    return;
  }
  char *from = xstrdup(s->name);
  bool in_main = c->fn && strcmp(c->fn->name, "main") == 0;
  bool first = true;
  for (const Node *d = n->child; d; d = d->next) {
    if (d->field != F_DECLARATOR)
      continue;
    const Node *id = unplace(d);
    char *name = text_of(c, id);
    const char *dev = gpu_device_of(c, d);
    if (dev)
      putf(c, "%s%sfal_G fal_gs_%s = fal_G_gpu(%s); fal_G *%s = &fal_gs_%s;",
           first ? "" : " ", in_main ? "static " : "", name, dev, name, name);
    else
      putf(c, "%s%sfal_G fal_gs_%s%s = {0}; fal_G *%s = &fal_gs_%s;", first ? "" : " ",
           in_main ? "static " : "", name, graph_cleanup(c, d), name, name);
    sym_add(c, name, FK_GRAPH, NULL, NULL)->gpu = dev != NULL;
    first = false;
  }
  free(from);
}

