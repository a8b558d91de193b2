/*
 * lower.c: Falcon to C11 with OpenMP (the CPU target).
 *
 * The output is written by one walk over the tree (render): a node with
 * nothing to lower is copied as source text, so plain C keeps its layout
 * and comments; a node that needs lowering gets its own render_* function,
 * which writes the C for it and renders its children the same way.
 *
 * Representation in the output (docs/lowering.md):
 *   Graph g             ->  fal_G fal_gs_g = {0}, *g = &fal_gs_g;
 *                           (one struct per program: a fal_gbase, then one
 *                           array per property, struct of arrays)
 *   Point p / Edge e    ->  fal_point p / fal_edge e   (ids)
 *   p.dist              ->  g->dist[p]
 *   foreach (outermost) ->  #pragma omp parallel for + for loop
 *   foreach (nested)    ->  sequential for loop over the CSR
 *   MIN(a, v, flag)     ->  compare-and-swap loop (falcon/falcon.h)
 */
#include "falconc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct Sym {
  char *name;
  FalKind kind;
  char *graph;    /* the graph variable a point/edge belongs to */
  char *edge_var; /* the current edge when bound by a neighbour loop */
  char *from;     /* that loop's point, as written (p in p.outnbrs) */
  bool in_edge;   /* the loop walks in-edges: the edge is var -> from */
  /* CUDA target: */
  bool gpu;       /* a graph placed on a GPU */
  char *ctype;    /* FK_CVAR: the C type to pass it to a kernel, or NULL */
  bool global;    /* declared at file scope */
} Sym;

/* A host variable a kernel reads: passed by value. */
typedef struct Capture {
  char *name;
  char *ctype;
  bool graph;
} Capture;

typedef struct Redux {
  const char *graph;
  bool edges;
  const char *index; /* the loop variable of the reduction */
} Redux;

typedef struct Ctx {
  const Source *src;
  Program *prog;
  const Options *opt;
  StrBuf *out;
  Sym *syms;
  int nsyms, cap;
  FuncInfo *fn;
  bool element;           /* this code runs per element of a parallel loop */
  bool break_is_continue; /* directly inside a parallel foreach body */
  int foreach_depth;
  bool single_points, single_edges; /* a single (p) / single (e) was lowered */
  Redux *redux;
  int uniq;
  char **strings; /* strings owned by the context, freed at the end */
  int nstrings;
  /* CUDA target: */
  bool gpu;          /* lowering for CUDA */
  bool in_kernel;    /* rendering a kernel body or a device function */
  int kernel_mark;   /* symbols below this are the host's */
  Capture *caps;
  int ncaps;
  StrBuf kernels;    /* kernels for the top-level item being rendered */
  bool lvalue;       /* rendering the left side of an assignment */
} Ctx;

typedef struct EType {
  FalKind kind;
  const char *graph;
  const char *struct_name; /* FK_PROPVAL */
  const char *edge_var;    /* FK_POINT bound by a neighbour loop */
  bool edges;              /* FK_ITER: g.edges (else g.points) */
} EType;

static void render(Ctx *c, const Node *n);
static void render_children_of(Ctx *c, const Node *n);

/* ---- small helpers ------------------------------------------------------- */

static char *ctx_own(Ctx *c, char *s)
{
  c->strings = xrealloc(c->strings, (size_t)(c->nstrings + 1) * sizeof *c->strings);
  c->strings[c->nstrings++] = s;
  return s;
}

static char *ctx_printf(Ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static char *ctx_printf(Ctx *c, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = xmalloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return ctx_own(c, s);
}

static char *text_of(Ctx *c, const Node *n)
{
  return ctx_own(c, node_strdup(c->src, n));
}

static void put(Ctx *c, const char *s) { strbuf_puts(c->out, s); }

static void putf(Ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(Ctx *c, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char buf[512];
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n >= 0 && (size_t)n < sizeof buf) {
    put(c, buf);
    return;
  }
  va_start(ap, fmt);
  char *big = xmalloc((size_t)n + 1);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  put(c, big);
  free(big);
}

static void copy_range(Ctx *c, uint32_t from, uint32_t to)
{
  if (to > from)
    strbuf_append(c->out, c->src->text + from, to - from);
}

/* Renders a node into a new string (owned by the context). */
static char *render_str(Ctx *c, const Node *n)
{
  StrBuf b = {0}, *saved = c->out;
  c->out = &b;
  render(c, n);
  c->out = saved;
  return ctx_own(c, b.data ? b.data : xstrdup(""));
}

/* `#line` for the source line of byte `offset`, at the start of a line. */
static void resync(Ctx *c, uint32_t offset)
{
  if (!c->opt->line_directives)
    return;
  if (c->out->len && c->out->data[c->out->len - 1] != '\n')
    put(c, "\n");
  emit_line_directive(c->out, source_line_of(c->src, offset), c->src->path);
}

/* Starts a new output line for a #pragma. */
static void pragma_line(Ctx *c, const char *pragma)
{
  if (c->out->len && c->out->data[c->out->len - 1] != '\n')
    put(c, "\n");
  putf(c, "#pragma %s\n", pragma);
}

/* ---- symbols -------------------------------------------------------------- */

static Sym *sym_add(Ctx *c, const char *name, FalKind kind, const char *graph,
                    const char *edge_var)
{
  if (c->nsyms == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 32;
    c->syms = xrealloc(c->syms, (size_t)c->cap * sizeof *c->syms);
  }
  Sym *s = &c->syms[c->nsyms++];
  s->name = xstrdup(name);
  s->kind = kind;
  s->graph = graph ? xstrdup(graph) : NULL;
  s->edge_var = edge_var ? xstrdup(edge_var) : NULL;
  s->from = NULL;
  s->in_edge = false;
  s->gpu = false;
  s->ctype = NULL;
  s->global = c->fn == NULL;
  return s;
}

static void sym_pop(Ctx *c, int mark)
{
  while (c->nsyms > mark) {
    Sym *s = &c->syms[--c->nsyms];
    free(s->name);
    free(s->graph);
    free(s->edge_var);
    free(s->from);
    free(s->ctype);
  }
}

/* The innermost symbol of that name; a plain C declaration shadows a
 * Falcon one with FK_NONE. */
static const Sym *sym_find(const Ctx *c, const char *name, size_t len)
{
  for (int i = c->nsyms - 1; i >= 0; i--)
    if (strlen(c->syms[i].name) == len && memcmp(c->syms[i].name, name, len) == 0)
      return &c->syms[i];
  return NULL;
}

/* The symbol an identifier node names, or NULL. */
static const Sym *ident_sym(Ctx *c, const Node *n)
{
  return n && n->kind == K_IDENTIFIER
             ? sym_find(c, c->src->text + n->start, n->end - n->start) : NULL;
}

/* ---- CUDA target: what host data kernels use ------------------------- */

static bool graph_on_gpu(const Ctx *c, const char *name)
{
  const Sym *s = name ? sym_find(c, name, strlen(name)) : NULL;
  return s && s->kind == FK_GRAPH && s->gpu;
}

static void add_capture(Ctx *c, const Sym *s, const char *ctype, bool graph)
{
  for (int i = 0; i < c->ncaps; i++)
    if (strcmp(c->caps[i].name, s->name) == 0)
      return;
  c->caps = xrealloc(c->caps, (size_t)(c->ncaps + 1) * sizeof *c->caps);
  c->caps[c->ncaps++] = (Capture){xstrdup(s->name), xstrdup(ctype), graph};
}

/* A kernel or device function uses host symbol `s`: pass it by value, or
 * report why it cannot be used on the GPU. */
static void note_use(Ctx *c, const Sym *s, const Node *at)
{
  if (!c->in_kernel || s - c->syms >= c->kernel_mark || s->kind == FK_GPUVAR)
    return;
  if (s->global && s->kind != FK_GRAPH) {
    error_at(c->src, at->loc, "host variable '%s' cannot be used in GPU code; "
             "declare it on the GPU ('int <GPU> %s', §2)", s->name, s->name);
    return;
  }
  if (s->global && s->kind == FK_GRAPH && c->fn && c->fn->element) {
    error_at(c->src, at->loc, "'%s' is not visible in a function that runs on "
             "the GPU; pass it as a parameter", s->name);
    return;
  }
  switch (s->kind) {
  case FK_GRAPH: add_capture(c, s, "fal_G", true); break;
  case FK_POINT: add_capture(c, s, "fal_point", false); break;
  case FK_EDGE: add_capture(c, s, "fal_edge", false); break;
  case FK_CVAR:
    if (s->ctype)
      add_capture(c, s, s->ctype, false);
    else
      error_at(c->src, at->loc, "host array '%s' cannot be used in a GPU "
               "foreach", s->name);
    break;
  default: break;
  }
}

/* A graph named in generated code: inside a kernel it is a capture. */
static const char *gname(Ctx *c, const char *graph)
{
  if (c->in_kernel && graph) {
    const Sym *s = sym_find(c, graph, strlen(graph));
    if (s)
      note_use(c, s, c->prog->struct_at);
  }
  return graph;
}

/* ---- expression types -------------------------------------------------- */

static EType etype_none(void) { return (EType){FK_NONE, NULL, NULL, NULL, false}; }

static EType expr_type(Ctx *c, const Node *e);

static EType field_type(Ctx *c, const Node *e)
{
  EType a = expr_type(c, node_field(e, F_ARGUMENT));
  const Node *f = node_field(e, F_FIELD);
  if (!f)
    return etype_none();
  char *name = text_of(c, f);
  if (a.kind == FK_GRAPH &&
      (strcmp(name, "points") == 0 || strcmp(name, "edges") == 0))
    return (EType){FK_ITER, a.graph, NULL, NULL, name[0] == 'e'};
  if (a.kind == FK_POINT || a.kind == FK_EDGE) {
    const Prop *p = program_prop(c->prog, name);
    if (p && p->struct_name)
      return (EType){FK_PROPVAL, a.graph, p->struct_name, NULL, false};
  }
  if (a.kind == FK_PROPVAL) {
    FalKind k = program_field_kind(c->prog, a.struct_name, name);
    if (k == FK_POINT || k == FK_EDGE)
      return (EType){k, a.graph, NULL, NULL, false};
  }
  return etype_none();
}

static EType expr_type(Ctx *c, const Node *e)
{
  if (!e)
    return etype_none();
  switch (e->kind) {
  case K_IDENTIFIER: {
    size_t len;
    const char *t = node_text(c->src, e, &len);
    const Sym *s = sym_find(c, t, len);
    if (!s)
      return etype_none();
    return (EType){s->kind, s->kind == FK_GRAPH ? s->name : s->graph, NULL,
                   s->edge_var, false};
  }
  case K_PARENTHESIZED_EXPRESSION:
    return expr_type(c, node_named_child(e, 0));
  case K_SUBSCRIPT_EXPRESSION: {
    EType a = expr_type(c, node_field(e, F_ARGUMENT));
    if (a.kind == FK_ITER)
      return (EType){a.edges ? FK_EDGE : FK_POINT, a.graph, NULL, NULL, false};
    return etype_none();
  }
  case K_FIELD_EXPRESSION:
    return field_type(c, e);
  default:
    return etype_none();
  }
}

/* ---- declarations (§2, §3) ------------------------------------------------ */

static FalKind type_kind(const Node *type)
{
  if (!type || type->kind != K_FALCON_TYPE || !type->child)
    return FK_NONE;
  switch (type->child->kind) {
  case K_GRAPH_TYPE: return FK_GRAPH;
  case K_POINT_TYPE: return FK_POINT;
  case K_EDGE_TYPE: return FK_EDGE;
  default: return FK_NONE;
  }
}

/* Strips `<GPU>` and returns the declarator under it. */
static const Node *unplace(const Node *d)
{
  while (d && d->kind == K_PLACED_DECLARATOR)
    d = node_field(d, F_DECLARATOR);
  return d;
}

static void report_unsupported(Ctx *c, const Node *n, const char *what)
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
static const char *gpu_device_of(Ctx *c, const Node *d)
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
    putf(c, "fal_gs_%s = {0}, *%s = &fal_gs_%s", name, name, name);
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
  const Node *g = node_field(type->child, F_GRAPH);
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
  FalKind kind = type_kind(type);
  if (kind == FK_NONE) {
    report_unsupported(c, type, "Set and Collection (§3.4, §3.5)");
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

static void render_declaration(Ctx *c, const Node *n)
{
  const Node *type = node_field(n, F_TYPE);
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

static void render_parameter(Ctx *c, const Node *n)
{
  const Node *type = node_field(n, F_TYPE);
  FalKind kind = type_kind(type);
  const Node *d = node_field(n, F_DECLARATOR);
  if (!type || type->kind != K_FALCON_TYPE) {
    if (c->gpu && d)
      register_cvar(c, type, d);
    render_children_of(c, n);
    return;
  }
  if (kind == FK_NONE) {
    report_unsupported(c, type, "Set and Collection parameters (§3.4, §3.5)");
    return;
  }
  bool merge_point = c->fn && c->fn->merge && kind == FK_POINT;
  if (!merge_point)
    put(c, kind == FK_GRAPH ? "fal_G " : kind == FK_POINT ? "fal_point " : "fal_edge ");
  if (!d)
    return;
  if (kind == FK_GRAPH) {
    render_graph_declarator(c, d, true);
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

/* `G1.getType() <GPU> G2;` (§2).  On the CPU target the new graph is the
 * same graph: every <GPU> placement is a host placement, so G2 = G1 and
 * G1 = G2 copy nothing. */
static void render_gettype(Ctx *c, const Node *n)
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
  if (!c->gpu)
    put(c, "fal_G ");
  for (const Node *d = n->child; d; d = d->next) {
    if (d->field != F_DECLARATOR)
      continue;
    const Node *id = unplace(d);
    char *name = text_of(c, id);
    const char *dev = gpu_device_of(c, d);
    if (!c->gpu) /* CPU target: the same graph under a second name */
      putf(c, "%s*%s = %s", first ? "" : ", ", name, from);
    else if (dev)
      putf(c, "%s%sfal_G fal_gs_%s = fal_G_gpu(%s); fal_G *%s = &fal_gs_%s;",
           first ? "" : " ", in_main ? "static " : "", name, dev, name, name);
    else
      putf(c, "%sfal_G fal_gs_%s = {0}; fal_G *%s = &fal_gs_%s;", first ? "" : " ",
           name, name, name);
    sym_add(c, name, FK_GRAPH, NULL, NULL)->gpu = dev != NULL;
    first = false;
  }
  if (!c->gpu)
    put(c, ";");
  free(from);
}

/* ---- member access (§3.1-§3.3) ----------------------------------------- */

static const char *const graph_fields[] = {"npoints", "nedges", "directed", NULL};

static bool is_one_of(const char *s, const char *const *list)
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

/* g.npoints -> g->npoints; g.changed -> g->changed (graph property). */
static void render_graph_field(Ctx *c, const Node *n, const Node *arg,
                               const char *f)
{
  const Prop *p = program_prop(c->prog, f);
  if (!is_one_of(f, graph_fields) && !p) {
    error_at(c->src, node_field(n, F_FIELD)->loc,
             "graph has no field or property '%s' (§3.1)", f);
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
  if (p && p->kind == (edge ? PK_EDGE : PK_POINT)) {
    put_device_ref(c, ctx_printf(c, "%s->%s[%s]", g, f, id), g);
  } else if (!edge && (strcmp(f, "x") == 0 || strcmp(f, "y") == 0)) {
    putf(c, "((int)(%s))", id); /* no coordinates: the id (§3.2) */
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

static void render_field(Ctx *c, const Node *n)
{
  const Node *arg = node_field(n, F_ARGUMENT);
  const Node *fnode = node_field(n, F_FIELD);
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

static void render_subscript(Ctx *c, const Node *n)
{
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
      putf(c, "(%s(%s, &(%s), (%s)) ? (FAL_SET_FLAG(%s), 1) : 0)", mac,
           atomics[i].op, a0, v, flag);
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

static const char *prop_kind_name(PropKind k)
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
                                const char *m)
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
    const Prop *p = program_prop(c->prog, text_of(c, node_named_child(args, 0)));
    if (p) /* sema reported the others */
      putf(c, "fal_prop_add(&%s->fal_base, (void **)&%s->%s, sizeof(%s), %s)",
           g, g, p->name, p->ctype, prop_kind_name(p->kind));
  } else if (strcmp(m, "read") == 0 && nargs == 1) {
    putf(c, "fal_G_read(%s, %s)", g, render_str(c, node_named_child(args, 0)));
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
  } else if (is_one_of(m, (const char *const[]){"addPoint", "addEdge",
                 "delpoint", "deledge", NULL})) {
    report_unsupported(c, n, "graph mutation (§6)");
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
  } else if (strcmp(m, "del") == 0) {
    report_unsupported(c, n, "deleting points (§6)");
  } else {
    error_at(c->src, n->loc, "unknown %s member function '%s'",
             a.kind == FK_POINT ? "point" : "edge", m);
  }
}

static void render_call(Ctx *c, const Node *n)
{
  const Node *fn = node_field(n, F_FUNCTION);
  if (fn && fn->kind == K_IDENTIFIER) {
    const FuncInfo *f = program_func(c->prog, text_of(c, fn));
    if (f) { /* the callee's singles need their locks cleared too */
      c->single_points |= f->single_points;
      c->single_edges |= f->single_edges;
    }
  }
  if (fn && fn->kind == K_IDENTIFIER && c->prog->falcon &&
      !c->prog->user_atomics && render_atomic(c, n, text_of(c, fn)))
    return;
  if (fn && fn->kind == K_FIELD_EXPRESSION) {
    const Node *obj = node_field(fn, F_ARGUMENT);
    EType a = expr_type(c, obj);
    const char *m = text_of(c, node_field(fn, F_FIELD));
    if (a.kind == FK_GRAPH) {
      render_graph_method(c, n, gname(c, a.graph), m);
      return;
    }
    if (a.kind == FK_POINT || a.kind == FK_EDGE) {
      render_point_method(c, n, a, obj, m);
      return;
    }
  }
  render_children_of(c, n);
}

/* ---- foreach (§4.1) -------------------------------------------------------- */

typedef enum Domain { D_POINTS, D_EDGES, D_OUT, D_IN, D_ALL } Domain;

/* What a foreach iterates: the graph and, for neighbours, the point. */
typedef struct Iter {
  Domain dom;
  const char *graph;
  const Node *point; /* D_OUT, D_IN, D_ALL */
} Iter;

static bool classify_iterable(Ctx *c, const Node *it, Iter *out)
{
  if (!it || it->kind != K_FIELD_EXPRESSION)
    return false;
  EType a = expr_type(c, node_field(it, F_ARGUMENT));
  char *f = text_of(c, node_field(it, F_FIELD));
  if (a.kind == FK_GRAPH && strcmp(f, "points") == 0)
    *out = (Iter){D_POINTS, a.graph, NULL};
  else if (a.kind == FK_GRAPH && strcmp(f, "edges") == 0)
    *out = (Iter){D_EDGES, a.graph, NULL};
  else if (a.kind == FK_POINT && strcmp(f, "outnbrs") == 0)
    *out = (Iter){D_OUT, a.graph, node_field(it, F_ARGUMENT)};
  else if (a.kind == FK_POINT && strcmp(f, "innbrs") == 0)
    *out = (Iter){D_IN, a.graph, node_field(it, F_ARGUMENT)};
  else if (a.kind == FK_POINT && strcmp(f, "nbrs") == 0)
    *out = (Iter){D_ALL, a.graph, node_field(it, F_ARGUMENT)};
  else
    return false;
  return true;
}

/* Renders `{ if (!(cond)) continue; body }` with `var` bound. */
static void render_foreach_body(Ctx *c, const Node *n, bool parallel)
{
  const Node *cond = node_field(n, F_CONDITION);
  bool saved_break = c->break_is_continue;
  c->break_is_continue = parallel;
  c->foreach_depth++;
  put(c, "{ ");
  if (cond) {
    put(c, "if (!");
    render(c, cond);
    put(c, ") continue; ");
  }
  render(c, node_field(n, F_BODY));
  put(c, " }");
  c->foreach_depth--;
  c->break_is_continue = saved_break;
}

/* foreach (t In g.points) S  ==>  [#pragma omp parallel for]
 *                                 for (fal_point t = 0; t < g->npoints; t++) S */
static void render_foreach_all(Ctx *c, const Node *n, const Iter *it,
                               const char *var, bool parallel, bool ranged)
{
  bool edges = it->dom == D_EDGES;
  int mark = c->nsyms;
  sym_add(c, var, edges ? FK_EDGE : FK_POINT, it->graph, NULL);
  bool sp = c->single_points, se = c->single_edges;
  c->single_points = c->single_edges = false;
  char *body;
  {
    StrBuf b = {0}, *saved = c->out;
    c->out = &b;
    render_foreach_body(c, n, parallel);
    c->out = saved;
    body = ctx_own(c, b.data ? b.data : xstrdup(""));
  }
  /* Hidden locks of single (p) are cleared before each loop (§4.3). */
  if (c->single_points)
    putf(c, "fal_single_reset(&%s->fal_base, 0); ", it->graph);
  if (c->single_edges)
    putf(c, "fal_single_reset(&%s->fal_base, 1); ", it->graph);
  c->single_points |= sp;
  c->single_edges |= se;
  if (parallel) {
    /* Dynamic chunks: per-point work follows the degree, which is skewed
     * on social graphs. */
    pragma_line(c, edges ? "omp parallel for schedule(static)"
                         : "omp parallel for schedule(dynamic, 256)");
    resync(c, n->start);
  }
  if (ranged) /* one part of a partitioned graph (§7) */
    putf(c, "for (fal_point %s = (fal_point)fal_lo; %s < fal_hi; %s++) %s", var,
         var, var, body);
  else
    putf(c, "for (%s %s = 0; %s < %s->%s; %s++) %s",
         edges ? "fal_edge" : "fal_point", var, var, gname(c, it->graph),
         edges ? "nedges" : "npoints", var, body);
  sym_pop(c, mark);
}

/* foreach (t In p.outnbrs) S  ==>
 *   { const fal_point P = p; for (int64_t E = off[P]; E < off[P+1]; E++)
 *     { fal_point t = dst[E]; S } }
 * innbrs walks the in-edge CSR; nbrs does both on a directed graph. */
static void render_nbr_loop(Ctx *c, const Node *n, const Iter *it,
                            const char *var, const char *p, bool in)
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
  putf(c, "for (int64_t %s = %s->fal_base.csr.%s[%s]%s%s%s; %s < %s->fal_base.csr.%s[%s + 1]; %s++) { fal_point %s = %s->fal_base.csr.%s[%s]; ",
       e, g, in ? "in_offsets" : "offsets", p, start ? " + (" : "",
       start ? start : "", start ? ")" : "", e, g, in ? "in_offsets" : "offsets",
       p, e, var, g, in ? "in_src" : "dst", e);
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
  if (it->dom != D_IN)
    render_nbr_loop(c, n, it, var, p, false);
  if (it->dom == D_ALL)
    putf(c, " if (%s->directed) ", gname(c, it->graph));
  if (it->dom != D_OUT)
    render_nbr_loop(c, n, it, var, p, true);
  put(c, " }");
}

/* ---- CUDA target: kernels ------------------------------------------------ */

typedef struct KernelState {
  bool in_kernel, element, single_points, single_edges;
  int kernel_mark;
  Capture *caps;
  int ncaps;
} KernelState;

static KernelState kernel_enter(Ctx *c)
{
  KernelState k = {c->in_kernel, c->element, c->single_points, c->single_edges,
                   c->kernel_mark, c->caps, c->ncaps};
  c->in_kernel = true;
  c->element = true;
  c->single_points = c->single_edges = false;
  c->kernel_mark = c->nsyms;
  c->caps = NULL;
  c->ncaps = 0;
  return k;
}

static void kernel_leave(Ctx *c, const KernelState *k)
{
  for (int i = 0; i < c->ncaps; i++) {
    free(c->caps[i].name);
    free(c->caps[i].ctype);
  }
  free(c->caps);
  c->in_kernel = k->in_kernel;
  c->element = k->element;
  c->single_points = k->single_points;
  c->single_edges = k->single_edges;
  c->kernel_mark = k->kernel_mark;
  c->caps = k->caps;
  c->ncaps = k->ncaps;
}

/* Kernel parameters, the pointer views of captured graphs, and the launch
 * arguments, from the captures. */
static void kernel_signature(Ctx *c, StrBuf *params, StrBuf *views, StrBuf *args)
{
  for (int i = 0; i < c->ncaps; i++) {
    const Capture *k = &c->caps[i];
    const char *sep = i ? ", " : "";
    if (k->graph) {
      strbuf_printf(params, "%sfal_G fal_kv_%s", sep, k->name);
      strbuf_printf(views, "  fal_G *%s = &fal_kv_%s;\n", k->name, k->name);
      strbuf_printf(args, "%s*%s", sep, k->name);
    } else {
      strbuf_printf(params, "%s%s %s", sep, k->ctype, k->name);
      strbuf_printf(args, "%s%s", sep, k->name);
    }
  }
}

static const char *kernel_name(Ctx *c, const Node *n, const char *what)
{
  return ctx_printf(c, "fal_%s_L%u_%d", what, n->loc.line, ++c->uniq);
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
  bool edges = it->dom == D_EDGES;
  const char *name = kernel_name(c, n, "foreach");
  KernelState saved = kernel_enter(c);
  int mark = c->nsyms;
  gname(c, it->graph);
  sym_add(c, var, edges ? FK_EDGE : FK_POINT, it->graph, NULL);
  StrBuf body = {0}, *out = c->out;
  c->out = &body;
  render_foreach_body(c, n, true);
  c->out = out;
  sym_pop(c, mark);
  StrBuf params = {0}, views = {0}, args = {0};
  kernel_signature(c, &params, &views, &args);
  StrBuf *k = &c->kernels;
  if (c->opt->line_directives)
    emit_line_directive(k, n->loc.line, c->src->path);
  strbuf_printf(k, "__global__ void %s(%s%s%s)\n{\n%s", name, params.data ? params.data : "",
                ranged && c->ncaps ? ", " : "", ranged ? "int64_t fal_lo, int64_t fal_hi" : "",
                views.data ? views.data : "");
  const char *limit = ranged ? "fal_hi" : ctx_printf(c, "%s->%s", it->graph,
                                                      edges ? "nedges" : "npoints");
  strbuf_printf(k, "  for (int64_t fal_i = %sblockIdx.x * (int64_t)blockDim.x + threadIdx.x; "
                "fal_i < %s; fal_i += (int64_t)gridDim.x * blockDim.x) "
                "{ %s %s = (%s)fal_i; %s }\n}\n",
                ranged ? "fal_lo + " : "", limit, edges ? "fal_edge" : "fal_point",
                var, edges ? "fal_edge" : "fal_point", body.data ? body.data : "");
  bool sp = c->single_points, se = c->single_edges;
  char *a = xstrdup(args.data ? args.data : "");
  kernel_leave(c, &saved);
  const char *g = gname(c, it->graph);
  putf(c, "{ fal_cuda_use(%s->fal_base.device); ", g);
  if (sp)
    putf(c, "fal_gpu_single_reset(&%s->fal_base, 0, __FILE__, __LINE__); ", g);
  if (se)
    putf(c, "fal_gpu_single_reset(&%s->fal_base, 1, __FILE__, __LINE__); ", g);
  if (ranged)
    putf(c, "%s<<<fal_cuda_grid(fal_hi - fal_lo), FAL_BLOCK>>>(%s%sfal_lo, fal_hi); "
         "FAL_CHECK_LAUNCH(\"%s\"); }", name, a, *a ? ", " : "", name);
  else
    putf(c, "%s<<<fal_cuda_grid(%s->%s), FAL_BLOCK>>>(%s); FAL_CHECK_LAUNCH(\"%s\"); }",
         name, g, edges ? "nedges" : "npoints", a, name);
  free(a);
  strbuf_free(&body);
  strbuf_free(&params);
  strbuf_free(&views);
  strbuf_free(&args);
}

/* foreach (t In hg.points) S, hg partitioned (§7)  ==>
 *   { fal_G_parts_push(hg);                  copies of the current values
 *     for each GPU part: launch S over the part's points (asynchronous)
 *     for each host part: an OpenMP loop of S over the part's points
 *     fal_G_parts_pull(hg); }                ghosts merged, results back
 * Inside, `hg` names the part being processed. */
static void render_partitioned_foreach(Ctx *c, const Node *n, const Iter *it,
                                       const char *var)
{
  const char *g = it->graph;
  const char *part_loop = ctx_printf(c,
      "for (int fal_pi = 0; fal_pi < %s->fal_nparts; fal_pi++) { fal_G *fal_part = "
      "&%s->fal_parts[fal_pi]; int64_t fal_lo = %s->fal_lo[fal_pi], fal_hi = "
      "%s->fal_lo[fal_pi + 1]; ", g, g, g, g);
  putf(c, "{ fal_G_parts_push(%s); ", g);
  if (c->gpu) {
    put(c, part_loop);
    putf(c, "if (fal_part->fal_base.on_gpu) { fal_G *%s = fal_part; ", g);
    render_kernel_foreach(c, n, it, var, true);
    put(c, " } } ");
  }
  put(c, part_loop);
  putf(c, "if (!fal_part->fal_base.on_gpu) { fal_G *%s = fal_part; ", g);
  render_foreach_all(c, n, it, var, true, true);
  putf(c, " } }\nfal_G_parts_pull(%s); }", g);
}

static void render_foreach(Ctx *c, const Node *n)
{
  const Node *it_node = node_field(n, F_ITERABLE);
  const Node *var_node = node_field(n, F_VARIABLE);
  Iter it;
  if (!classify_iterable(c, it_node, &it)) {
    EType t = expr_type(c, it_node);
    if (t.kind == FK_NONE && it_node)
      report_unsupported(c, it_node, "foreach over a Collection or Set (§3.5)");
    else
      error_at(c->src, it_node ? it_node->loc : n->loc,
               "cannot iterate over this: use g.points, g.edges, p.outnbrs, "
               "p.innbrs or p.nbrs (§4.1)");
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
  if (parallel && program_parted(c->prog, it.graph) && !graph_on_gpu(c, it.graph)) {
    if (it.dom == D_POINTS)
      render_partitioned_foreach(c, n, &it, var);
    else
      report_unsupported(c, n, "a parallel foreach over the edges of a "
                                "partitioned graph (§7)");
  } else if (parallel && c->gpu && (it.dom == D_POINTS || it.dom == D_EDGES) &&
      graph_on_gpu(c, it.graph))
    render_kernel_foreach(c, n, &it, var, false);
  else if (it.dom == D_POINTS || it.dom == D_EDGES)
    render_foreach_all(c, n, &it, var, parallel, false);
  else
    render_foreach_nbrs(c, n, &it, var);
}

/* ---- single (§4.3) ----------------------------------------------------------- */

/* single (t) S else T  ==>  if (fal_single_byte(&g->fal_base.single_lock[t])) S else T
 * single (x.lock) S    ==>  if (fal_single_int(&(x.lock))) S */
static void render_single(Ctx *c, const Node *n)
{
  const Node *target = node_field(n, F_TARGET);
  EType t = expr_type(c, target);
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
  kernel_signature(c, &params, &views, &args);
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
  putf(c, "{ __typeof__(%s) %s = %d;", left, r, mul ? 1 : 0);
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

static void render_if(Ctx *c, const Node *n)
{
  const Node *red = reduction_in(node_field(n, F_CONSEQUENCE));
  if (red && !node_field(n, F_ALTERNATIVE)) {
    render_reduction(c, n, red, node_field(n, F_CONDITION));
    return;
  }
  render_children_of(c, n);
}

static void render_expression_statement(Ctx *c, const Node *n)
{
  const Node *red = reduction_in(n);
  if (red)
    render_reduction(c, n, red, NULL);
  else
    render_children_of(c, n);
}

/* ---- CUDA target: host access to GPU data (§2) ------------------------ */

/* A GPU scalar read by host code is a transfer; a host variable used by a
 * kernel is a capture. */
static void render_identifier(Ctx *c, const Node *n)
{
  const Sym *s = ident_sym(c, n);
  if (s && c->in_kernel)
    note_use(c, s, n);
  if (s && s->kind == FK_GPUVAR && !c->in_kernel && !c->lvalue)
    putf(c, "fal_sym_get(%s)", s->name);
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

/* `hg = g;` / `g = hg;`: whole-graph copies between host and GPU (§2, §5);
 * `hg.dist = g.dist;`: one property array. */
static bool render_graph_copy(Ctx *c, const Node *n, const Node *l, const Node *r)
{
  EType lt = expr_type(c, l), rt = expr_type(c, r);
  if (lt.kind == FK_GRAPH && rt.kind == FK_GRAPH) {
    bool lg = graph_on_gpu(c, lt.graph), rg = graph_on_gpu(c, rt.graph);
    if (lg && !rg)
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
  if (!p || p != q) {
    error_at(c->src, n->loc, "a property copy names the same property on both "
             "sides (§2)");
    return true;
  }
  bool lg = graph_on_gpu(c, lt.graph), rg = graph_on_gpu(c, rt.graph);
  const char *count = p->kind == PK_POINT ? "npoints" : p->kind == PK_EDGE ? "nedges" : NULL;
  putf(c, "fal_prop_copy((void **)&%s->%s, %s->%s, (size_t)%s%s%s * sizeof *%s->%s, %d, %d)",
       lt.graph, p->name, rt.graph, p->name, count ? rt.graph : "1",
       count ? "->" : "", count ? count : "", rt.graph, p->name, lg, rg);
  return true;
}

static void render_assignment(Ctx *c, const Node *n)
{
  const Node *l = node_field(n, F_LEFT), *r = node_field(n, F_RIGHT);
  const Node *op = node_field(n, F_OPERATOR);
  const Sym *ls = ident_sym(c, l);
  if (c->in_kernel) {
    if (ls && ls - c->syms < c->kernel_mark && ls->kind != FK_GPUVAR) {
      error_at(c->src, l->loc, "a GPU foreach cannot assign host variable '%s'; "
               "declare it on the GPU ('int <GPU> %s', §2)", ls->name, ls->name);
      copy_range(c, n->start, n->end);
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
static void render_update(Ctx *c, const Node *n)
{
  const Node *arg = node_field(n, F_ARGUMENT);
  const Sym *s = ident_sym(c, arg);
  if (c->in_kernel && s && s - c->syms < c->kernel_mark && s->kind != FK_GPUVAR)
    error_at(c->src, n->loc, "a GPU foreach cannot change host variable '%s'",
             s->name);
  else if (!c->in_kernel && ((s && s->kind == FK_GPUVAR) ||
                             (arg && is_device_element(c, arg))))
    error_at(c->src, n->loc, "++ and -- on GPU data from host code are not "
             "supported; write x = x + 1");
  else
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
static void render_parallel_sections(Ctx *c, const Node *n)
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

/* ---- functions and statements ------------------------------------------------ */

static bool is_static(const Ctx *c, const Node *fn)
{
  for (const Node *ch = fn->child; ch && ch->field != F_DECLARATOR; ch = ch->next)
    if (node_text_is(c->src, ch, "static"))
      return true;
  return false;
}

/* CUDA target: functions a GPU foreach calls run on the device too
 * (__host__ __device__); other non-static functions keep C linkage so
 * that .c files can call them. */
static void function_prefix(Ctx *c, const Node *n, bool is_main)
{
  if (!c->gpu || is_main)
    return;
  if (c->fn && c->fn->element)
    put(c, "__host__ __device__ ");
  else if (!is_static(c, n))
    put(c, "extern \"C\" ");
}

static void render_function(Ctx *c, const Node *n)
{
  const Node *decl = node_field(n, F_DECLARATOR);
  const Node *name = decl;
  while (name && name->kind != K_IDENTIFIER)
    name = node_field(name, F_DECLARATOR);
  FuncInfo *saved_fn = c->fn;
  bool saved_el = c->element, saved_k = c->in_kernel;
  int saved_mark = c->kernel_mark;
  c->fn = name ? program_func(c->prog, text_of(c, name)) : NULL;
  c->element = c->fn && c->fn->element;
  bool is_main = name && node_text_is(c->src, name, "main");
  function_prefix(c, n, is_main);
  if (c->gpu && c->element) { /* device code: only its own symbols */
    c->in_kernel = true;
    c->kernel_mark = c->nsyms;
  }
  if (!node_field(n, F_TYPE)) /* §1: no return type */
    put(c, is_main ? "int " : "void ");
  int mark = c->nsyms;
  bool sp = c->single_points, se = c->single_edges;
  c->single_points = c->single_edges = false;
  render_children_of(c, n);
  if (c->fn) { /* callers' loops clear the locks this function uses */
    c->fn->single_points = c->single_points;
    c->fn->single_edges = c->single_edges;
  }
  c->single_points = sp;
  c->single_edges = se;
  sym_pop(c, mark);
  c->fn = saved_fn;
  c->element = saved_el;
  c->in_kernel = saved_k;
  c->kernel_mark = saved_mark;
}

static bool in_main(const Ctx *c)
{
  return c->fn && strcmp(c->fn->name, "main") == 0;
}

/* `return;` in main returns 0 (§1). */
static void render_return(Ctx *c, const Node *n)
{
  if (c->foreach_depth > 0 && !c->element) {
    error_at(c->src, n->loc, "'return' cannot leave a parallel foreach; use "
             "'continue' to end this element (§4.1)");
    return;
  }
  if (in_main(c) && node_named_count(n) == 0 && c->fn &&
      !node_field(c->fn->def, F_TYPE)) {
    put(c, "return 0;");
    return;
  }
  render_children_of(c, n);
}

/* break and continue in a parallel foreach body end this element (§4.1). */
static void render_break(Ctx *c, const Node *n)
{
  if (c->break_is_continue)
    put(c, "continue;");
  else
    render_children_of(c, n);
}

/* Loops and switches capture break. */
static void render_loop(Ctx *c, const Node *n)
{
  bool saved = c->break_is_continue;
  c->break_is_continue = false;
  int mark = c->nsyms;
  render_children_of(c, n);
  sym_pop(c, mark);
  c->break_is_continue = saved;
}

static void render_block(Ctx *c, const Node *n)
{
  int mark = c->nsyms;
  render_children_of(c, n);
  sym_pop(c, mark);
}

static void render_children_of(Ctx *c, const Node *n)
{
  uint32_t pos = n->start;
  for (const Node *ch = n->child; ch; ch = ch->next) {
    copy_range(c, pos, ch->start);
    render(c, ch);
    pos = ch->end;
  }
  copy_range(c, pos, n->end);
}

static void render(Ctx *c, const Node *n)
{
  if (!n)
    return;
  if (!n->interesting) {
    copy_range(c, n->start, n->end);
    return;
  }
  switch (n->kind) {
  case K_FUNCTION_DEFINITION: render_function(c, n); break;
  case K_DECLARATION: render_declaration(c, n); break;
  case K_PARAMETER_DECLARATION: render_parameter(c, n); break;
  case K_GETTYPE_DECLARATION: render_gettype(c, n); break;
  case K_PLACED_DECLARATOR: render(c, node_field(n, F_DECLARATOR)); break;
  case K_FIELD_EXPRESSION: render_field(c, n); break;
  case K_SUBSCRIPT_EXPRESSION: render_subscript(c, n); break;
  case K_CALL_EXPRESSION: render_call(c, n); break;
  case K_FOREACH_STATEMENT: render_foreach(c, n); break;
  case K_SINGLE_STATEMENT: render_single(c, n); break;
  case K_IF_STATEMENT: render_if(c, n); break;
  case K_EXPRESSION_STATEMENT: render_expression_statement(c, n); break;
  case K_RETURN_STATEMENT: render_return(c, n); break;
  case K_BREAK_STATEMENT: render_break(c, n); break;
  case K_LOOP_STATEMENT:
  case K_SWITCH_STATEMENT: render_loop(c, n); break;
  case K_COMPOUND_STATEMENT: render_block(c, n); break;
  case K_IDENTIFIER: render_identifier(c, n); break;
  case K_ASSIGNMENT_EXPRESSION:
    if (c->gpu)
      render_assignment(c, n);
    else
      render_children_of(c, n);
    break;
  case K_UPDATE_EXPRESSION:
    if (c->gpu)
      render_update(c, n);
    else
      render_children_of(c, n);
    break;
  case K_FALCON_TYPE:
    put(c, type_kind(n) == FK_POINT ? "fal_point"
           : type_kind(n) == FK_EDGE ? "fal_edge" : "fal_G");
    if (type_kind(n) == FK_NONE)
      report_unsupported(c, n, "Set and Collection (§3.4, §3.5)");
    break;
  case K_STRUCT_REC_SPECIFIER:
    report_unsupported(c, n, "struct_rec (§3.6)");
    break;
  case K_PARALLEL_SECTIONS_STATEMENT: render_parallel_sections(c, n); break;
  case K_REDUCTION_EXPRESSION:
    error_at(c->src, n->loc, "a reduction must be a statement of its own, "
             "optionally under an if (§4.4)");
    break;
  default: render_children_of(c, n); break;
  }
}

/* ---- the program ----------------------------------------------------------------- */

static bool interesting_kind(NodeKind k, bool gpu)
{
  if (gpu && (k == K_IDENTIFIER || k == K_DECLARATION ||
              k == K_PARAMETER_DECLARATION || k == K_ASSIGNMENT_EXPRESSION ||
              k == K_UPDATE_EXPRESSION))
    return true;
  switch (k) {
  case K_FIELD_EXPRESSION:
  case K_CALL_EXPRESSION:
  case K_SUBSCRIPT_EXPRESSION:
  case K_FUNCTION_DEFINITION:
  case K_BREAK_STATEMENT:
  case K_RETURN_STATEMENT:
    return true;
  default:
    return node_kind_is_falcon(k);
  }
}

/* Marks the nodes render must look inside: those with an interesting
 * descendant.  Everything else is copied as text. */
static void mark_interesting(Node *root, bool gpu)
{
  for (Node *n = root; n; n = node_next(n, root, true)) {
    if (!interesting_kind(n->kind, gpu))
      continue;
    for (Node *p = n; p && !p->interesting; p = p->parent)
      p->interesting = true;
  }
}

/* The number of elements of a property of graph `h` (point, edge, 1). */
static const char *prop_count_expr(PropKind k)
{
  return k == PK_POINT ? "(size_t)h->npoints" : k == PK_EDGE ? "(size_t)h->nedges" : "1";
}

/* The same, counted on the GPU graph `d` (the host side may be empty). */
static const char *prop_count_dev(PropKind k)
{
  return k == PK_POINT ? "(size_t)d->npoints" : k == PK_EDGE ? "(size_t)d->nedges" : "1";
}

/* CUDA target: placing a graph, copying it to and from its GPU (§2, §5). */
static void emit_gpu_graph_functions(Ctx *c)
{
  Program *p = c->prog;
  put(c, "static fal_G fal_G_gpu(int device)\n{\n  fal_G g;\n  memset(&g, 0, sizeof g);\n"
         "  g.fal_base.on_gpu = 1;\n  g.fal_base.want_device = device;\n"
         "  g.fal_base.device = -1;\n  return g;\n}\n");
  put(c, "static void fal_G_to_gpu(fal_G *d, const fal_G *h, const char *file, int line)\n{\n"
         "  if (d->fal_base.device < 0)\n"
         "    d->fal_base.device = fal_cuda_place(d->fal_base.want_device, file, line);\n"
         "  fal_cuda_use(d->fal_base.device);\n"
         "  fal_gpu_structure(&d->fal_base, &h->fal_base, file, line);\n"
         "  d->npoints = h->npoints;\n  d->nedges = h->nedges;\n  d->directed = h->directed;\n");
  for (int i = 0; i < p->nprops; i++)
    putf(c, "  fal_dcopy_in((void **)&d->%s, h->%s, %s * sizeof *d->%s, file, line);\n",
         p->props[i].name, p->props[i].name, prop_count_expr(p->props[i].kind),
         p->props[i].name);
  put(c, "}\n");
  put(c, "static void fal_G_to_host(fal_G *h, const fal_G *d)\n{\n"
         "  fal_cuda_use(d->fal_base.device);\n"
         "  h->npoints = d->npoints;\n  h->nedges = d->nedges;\n  h->directed = d->directed;\n");
  for (int i = 0; i < p->nprops; i++)
    putf(c, "  fal_dcopy_out((void **)&h->%s, d->%s, %s * sizeof *h->%s);\n",
         p->props[i].name, p->props[i].name, prop_count_dev(p->props[i].kind),
         p->props[i].name);
  put(c, "}\n");
  put(c, "static void fal_G_read_gpu(fal_G *g, const char *path, const char *file, int line)\n{\n"
         "  fal_G h;\n  memset(&h, 0, sizeof h);\n");
  for (int i = 0; i < p->nprops; i++)
    putf(c, "  fal_prop_add(&h.fal_base, (void **)&h.%s, sizeof *h.%s, %s);\n",
         p->props[i].name, p->props[i].name, prop_kind_name(p->props[i].kind));
  put(c, "  fal_G_read(&h, path);\n  fal_G_to_gpu(g, &h, file, line);\n"
         "  g->fal_base.structure_of = NULL;\n  fal_gbase_free(&h.fal_base);\n}\n");
}

/* Partitioned graphs (§7): the canonical values live in the host graph;
 * each part holds a whole copy, works on its own range of points, and
 * after each foreach the copies are merged back: for each point, every
 * copy that changed it is merged into the owner's copy with the
 * updateFunction (or simply taken without one), and the owner's value
 * becomes the canonical one.  Graph-level properties changed by any part
 * take that part's value. */
static void emit_partition_functions(Ctx *c)
{
  Program *p = c->prog;
  put(c, "static void fal_G_partition(fal_G *h, int ngpu, int ncpu, int policy, const char *file, int line)\n{\n"
         "  int k = ngpu + ncpu;\n  (void)policy;\n"
         "  if (k < 1 || k > 64 || ngpu < 0 || ncpu < 0) {\n"
         "    fprintf(stderr, \"%s:%d: error: makePartition(%d, %d): between 1 and 64 parts\\n\", file, line, ngpu, ncpu);\n"
         "    exit(1);\n  }\n"
         "  h->fal_nparts = k;\n"
         "  h->fal_parts = (fal_G *)fal_calloc((size_t)k, sizeof(fal_G));\n"
         "  h->fal_mirrors = (fal_G *)fal_calloc((size_t)k, sizeof(fal_G));\n"
         "  h->fal_lo = (int64_t *)fal_calloc((size_t)k + 1, sizeof(int64_t));\n"
         "  const int64_t *off = h->fal_base.csr.offsets;\n"
         "  int64_t n = h->npoints, m = h->nedges;\n"
         "  for (int i = 1; i < k; i++) { /* ORDERED: contiguous, balanced by edges */\n"
         "    int64_t want = m / k * i + m % k * i / k, lo = h->fal_lo[i - 1], hi = n;\n"
         "    while (lo < hi) {\n      int64_t mid = lo + (hi - lo) / 2;\n"
         "      if (off[mid] < want)\n        lo = mid + 1;\n      else\n        hi = mid;\n    }\n"
         "    h->fal_lo[i] = lo;\n  }\n  h->fal_lo[k] = n;\n"
         "  for (int i = 0; i < k; i++) {\n    fal_G *q = &h->fal_parts[i];\n");
  if (c->gpu)
    put(c, "    if (i < ngpu && fal_cuda_count_quiet() > 0) { /* a GPU part */\n"
           "      *q = fal_G_gpu(-1);\n      fal_G_to_gpu(q, h, file, line);\n      continue;\n    }\n"
           "    if (i < ngpu && i == 0)\n"
           "      fprintf(stderr, \"falcon: note: no GPU: the %d GPU part(s) run on the host\\n\", ngpu);\n");
  put(c, "    q->fal_base.csr = h->fal_base.csr; /* a host part shares the CSR */\n"
         "    q->fal_base.device = -1;\n"
         "    q->npoints = h->npoints;\n    q->nedges = h->nedges;\n    q->directed = h->directed;\n");
  for (int i = 0; i < p->nprops; i++)
    putf(c, "    q->%s = (%s *)fal_calloc(%s + 1, sizeof *q->%s);\n", p->props[i].name,
         p->props[i].ctype, prop_count_expr(p->props[i].kind), p->props[i].name);
  put(c, "  }\n}\n");
  /* push */
  put(c, "static void fal_G_parts_push(fal_G *h)\n{\n"
         "  for (int i = 0; i < h->fal_nparts; i++) {\n    fal_G *q = &h->fal_parts[i];\n");
  if (c->gpu)
    put(c, "    if (q->fal_base.on_gpu) {\n      fal_G_to_gpu(q, h, __FILE__, __LINE__);\n"
           "      continue;\n    }\n");
  for (int i = 0; i < p->nprops; i++)
    putf(c, "    if (h->%s)\n      memcpy(q->%s, h->%s, %s * sizeof *h->%s);\n",
         p->props[i].name, p->props[i].name, p->props[i].name,
         prop_count_expr(p->props[i].kind), p->props[i].name);
  put(c, "  }\n}\n");
  /* differs / take for points */
  put(c, "static int fal_G_point_differs(const fal_G *a, const fal_G *h, fal_point p)\n{\n  return 0");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT)
      putf(c, " ||\n    (h->%s && memcmp(&a->%s[p], &h->%s[p], sizeof *h->%s) != 0)",
           p->props[i].name, p->props[i].name, p->props[i].name, p->props[i].name);
  put(c, ";\n}\n");
  put(c, "static void fal_G_point_take(fal_G *to, const fal_G *from, fal_point p)\n{\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT)
      putf(c, "  if (to->%s && from->%s)\n    to->%s[p] = from->%s[p];\n", p->props[i].name,
           p->props[i].name, p->props[i].name, p->props[i].name);
  put(c, "}\n");
  /* pull */
  put(c, "static void fal_G_parts_pull(fal_G *h)\n{\n  fal_G *v[64];\n  int k = h->fal_nparts;\n"
         "  for (int i = 0; i < k; i++) {\n    v[i] = &h->fal_parts[i];\n");
  if (c->gpu)
    put(c, "    if (v[i]->fal_base.on_gpu) {\n      fal_G_to_host(&h->fal_mirrors[i], v[i]);\n"
           "      v[i] = &h->fal_mirrors[i];\n    }\n");
  put(c, "  }\n"
         "  for (int o = 0; o < k; o++) {\n"
         "    int64_t lo = h->fal_lo[o], hi = h->fal_lo[o + 1];\n"
         "#pragma omp parallel for schedule(static)\n"
         "    for (int64_t p = lo; p < hi; p++) {\n"
         "      for (int j = 0; j < k; j++) {\n"
         "        if (j == o || !fal_G_point_differs(v[j], h, (fal_point)p))\n          continue;\n"
         "        if (h->fal_merge)\n          h->fal_merge(v[o], (fal_point)p, v[j], (fal_point)p);\n"
         "        else\n          fal_G_point_take(v[o], v[j], (fal_point)p);\n      }\n"
         "      fal_G_point_take(h, v[o], (fal_point)p);\n    }\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_EDGE)
      putf(c, "    if (h->%s) /* edges go with the part that owns their source */\n"
              "      memcpy(&h->%s[h->fal_base.csr.offsets[lo]], &v[o]->%s[h->fal_base.csr.offsets[lo]],\n"
              "             (size_t)(h->fal_base.csr.offsets[hi] - h->fal_base.csr.offsets[lo]) * sizeof *h->%s);\n",
           p->props[i].name, p->props[i].name, p->props[i].name, p->props[i].name);
  put(c, "  }\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_GRAPH)
      putf(c, "  if (h->%s) { /* a value changed by any part wins */\n"
              "    %s before = h->%s[0];\n"
              "    for (int j = 0; j < k; j++)\n"
              "      if (memcmp(&v[j]->%s[0], &before, sizeof before) != 0) {\n"
              "        h->%s[0] = v[j]->%s[0];\n        break;\n      }\n  }\n",
           p->props[i].name, p->props[i].ctype, p->props[i].name, p->props[i].name,
           p->props[i].name, p->props[i].name);
  put(c, "}\n");
}

/* struct fal_G: the graph type of this program (struct of arrays). */
static void emit_graph_struct(Ctx *c)
{
  Program *p = c->prog;
  put(c, "/* falconc: the graph type of this program; one array per property (§3.1). */\n");
  put(c, "struct fal_G {\n  fal_gbase fal_base;\n  int npoints;\n  long nedges;\n  int directed;\n");
  for (int i = 0; i < p->nprops; i++)
    putf(c, "  %s *%s; /* %s property */\n", p->props[i].ctype, p->props[i].name,
         p->props[i].kind == PK_POINT ? "point" : p->props[i].kind == PK_EDGE ? "edge" : "graph");
  if (p->nparted)
    put(c, "  /* makePartition (§7): the parts, host views of GPU parts, the first\n"
           "   * point of each part, and the merge function of updateFunction */\n"
           "  struct fal_G *fal_parts, *fal_mirrors;\n  int fal_nparts;\n  int64_t *fal_lo;\n"
           "  void (*fal_merge)(struct fal_G *, fal_point, struct fal_G *, fal_point);\n");
  put(c, "};\n");
  put(c, "static void fal_G_read(fal_G *g, const char *path)\n{\n");
  if (p->uses_in_edges)
    put(c, "  g->fal_base.need_in_edges = 1;\n");
  if (p->uses_sources)
    put(c, "  g->fal_base.need_sources = 1;\n");
  put(c, "  fal_gbase_read(&g->fal_base, path);\n"
         "  g->npoints = (int)g->fal_base.csr.npoints;\n"
         "  g->nedges = (long)g->fal_base.csr.nedges;\n"
         "  g->directed = g->fal_base.csr.directed;\n}\n");
  if (c->gpu)
    emit_gpu_graph_functions(c);
  if (p->nparted)
    emit_partition_functions(c);
}

/* Property struct types must be complete before struct fal_G. */
static void check_prop_structs(Ctx *c, const Node *root)
{
  for (int i = 0; i < c->prog->nprops; i++) {
    const Prop *p = &c->prog->props[i];
    if (!p->struct_name)
      continue;
    bool found = false;
    for (const Node *n = root->child; n && n != c->prog->struct_at; n = n->next)
      for (const Node *s = n; s; s = node_next(s, n, true))
        if (s->kind == K_STRUCT_SPECIFIER && node_field(s, F_BODY) &&
            node_text_is(c->src, node_field(s, F_NAME), p->struct_name))
          found = true;
    if (!found)
      error_at(c->src, p->loc, "struct %s (the type of property '%s') must be "
               "defined before the first function", p->struct_name, p->name);
  }
}

static void render_program(Ctx *c, const Node *root)
{
  uint32_t pos = root->start;
  for (const Node *ch = root->child; ch; ch = ch->next) {
    copy_range(c, pos, ch->start);
    if (c->prog->falcon && ch == c->prog->struct_at) {
      if (c->out->len && c->out->data[c->out->len - 1] != '\n')
        put(c, "\n");
      emit_graph_struct(c);
      resync(c, ch->start);
    }
    /* Kernels made while rendering an item go before it. */
    StrBuf item = {0}, *out = c->out;
    c->out = &item;
    render(c, ch);
    c->out = out;
    if (c->kernels.len) {
      if (c->out->len && c->out->data[c->out->len - 1] != '\n')
        put(c, "\n");
      strbuf_append(c->out, c->kernels.data, c->kernels.len);
      strbuf_free(&c->kernels);
      resync(c, ch->start);
    }
    if (item.len)
      strbuf_append(c->out, item.data, item.len);
    strbuf_free(&item);
    pos = ch->end;
  }
  copy_range(c, pos, root->end);
}

/* CUDA when something is placed on a GPU, unless --target=cpu (§2). */
static bool check_target(Ctx *c, const Node *root)
{
  (void)root;
  c->gpu = c->prog->uses_gpu && c->opt->target != TARGET_CPU;
  return true;
}

bool lower_program(const Source *src, const Node *root, Program *prog,
                   const Options *opt, StrBuf *out)
{
  int before = error_count();
  Ctx c = {.src = src, .prog = prog, .opt = opt};
  if (!check_target(&c, root))
    return false;
  if (prog->falcon)
    check_prop_structs(&c, root);
  mark_interesting((Node *)root, c.gpu);
  StrBuf body = {0};
  c.out = &body;
  render_program(&c, root);
  bool changed = body.len != src->len || memcmp(body.data ? body.data : "", src->text, src->len) != 0;
  if (prog->falcon)
    strbuf_printf(out, "#include \"falcon/%s\"\ntypedef struct fal_G fal_G;\n",
                  c.gpu ? "cuda.cuh" : "falcon.h");
  if (changed && opt->line_directives)
    emit_line_directive(out, 1, src->path);
  if (body.len)
    strbuf_append(out, body.data, body.len);
  strbuf_free(&body);
  sym_pop(&c, 0);
  free(c.syms);
  strbuf_free(&c.kernels);
  for (int i = 0; i < c.nstrings; i++)
    free(c.strings[i]);
  free(c.strings);
  return error_count() == before;
}
