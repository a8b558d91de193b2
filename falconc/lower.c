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
 *
 * This file holds the walk itself, symbols and expression types, functions
 * and statements, and the program with its generated graph type; the
 * constructs live in lower_decl.c, lower_expr.c and lower_loop.c (lower.h).
 */
#include "plan.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers ------------------------------------------------------- */

char *ctx_own(Ctx *c, char *s)
{
  c->strings = xrealloc(c->strings, (size_t)(c->nstrings + 1) * sizeof *c->strings);
  c->strings[c->nstrings++] = s;
  return s;
}

char *ctx_printf(Ctx *c, const char *fmt, ...)
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

char *text_of(Ctx *c, const Node *n)
{
  return ctx_own(c, node_strdup(c->src, n));
}

void put(Ctx *c, const char *s) { strbuf_puts(c->out, s); }

void putf(Ctx *c, const char *fmt, ...)
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

void copy_range(Ctx *c, uint32_t from, uint32_t to)
{
  if (to > from)
    strbuf_append(c->out, c->src->text + from, to - from);
}

/* Renders a node into a new string (owned by the context). */
char *render_str(Ctx *c, const Node *n)
{
  StrBuf b = {0}, *saved = c->out;
  c->out = &b;
  render(c, n);
  c->out = saved;
  return ctx_own(c, b.data ? b.data : xstrdup(""));
}

/* `#line` for the source line of byte `offset`, at the start of a line. */
void resync(Ctx *c, uint32_t offset)
{
  if (!c->opt->line_directives)
    return;
  if (c->out->len && c->out->data[c->out->len - 1] != '\n')
    put(c, "\n");
  emit_line_directive(c->out, source_line_of(c->src, offset), c->src->path);
}

/* `#line` for byte `offset`, then the source line's indentation up to it
 * (tabs kept), so that what is put next has the line and column the
 * source has at `offset`: a compiler's diagnostic about it points there. */
#define MAX_MARK_COLUMN 200

void line_mark(Ctx *c, uint32_t offset)
{
  if (!c->opt->line_directives)
    return;
  StrBuf m = {0};
  while (c->out->len && (c->out->data[c->out->len - 1] == ' ' ||
                         c->out->data[c->out->len - 1] == '\t'))
    c->out->data[--c->out->len] = '\0'; /* no trailing blanks before it */
  if (c->out->len && c->out->data[c->out->len - 1] != '\n')
    strbuf_puts(&m, "\n");
  unsigned line = source_line_of(c->src, offset);
  emit_line_directive(&m, line, c->src->path);
  /* No indentation when only blanks follow on the source line. */
  size_t rest = offset;
  while (rest < c->src->len && (c->src->text[rest] == ' ' || c->src->text[rest] == '\t' ||
                                c->src->text[rest] == '\r'))
    rest++;
  /* Nor on very long lines (a program nesting loops on one line would get
   * output quadratic in its length). */
  if (rest < c->src->len && c->src->text[rest] != '\n' &&
      offset - c->src->line_start[line - 1] <= MAX_MARK_COLUMN)
    for (size_t i = c->src->line_start[line - 1]; i < offset; i++)
      strbuf_puts(&m, c->src->text[i] == '\t' ? "\t" : " ");
  /* Nested statements ending together would repeat the same mark. */
  if (!(c->out->len >= m.len && memcmp(c->out->data + c->out->len - m.len, m.data, m.len) == 0))
    strbuf_append(c->out, m.data, m.len);
  strbuf_free(&m);
}

static size_t count_newlines(const char *s, size_t n)
{
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    k += s[i] == '\n';
  return k;
}

static bool is_statement(NodeKind k)
{
  switch (k) {
  case K_EXPRESSION_STATEMENT: case K_FOREACH_STATEMENT: case K_SINGLE_STATEMENT:
  case K_IF_STATEMENT: case K_LOOP_STATEMENT: case K_SWITCH_STATEMENT:
  case K_RETURN_STATEMENT: case K_BREAK_STATEMENT: case K_CONTINUE_STATEMENT:
  case K_DECLARATION: case K_PARALLEL_SECTIONS_STATEMENT:
    return true;
  /* Not a block: it is its text with its statements rendered, each of
   * which ends in sync (and counting would cost the square of a deep
   * nesting of blocks). */
  default:
    return false;
  }
}

/* Starts a new output line for a #pragma. */
void pragma_line(Ctx *c, const char *pragma)
{
  if (c->out->len && c->out->data[c->out->len - 1] != '\n')
    put(c, "\n");
  putf(c, "#pragma %s\n", pragma);
}

/* ---- symbols -------------------------------------------------------------- */

Sym *sym_add(Ctx *c, const char *name, FalKind kind, const char *graph,
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
  s->elem = FK_NONE;
  s->local = false;
  s->ptr = false;
  s->view = NULL;
  return s;
}

void sym_pop(Ctx *c, int mark)
{
  while (c->nsyms > mark) {
    Sym *s = &c->syms[--c->nsyms];
    free(s->name);
    free(s->graph);
    free(s->edge_var);
    free(s->from);
    free(s->ctype);
    free(s->view);
  }
}

/* The innermost symbol of that name; a plain C declaration shadows a
 * Falcon one with FK_NONE. */
const Sym *sym_find(const Ctx *c, const char *name, size_t len)
{
  for (int i = c->nsyms - 1; i >= 0; i--)
    if (strlen(c->syms[i].name) == len && memcmp(c->syms[i].name, name, len) == 0)
      return &c->syms[i];
  return NULL;
}

/* True when a later declaration hides `s`. */
bool sym_shadowed(const Ctx *c, const Sym *s)
{
  return sym_find(c, s->name, strlen(s->name)) != s;
}

/* The symbol an identifier node names, or NULL. */
const Sym *ident_sym(Ctx *c, const Node *n)
{
  return n && n->kind == K_IDENTIFIER
             ? sym_find(c, c->src->text + n->start, n->end - n->start) : NULL;
}

/* ---- CUDA target: what host data kernels use ------------------------- */

bool graph_on_gpu(const Ctx *c, const char *name)
{
  const Sym *s = name ? sym_find(c, name, strlen(name)) : NULL;
  return s && s->kind == FK_GRAPH && s->gpu;
}

void add_capture(Ctx *c, const Sym *s, const char *ctype, CapKind what)
{
  for (int i = 0; i < c->ncaps; i++)
    if (strcmp(c->caps[i].name, s->name) == 0 && (c->caps[i].what == CAP_REDUX) == (what == CAP_REDUX))
      return;
  c->caps = xrealloc(c->caps, (size_t)(c->ncaps + 1) * sizeof *c->caps);
  c->caps[c->ncaps++] = (Capture){xstrdup(s->name), xstrdup(ctype), what};
}

/* A kernel or device function uses host symbol `s`: pass it by value, or
 * report why it cannot be used on the GPU. */
void note_use(Ctx *c, const Sym *s, const Node *at)
{
  if (!c->in_kernel || s - c->syms >= c->kernel_mark || s->kind == FK_GPUVAR)
    return;
  /* §2: a kernel gets the host variables it reads by value, locals and
   * file-scope ones alike.  A function that runs on the GPU has no such
   * copy of a file-scope host object: it is passed as a parameter. */
  if (s->global && c->fn && c->fn->element) {
    error_at(c->src, at->loc, "'%s' is not visible in a function that runs on "
             "the GPU; pass it as a parameter%s", s->name,
             s->kind == FK_CVAR ? " (or declare it on the GPU, §2)" : "");
    return;
  }
  switch (s->kind) {
  case FK_GRAPH: add_capture(c, s, "fal_G", CAP_GRAPH); break;
  case FK_POINT: add_capture(c, s, "fal_point", CAP_VALUE); break;
  case FK_EDGE: add_capture(c, s, "fal_edge", CAP_VALUE); break;
  case FK_COLL: add_capture(c, s, "fal_coll *", CAP_COLL); break;
  case FK_SET: add_capture(c, s, "fal_set", CAP_SET); break;
  case FK_ELEM: add_capture(c, s, "int", CAP_VALUE); break; /* an index (§3.6) */
  case FK_PROPVAL: /* struct T (g) t, a value (§3.6) */
    if (s->ctype)
      add_capture(c, s, ctx_printf(c, "struct %s", s->ctype), CAP_VALUE);
    break;
  case FK_CVAR:
    if (s->ctype)
      add_capture(c, s, s->ctype, CAP_VALUE);
    else
      error_at(c->src, at->loc, "host array '%s' cannot be used in a GPU "
               "foreach", s->name);
    break;
  default: break;
  }
}

/* A graph named in generated code: inside a kernel it is a capture. */
const char *gname(Ctx *c, const char *graph)
{
  if (c->in_kernel && graph) {
    const Sym *s = sym_find(c, graph, strlen(graph));
    if (s)
      note_use(c, s, c->prog->struct_at);
  }
  return graph;
}

/* ---- expression types -------------------------------------------------- */

EType etype_none(void) { return (EType){FK_NONE, NULL, NULL, NULL, false, NULL}; }


static EType field_type(Ctx *c, const Node *e)
{
  EType a = expr_type(c, node_field(e, F_ARGUMENT));
  const Node *f = node_field(e, F_FIELD);
  if (!f)
    return etype_none();
  char *name = text_of(c, f);
  if (a.kind == FK_GRAPH &&
      (strcmp(name, "points") == 0 || strcmp(name, "edges") == 0))
    return (EType){FK_ITER, a.graph, NULL, NULL, name[0] == 'e', NULL};
  if (a.kind == FK_POINT || a.kind == FK_EDGE) {
    const Prop *p = program_prop(c->prog, name);
    if (p && p->struct_name)
      return (EType){FK_PROPVAL, a.graph, p->struct_name, NULL, false, NULL};
  }
  if (a.kind == FK_PROPVAL || a.kind == FK_ELEM) { /* t.minppty.src, t.u (§3.6) */
    FalKind k = program_field_kind(c->prog, a.struct_name, name);
    if (k == FK_POINT || k == FK_EDGE)
      return (EType){k, a.graph, NULL, NULL, false, NULL};
  }
  return etype_none();
}

EType expr_type(Ctx *c, const Node *e)
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
    if (s->kind == FK_ELEM) { /* an element of a graph view (§3.6) */
      const Prop *v = view_prop(c, s->ctype);
      return (EType){FK_ELEM, s->graph, v ? v->struct_name : NULL, NULL, false, s->ctype};
    }
    if (s->kind == FK_PROPVAL) /* struct T (g) t: a value (§3.6) */
      return (EType){FK_PROPVAL, s->graph, s->ctype, NULL, false, NULL};
    return (EType){s->kind, s->kind == FK_GRAPH ? s->name : s->graph, NULL,
                   s->edge_var, false, NULL};
  }
  case K_PARENTHESIZED_EXPRESSION:
    return expr_type(c, node_named_child(e, 0));
  case K_SUBSCRIPT_EXPRESSION: {
    const Sym *cs = coll_sym(c, node_field(e, F_ARGUMENT));
    if (cs && cs->kind == FK_COLL && cs->elem == FK_ELEM) { /* §3.6 */
      const Prop *v = view_prop(c, cs->view);
      return (EType){FK_ELEM, cs->graph, v ? v->struct_name : NULL, NULL, false, cs->view};
    }
    if (cs && cs->kind == FK_COLL && cs->elem == FK_PROPVAL)
      return (EType){FK_PROPVAL, cs->graph, cs->view, NULL, false, NULL};
    if (cs && cs->kind == FK_COLL)
      return (EType){cs->elem, cs->graph, NULL, NULL, false, NULL};
    EType a = expr_type(c, node_field(e, F_ARGUMENT));
    if (a.kind == FK_ITER)
      return (EType){a.edges ? FK_EDGE : FK_POINT, a.graph, NULL, NULL, false, NULL};
    /* t.nodes[i], an array field of points or edges (`Point (g) nodes[3];`,
     * §3.6): element i is a point or edge of the struct's graph. */
    if ((a.kind == FK_POINT || a.kind == FK_EDGE) && node_field(e, F_ARGUMENT)->kind == K_FIELD_EXPRESSION)
      return a;
    const Node *arg = node_field(e, F_ARGUMENT);
    if (arg && arg->kind == K_FIELD_EXPRESSION) { /* g.tri[i]: a view's element */
      EType g = expr_type(c, node_field(arg, F_ARGUMENT));
      const Prop *v = view_prop(c, text_of(c, node_field(arg, F_FIELD)));
      if (g.kind == FK_GRAPH && v)
        return (EType){FK_PROPVAL, g.graph, v->struct_name, NULL, false, NULL};
    }
    return etype_none();
  }
  case K_FIELD_EXPRESSION:
    return field_type(c, e);
  case K_CALL_EXPRESSION: { /* s.find(x) is a point (§3.4) */
    const Node *fn = node_field(e, F_FUNCTION);
    if (!fn || fn->kind != K_FIELD_EXPRESSION)
      return etype_none();
    const Sym *ss = coll_sym(c, node_field(fn, F_ARGUMENT));
    const Node *m = node_field(fn, F_FIELD);
    if (ss && ss->kind == FK_SET &&
        (node_text_is(c->src, m, "find") || node_text_is(c->src, m, "Findcompress")))
      return (EType){FK_POINT, ss->graph, NULL, NULL, false, NULL};
    return etype_none();
  }
  default:
    return etype_none();
  }
}

/* ---- functions and statements ------------------------------------------------ */

static bool is_static(const Ctx *c, const Node *fn)
{
  for (const Node *ch = fn->child; ch && ch->field != F_DECLARATOR; ch = ch->next)
    if (node_text_is(c->src, ch, "static"))
      return true;
  return false;
}

/* &x of a GPU scalar in host code (CUDA target): §2 lets host code read
 * and write it, by value; its address is device memory that host code
 * cannot follow.  An error (true: reported). */
static bool host_gpu_address(Ctx *c, const Node *n)
{
  const Node *op = node_field(n, F_OPERATOR), *arg = node_field(n, F_ARGUMENT);
  arg = arg ? node_unparen(arg) : NULL;
  if (!c->gpu || c->in_kernel || !op || !node_text_is(c->src, op, "&") || !arg ||
      arg->kind != K_IDENTIFIER)
    return false;
  const Sym *s = ident_sym(c, arg);
  if (!s || s->kind != FK_GPUVAR)
    return false;
  error_at(c->src, n->loc, "host code cannot take the address of GPU variable '%s' (§2: "
           "host code reads and writes it by value); copy it to a host variable", s->name);
  copy_range(c, n->start, n->end);
  return true;
}

/* CUDA target: functions a GPU foreach calls run on the device too
 * (__host__ __device__); other non-static functions keep C linkage so
 * that .c files can call them.  `n` is the definition or prototype. */
void put_linkage(Ctx *c, const Node *n, const FuncInfo *f, bool is_main)
{
  if (!c->gpu || is_main)
    return;
  if (f && (f->element || merge_on_device(c, f)))
    put(c, "__host__ __device__ ");
  else if (!is_static(c, n))
    put(c, "extern \"C\" ");
}

static void render_function(Ctx *c, const Node *n)
{
  const Node *name = declarator_name(node_field(n, F_DECLARATOR));
  FuncInfo *saved_fn = c->fn;
  bool saved_el = c->element, saved_k = c->in_kernel, saved_hd = c->hd;
  int saved_mark = c->kernel_mark;
  c->fn = name ? program_func(c->prog, text_of(c, name)) : NULL;
  c->element = c->fn && c->fn->element;
  bool is_main = name && node_text_is(c->src, name, "main");
  put_linkage(c, n, c->fn, is_main);
  Capture *saved_caps = c->caps;
  int saved_ncaps = c->ncaps;
  /* (the updateFunction that merges on the device is device code too, and
   * host code when a host part's merge calls it: GPU scalars as in an
   * element function, FAL_HD_GET and friends) */
  if (c->gpu && (c->element || merge_on_device(c, c->fn))) { /* device code: only its own symbols */
    c->in_kernel = true;
    c->hd = true; /* ... and host code too: put_linkage */
    c->kernel_mark = c->nsyms;
    c->caps = NULL; /* a device function captures nothing (errors may try) */
    c->ncaps = 0;
  }
  if (!node_field(n, F_TYPE)) /* §1: no return type */
    put(c, is_main ? "int " : "void ");
  int mark = c->nsyms;
  bool sp = c->single_points, se = c->single_edges, so = c->sorts;
  c->single_points = c->single_edges = c->sorts = false;
  /* A warp body (lower_warp.c): the same code serves a thread per point
   * and a warp per point, as the kernel was launched. */
  WarpInfo wi;
  bool wf = c->gpu && c->element && c->fn && warp_fn_info(c, c->fn, &wi);
  WarpScope ws = warp_begin(c, wf ? &wi : NULL);
  render_children_of(c, n);
  warp_end(c, ws);
  if (c->fn) { /* callers' loops clear the locks this function uses */
    c->fn->single_points = c->single_points;
    c->fn->single_edges = c->single_edges;
    c->fn->sorts = c->sorts;
  }
  c->single_points = sp;
  c->single_edges = se;
  c->sorts = so;
  sym_pop(c, mark);
  c->fn = saved_fn;
  c->element = saved_el;
  c->hd = saved_hd;
  c->in_kernel = saved_k;
  c->kernel_mark = saved_mark;
  if (c->caps != saved_caps) {
    for (int i = 0; i < c->ncaps; i++) {
      free(c->caps[i].name);
      free(c->caps[i].ctype);
    }
    free(c->caps);
    c->caps = saved_caps;
    c->ncaps = saved_ncaps;
  }
}

bool in_main(const Ctx *c)
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
static bool has_foreach(const Node *n)
{
  for (const Node *m = n; m; m = node_next(m, n, true))
    if (m->kind == K_FOREACH_STATEMENT)
      return true;
  return false;
}

static void render_loop(Ctx *c, const Node *n)
{
  /* A host loop around parallel foreach statements: ask the planner
   * (plan.c, docs/optimiser.md) whether it can run without the host. */
  if (host_code(c) && c->fn && has_foreach(n)) {
    LoopPlan p;
    plan_loop(c, n, &p);
    if (p.kind == PLAN_DEVICE && c->opt->gpu_loops == GPU_LOOPS_HOST) {
      p.kind = PLAN_HOST;
      snprintf(p.why, sizeof p.why, "a device plan exists; --gpu-loops=host does not use it");
    }
    if (c->opt->explain)
      plan_explain(c, &p);
    if (p.kind != PLAN_HOST || (c->mpi && (p.topo || p.mpx || (!c->gpu && p.pull)))) {
      if (p.kind != PLAN_HOST)
        emit_planned_loop(c, &p);
      else
        emit_mpi_loop(c, &p);
      plan_free(&p);
      return;
    }
    plan_free(&p);
  }
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

void render_children_of(Ctx *c, const Node *n)
{
  uint32_t pos = n->start;
  for (const Node *ch = n->child; ch; ch = ch->next) {
    copy_range(c, pos, ch->start);
    render(c, ch);
    pos = ch->end;
  }
  copy_range(c, pos, n->end);
}

static void render_node(Ctx *c, const Node *n);

/* A lowered statement whose output has another number of lines than its
 * source (a kernel launch in place of a loop, a loop header on one line)
 * ends with a line mark for the source position after it, so that the
 * copied text that follows keeps its line and column. */
void render(Ctx *c, const Node *n)
{
  if (n && n == c->warp_cond) { /* a warp body's condition: lane 0's */
    c->warp_cond = NULL;
    put(c, "(fal_wb(!!");
    render(c, n);
    put(c, "))");
    return;
  }
  if (!n)
    return;
  /* In a warp body plain C statements too need their lane-0 forms. */
  bool warp_stmt = c->warp && !c->warp_nbr &&
                   (n->kind == K_IF_STATEMENT || n->kind == K_EXPRESSION_STATEMENT ||
                    n->kind == K_COMPOUND_STATEMENT ||
                    (n->kind == K_OTHER && strcmp(n->type, "else_clause") == 0));
  if (!n->interesting && !warp_stmt) {
    copy_range(c, n->start, n->end);
    return;
  }
  size_t from = c->out->len;
  render_node(c, n);
  if (is_statement(n->kind) && c->opt->line_directives &&
      count_newlines(c->out->data ? c->out->data + from : "", c->out->len - from) !=
          count_newlines(c->src->text + n->start, n->end - n->start))
    line_mark(c, n->end);
}

static void render_node(Ctx *c, const Node *n)
{
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
  case K_POINTER_EXPRESSION:
    if (!render_coll_address(c, n) && !host_gpu_address(c, n))
      render_children_of(c, n);
    break;
  case K_ASSIGNMENT_EXPRESSION:
    if (render_coll_assignment(c, n) || render_view_assignment(c, n) ||
        render_elem_assignment(c, n))
      break;
    if (c->gpu)
      render_assignment(c, n);
    else if (!render_host_graph_copy(c, n))
      render_children_of(c, n);
    break;
  case K_UPDATE_EXPRESSION:
    if (c->gpu)
      render_update(c, n);
    else
      render_children_of(c, n);
    break;
  case K_FALCON_TYPE:
    if (falcon_type_kind(n) == FK_ELEM) {
      report_unsupported(c, n, "a struct bound to a graph in this position (declare "
                               "a variable, parameter or Collection element, §3.6)");
      break;
    }
    put(c, falcon_type_kind(n) == FK_POINT ? "fal_point"
           : falcon_type_kind(n) == FK_EDGE ? "fal_edge" : "fal_G");
    if (falcon_type_kind(n) == FK_COLL || falcon_type_kind(n) == FK_SET)
      report_unsupported(c, n, "a Set or Collection type in this position");
    break;
  case K_ELEMENT_DECLARATOR:
    report_unsupported(c, n, "an element declarator outside a Set or "
                             "Collection declaration (§3.4, §3.5)");
    break;
  case K_STRUCT_REC_SPECIFIER: /* a recursive field holds element indices (§3.6) */
    put(c, "int");
    break;
  case K_PARALLEL_SECTIONS_STATEMENT: render_parallel_sections(c, n); break;
  case K_REDUCTION_EXPRESSION:
    error_at(c->src, n->loc, "a reduction must be a statement of its own, "
             "optionally under an if (§4.4)");
    break;
  default:
    /* A Falcon node no case above lowers must never reach the output as
     * if it were C. */
    if (node_kind_is_falcon(n->kind))
      report_unsupported(c, n, "this Falcon construct in this position");
    else
      render_children_of(c, n);
    break;
  }
}

/* ---- the program ----------------------------------------------------------------- */

static bool interesting_kind(NodeKind k, bool gpu)
{
  if (gpu && (k == K_IDENTIFIER || k == K_DECLARATION ||
              k == K_PARAMETER_DECLARATION || k == K_UPDATE_EXPRESSION))
    return true;
  switch (k) {
  case K_POINTER_EXPRESSION:    /* `&c` of a Collection (§3.5) */
  case K_ASSIGNMENT_EXPRESSION: /* also `c1 = c2` of Collections */
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
  /* Clear first: the marks depend on the target, and a tree may be
   * lowered more than once (the fuzz harness lowers it for each). */
  for (Node *n = root; n; n = node_next(n, root, true))
    n->interesting = false;
  for (Node *n = root; n; n = node_next(n, root, true)) {
    bool implicit_prototype = n->kind == K_DECLARATION && !node_field(n, F_TYPE);
    if (!interesting_kind(n->kind, gpu) && !implicit_prototype)
      continue;
    for (Node *p = n; p && !p->interesting; p = p->parent)
      p->interesting = true;
  }
}

/* The number of elements of a property of graph `h` (point, edge, 1);
 * a mutable graph (§6) has them for its capacity. */
static bool mutating;
static const char *prop_count_expr(PropKind k)
{
  if (mutating && k != PK_GRAPH)
    return k == PK_POINT ? "fal_prop_elems(&h->fal_base.csr, 0)"
                         : "fal_prop_elems(&h->fal_base.csr, 1)";
  return k == PK_POINT ? "(size_t)h->npoints" : k == PK_EDGE ? "(size_t)h->nedges" : "1";
}

/* The same, counted on the GPU graph `d` (the host side may be empty). */
static const char *prop_count_dev(PropKind k)
{
  if (mutating && k != PK_GRAPH)
    return k == PK_POINT ? "fal_prop_elems(&d->fal_base.csr, 0)"
                         : "fal_prop_elems(&d->fal_base.csr, 1)";
  return k == PK_POINT ? "(size_t)d->npoints" : k == PK_EDGE ? "(size_t)d->nedges" : "1";
}

/* CUDA target, a program that mutates graphs in parallel code (§6): the
 * calls of device code (the host ones when a __host__ __device__ function
 * runs on the host), and fal_G_gpu_settle, run after each launch: the
 * counts follow what the kernel did, and when edges overflowed (or point
 * ids or in-edges need it) the graph is settled on the host and copied
 * back, properties with it. */
static void emit_gpu_mutation_functions(Ctx *c)
{
  Program *p = c->prog;
  put(c, "static __host__ __device__ inline fal_edge fal_G_add_edge_hd(fal_G *g, fal_point u, "
         "fal_point v, fal_weight w)\n{\n#ifdef __CUDA_ARCH__\n"
         "  return fal_gpu_add_edge(&g->fal_base, u, v, w);\n#else\n"
         "  return fal_G_add_edge(g, u, v, w);\n#endif\n}\n"
         "static __host__ __device__ inline fal_point fal_G_add_point_hd(fal_G *g)\n{\n"
         "#ifdef __CUDA_ARCH__\n  return fal_gpu_add_point(&g->fal_base);\n#else\n"
         "  return fal_G_add_point(g);\n#endif\n}\n"
         "static __host__ __device__ inline void fal_G_del_edge_hd(fal_G *g, fal_edge e)\n{\n"
         "#ifdef __CUDA_ARCH__\n  fal_gpu_del_edge(&g->fal_base, e);\n#else\n"
         "  fal_graph_del_edge(&g->fal_base.csr, e);\n#endif\n}\n"
         "static __host__ __device__ inline void fal_G_del_point_hd(fal_G *g, fal_point q)\n{\n"
         "#ifdef __CUDA_ARCH__\n  fal_gpu_del_point(&g->fal_base, q);\n#else\n"
         "  fal_graph_del_point(&g->fal_base.csr, q);\n#endif\n}\n");
  put(c, "static void fal_G_gpu_settle(fal_G *d, const char *file, int line)\n{\n"
         "  int grow = fal_gpu_mut_collect(&d->fal_base, file, line);\n"
         "  d->npoints = (int)d->fal_base.csr.npoints;\n"
         "  d->nedges = (long)d->fal_base.csr.nedges;\n"
         "  if (!grow)\n    return;\n"
         "  fal_G h;\n  memset(&h, 0, sizeof h);\n"
         "  fal_gpu_structure_pull(&h.fal_base, &d->fal_base);\n");
  for (int i = 0; i < p->nprops; i++) {
    const Prop *q = &p->props[i];
    if (q->kind != PK_POINT && q->kind != PK_EDGE)
      continue;
    putf(c, "  fal_prop_add(&h.fal_base, (void **)&h.%s, sizeof *h.%s, %s);\n"
            "  if (d->%s)\n    FAL_CUDA(cudaMemcpy(h.%s, d->%s, fal_prop_elems(&h.fal_base.csr, %d) "
            "* sizeof *h.%s, cudaMemcpyDeviceToHost));\n",
         q->name, q->name, prop_kind_name(q->kind), q->name, q->name, q->name,
         q->kind == PK_EDGE, q->name);
  }
  put(c, "  fal_gpu_overflow_apply(&h.fal_base, &d->fal_base);\n"
         "  fal_gbase_settle(&h.fal_base);\n"
         "  h.npoints = (int)h.fal_base.csr.npoints;\n"
         "  h.nedges = (long)h.fal_base.csr.nedges;\n"
         "  h.directed = d->directed;\n"
         "  fal_G_elems_to_gpu(d, &h, file, line);\n");
  put(c, "  d->fal_base.structure_of = NULL; /* h goes */\n"
         "  fal_gbase_free(&h.fal_base);\n}\n");
}

/* CUDA target: placing a graph, copying it to and from its GPU (§2, §5). */
static void emit_gpu_graph_functions(Ctx *c)
{
  Program *p = c->prog;
  put(c, "static fal_G fal_G_gpu(int device)\n{\n  fal_G g;\n  memset(&g, 0, sizeof g);\n"
         "  g.fal_base.on_gpu = 1;\n  g.fal_base.want_device = device;\n"
         "  g.fal_base.device = -1;\n  return g;\n}\n");
  /* The structure and the point and edge properties; arrays of a new
   * size (a grown graph, §6, or another graph read) are made again. */
  put(c, "static void fal_G_elems_to_gpu(fal_G *d, const fal_G *h, const char *file, int line)\n{\n"
         "  int fal_regrow = d->fal_base.loaded &&\n"
         "      (fal_prop_elems(&d->fal_base.csr, 0) != fal_prop_elems(&h->fal_base.csr, 0) ||\n"
         "       fal_prop_elems(&d->fal_base.csr, 1) != fal_prop_elems(&h->fal_base.csr, 1));\n"
         "  fal_gpu_structure(&d->fal_base, &h->fal_base, file, line);\n"
         "  d->npoints = h->npoints;\n  d->nedges = h->nedges;\n  d->directed = h->directed;\n");
  for (int i = 0; i < p->nprops; i++) {
    const Prop *q = &p->props[i];
    if (q->kind != PK_POINT && q->kind != PK_EDGE)
      continue;
    putf(c, "  if (fal_regrow && d->%s) {\n    FAL_CUDA(cudaFree(d->%s));\n"
            "    d->%s = NULL;\n  }\n", q->name, q->name, q->name);
    putf(c, "  fal_dcopy_in((void **)&d->%s, h->%s, %s * sizeof *d->%s, file, line);\n",
         q->name, q->name, prop_count_expr(q->kind), q->name);
  }
  put(c, "}\n");
  /* g = hg: that, graph-level properties and views. */
  put(c, "static void fal_G_to_gpu(fal_G *d, const fal_G *h, const char *file, int line)\n{\n"
         "  if (d->fal_base.device < 0)\n"
         "    d->fal_base.device = fal_cuda_place(d->fal_base.want_device, file, line);\n"
         "  fal_cuda_use(d->fal_base.device);\n"
         "  fal_G_elems_to_gpu(d, h, file, line);\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_VIEW) /* graph views (§3.6) */
      putf(c, "  fal_view_to_gpu((void **)&d->%s, &d->fal_cap_%s, h->%s, h->n%s, sizeof *d->%s, "
              "file, line);\n  d->n%s = h->n%s;\n", p->props[i].name, p->props[i].name,
           p->props[i].name, p->props[i].name, p->props[i].name, p->props[i].name,
           p->props[i].name);
    else if (p->props[i].kind == PK_GRAPH)
      putf(c, "  fal_dcopy_in((void **)&d->%s, h->%s, %s * sizeof *d->%s, file, line);\n",
           p->props[i].name, p->props[i].name, prop_count_expr(p->props[i].kind),
           p->props[i].name);
  put(c, "}\n");
  put(c, "static void fal_G_props_to_host(fal_G *h, const fal_G *d)\n{\n"
         "  fal_cuda_use(d->fal_base.device);\n"
         "  h->npoints = d->npoints;\n  h->nedges = d->nedges;\n  h->directed = d->directed;\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_VIEW)
      putf(c, "  fal_view_to_host((void **)&h->%s, &h->fal_cap_%s, d->%s, d->n%s, sizeof *h->%s);\n"
              "  h->n%s = d->n%s;\n", p->props[i].name, p->props[i].name, p->props[i].name,
           p->props[i].name, p->props[i].name, p->props[i].name, p->props[i].name);
    else
      putf(c, "  fal_dcopy_out((void **)&h->%s, d->%s, %s * sizeof *h->%s);\n",
           p->props[i].name, p->props[i].name, prop_count_dev(p->props[i].kind),
           p->props[i].name);
  put(c, "}\n");
  /* hg = g: the structure too, unless hg holds what was copied to g. */
  put(c, "static void fal_G_to_host(fal_G *h, fal_G *d)\n{\n"
         "  fal_cuda_use(d->fal_base.device);\n"
         "  if (d->fal_base.loaded && (d->fal_base.structure_of != (const void *)h->fal_base.csr.offsets ||\n"
         "                             d->fal_base.csr.version != h->fal_base.csr.version)) {\n"
         "    fal_gpu_structure_pull(&h->fal_base, &d->fal_base);\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT || p->props[i].kind == PK_EDGE)
      putf(c, "    fal_free(h->%s);\n    h->%s = NULL;\n", p->props[i].name, p->props[i].name);
  put(c, "    d->fal_base.structure_of = h->fal_base.csr.offsets;\n  }\n"
         "  fal_G_props_to_host(h, d);\n}\n");
  if (p->par_mutates)
    emit_gpu_mutation_functions(c);
  put(c, "static void fal_G_read_gpu(fal_G *g, const char *path, const char *file, int line)\n{\n"
         "  fal_G h;\n  memset(&h, 0, sizeof h);\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind != PK_VIEW)
      putf(c, "  fal_prop_add(&h.fal_base, (void **)&h.%s, sizeof *h.%s, %s);\n",
         p->props[i].name, p->props[i].name, prop_kind_name(p->props[i].kind));
  put(c, "  fal_G_read(&h, path);\n  fal_G_to_gpu(g, &h, file, line);\n"
         "  g->fal_base.structure_of = NULL;\n  fal_gbase_free(&h.fal_base);\n}\n");
}

/* The merge function that the border exchange calls on the device: the
 * program's one updateFunction, if its body is device code (no calls but
 * to element functions and a few math and output functions); NULL with
 * *ok false when there are several or it cannot run on a GPU. */
static const FuncInfo *device_merge(Ctx *c, bool *ok)
{
  static const char *const on_device[] = {"MIN", "MAX", "fabs", "fmin", "fmax", "abs",
                                          "sqrt", "printf", "min", "max", NULL};
  const FuncInfo *m = NULL;
  *ok = true;
  for (int i = 0; i < c->prog->nfuncs; i++) {
    const FuncInfo *f = &c->prog->funcs[i];
    if (!f->merge)
      continue;
    if (m || !f->def) {
      *ok = false;
      return NULL;
    }
    m = f;
  }
  if (!m)
    return NULL;
  const Node *body = node_field(m->def, F_BODY);
  for (const Node *n = body; n; n = node_next(n, body, true)) {
    if (n->kind != K_CALL_EXPRESSION)
      continue;
    const Node *fn = node_field(n, F_FUNCTION);
    const FuncInfo *callee = fn && fn->kind == K_IDENTIFIER ? program_func(c->prog, text_of(c, fn)) : NULL;
    if (callee ? callee->element : fn && fn->kind == K_IDENTIFIER && is_one_of(text_of(c, fn), on_device))
      continue;
    *ok = false;
    return NULL;
  }
  return m;
}

/* Whether the merge function (if any) touches nothing but point
 * properties of its two points and calls no Falcon function: then the
 * border exchange may run it on a GPU over a host part's point properties,
 * which are in pinned mapped memory for that (its CSR and graph properties
 * are not). */
static bool merge_points_only(Ctx *c, const FuncInfo *m)
{
  if (!m)
    return true;
  const Node *body = node_field(m->def, F_BODY);
  for (const Node *n = body; n; n = node_next(n, body, true)) {
    if (n->kind == K_FOREACH_STATEMENT)
      return false;
    if (n->kind == K_CALL_EXPRESSION) {
      const Node *fn = node_field(n, F_FUNCTION);
      if (!fn || fn->kind != K_IDENTIFIER || program_func(c->prog, text_of(c, fn)))
        return false;
    }
    if (n->kind == K_FIELD_EXPRESSION && node_field(n, F_FIELD)) {
      const Prop *pr = program_prop(c->prog, text_of(c, node_field(n, F_FIELD)));
      if (!pr || pr->kind != PK_POINT)
        return false;
    }
  }
  return true;
}

/* Whether put_linkage makes function f device code as well: the
 * updateFunction that the border exchange calls on the GPU. */
bool merge_on_device(Ctx *c, const FuncInfo *f)
{
  bool ok;
  return c->gpu && c->prog->nparted && f && f->merge && !c->prog->mutates &&
         device_merge(c, &ok) == f && ok;
}

/* --mpi --target=gpu: whether a GPU rank merges incoming records on its
 * GPU (docs/lowering.md "GPU parts under MPI"): the program's one
 * updateFunction, if it has one, is device code, and no graph mutates. */
bool mpi_merge_on_gpu(Ctx *c)
{
  bool ok;
  device_merge(c, &ok);
  return c->gpu && c->mpi && c->prog->nparted && ok && !c->prog->mutates;
}

/* fal_G_mark and fal_G_markall: host code wrote point p (-1: points it
 * cannot name) of a graph whose GPU copies (`on`: the border exchange's
 * parts, or an MPI rank's GPU) get it before the next foreach; after 64
 * points, or -1, every value goes (fal_ndirty 65). */
static void emit_mark_functions(Ctx *c, const char *on)
{
  putf(c, "static inline int64_t fal_G_mark(fal_G *h, int64_t p)\n{\n"
          "  if (%s && h->fal_ndirty <= 64) {\n"
          "    if (p < 0 || h->fal_ndirty == 64)\n      h->fal_ndirty = 65; /* all */\n"
          "    else\n      h->fal_dirty_pt[h->fal_ndirty++] = (fal_point)p;\n  }\n"
          "  return p;\n}\n"
          "static inline fal_G *fal_G_markall(fal_G *h)\n{\n  fal_G_mark(h, -1);\n  return h;\n}\n",
       on);
}

/* The point properties of point p, graph `from` to graph `to` (on a
 * GPU, a host part's pinned memory or the host graph: cudaMemcpyDefault),
 * each line indented by `in`. */
static void emit_dirty_copies(Ctx *c, const char *to, const char *from, const char *in)
{
  const Program *p = c->prog;
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT)
      putf(c, "%sif (%s->%s && %s->%s)\n"
              "%s  FAL_CUDA(cudaMemcpy(%s->%s + p, %s->%s + p, sizeof *%s->%s, cudaMemcpyDefault));\n",
           in, from, p->props[i].name, to, p->props[i].name, in, to, p->props[i].name, from,
           p->props[i].name, from, p->props[i].name);
}

/* fal_G_dirty_to(h, q): the points host code marked (fal_G_mark,
 * fal_G_wr, fal_G_mpi_wr), host graph h to GPU copy q: a part
 * (fal_G_fresh and fal_G_bx_begin) or, under --mpi, the rank's GPU
 * (fal_G_mpi_dbegin, fal_G_fresh).  The caller selects q's device. */
static void emit_dirty_to(Ctx *c)
{
  put(c, "static void fal_G_dirty_to(const fal_G *h, fal_G *q)\n{\n"
         "  for (int d = 0; d < h->fal_ndirty; d++) {\n"
         "    fal_point p = h->fal_dirty_pt[d];\n    (void)p; /* (no point property) */\n");
  emit_dirty_copies(c, "q", "h", "    ");
  put(c, "  }\n}\n");
}

/* The pieces fal_G_px_end and fal_G_px_mid share (emit_part_kernels_exchange).
 * The k == 1 return: with rd, every thread's copy of the graph
 * properties and a barrier that keeps the leader's next write after the
 * reads. */
static void emit_px_one_part(Ctx *c, const char *what)
{
  putf(c, "  if (k == 1) { /* %s */\n"
          "    if (rd) { /* every thread's copy; the leader's next write waits for the reads */\n"
          "      fal_G_px_before(own, cur);\n      grid.sync();\n    }\n"
          "    return;\n  }\n", what);
}

/* The owners merge what the other parts changed (with two parts, and so
 * one holder, writing each point back at once); `head`: the lines
 * before (the values before the phase, or nothing). */
static void emit_px_merge(Ctx *c, const char *head, const char *mname)
{
  putf(c, "%s"
          "  const bool one = k == 2; /* one holder: the owner merges and writes back point by point */\n"
          "  for (int i = 0, first = 1; i < k && ex == FAL_EX_MERGE; i++) { /* merge what part i changed */\n"
          "    int64_t n = x.goff[i][me + 1] - x.goff[i][me], s0 = x.goff[i][me];\n"
          "    if (i == me || !n)\n      continue;\n"
          "    if (!first)\n      grid.sync();\n    first = 0;\n"
          "    const fal_point *ids = x.oids[me] + x.ooff[me][i];\n"
          "    FAL_G_GRID_LOOP(y, n) {\n      fal_G_bx_merge1(own, &pp[i], &sh[i], s0 + y, ids[y], %d);\n"
          "      if (one)\n        fal_G_bx_scatter1(&pp[i], own, &sh[i], s0 + y, ids[y]);\n    }\n"
          "  }\n", head, mname ? 1 : 0);
}

/* Every thread combines the graph properties: the first part whose value
 * differs from the value before the phase wins.  `fmt` names part j's
 * value of property %s: its memory ("pp[j].%s[0]") or what it published
 * ("pub[j].%s"). */
static void emit_px_combine(Ctx *c, const char *fmt)
{
  const Program *p = c->prog;
  put(c, "  for (int j = 0; j < k; j++) { /* a value changed by any part wins: the first such part's */\n");
  for (int i = 0; i < p->nprops; i++) {
    if (p->props[i].kind != PK_GRAPH)
      continue;
    const char *n = p->props[i].name, *v = ctx_printf(c, fmt, n);
    putf(c, "    if (own->%s && !fal_bx_differs(nv.%s, b.%s) && fal_bx_differs(%s, b.%s))\n"
            "      nv.%s = %s;\n", n, n, n, v, n, n, v);
  }
  put(c, "  }\n");
}

/* With more than one holder, a barrier after the merges; then the owner
 * writes its values into the holders' ghosts and shadows. */
static void emit_px_scatter(Ctx *c)
{
  put(c, "  if (ex == FAL_EX_MERGE && !one)\n    grid.sync(); /* every merge into an owned point is done */\n"
         "  for (int i = 0; i < k && (ex == FAL_EX_OWN || !one); i++) { /* the owner writes its values into part i's ghosts */\n"
         "    int64_t n = x.goff[i][me + 1] - x.goff[i][me], s0 = x.goff[i][me];\n"
         "    if (i == me || !n)\n      continue;\n"
         "    const fal_point *ids = x.oids[me] + x.ooff[me][i];\n"
         "    FAL_G_GRID_LOOP(y, n)\n      fal_G_bx_scatter1(&pp[i], own, &sh[i], s0 + y, ids[y]);\n"
         "  }\n");
}

/* The graph properties as one value (fal_G_gb) and fal_G_px_before, which
 * a parts kernel's leader reads them with (below). */
static void emit_gb(Ctx *c)
{
  Program *p = c->prog;
  put(c, "typedef struct fal_G_gb {\n  char fal_none;\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_GRAPH)
      putf(c, "  %s %s;\n", p->props[i].ctype, p->props[i].name);
  put(c, "} fal_G_gb;\n");
  put(c, "__device__ static inline void fal_G_px_before(const fal_G *own, fal_G_gb *b)\n{\n  (void)own; (void)b;\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_GRAPH)
      putf(c, "  if (own->%s)\n    b->%s = own->%s[0];\n", p->props[i].name, p->props[i].name,
           p->props[i].name);
  put(c, "}\n");
}

/* CUDA target: the exchange inside a planned partitioned loop's kernels
 * (falcon/cuda.cuh fal_px, lower_plan.c, docs/optimiser.md "Partitioned
 * loops on the devices"): the device code of fal_G_bx_end, run by every
 * part's kernel for its own part between barriers that all parts take.
 *   fal_G_px_before  the leader keeps the graph properties before a foreach
 *   fal_G_px_end     after it: the owners merge what other parts changed
 *                    (one holder after another, as the merge kernels run
 *                    one after another in an owner's stream) and then
 *                    write their values into the holders' ghosts, every
 *                    part reads the graph properties; after the second
 *                    barrier each part takes the properties' new values.
 *                    Owners write the ghosts (not holders read them after
 *                    a barrier), so no third barrier keeps an owner's next
 *                    foreach from changing a value before it was read.
 *   fal_G_px_enter   (host) before the kernels: what fal_G_bx_begin does,
 *                    and the parts' graphs on every part's device
 *   fal_G_px_leave   (host) after them: the graph properties come back
 * mname: the updateFunction, or NULL (values are taken). */
static void emit_part_kernels_exchange(Ctx *c, const char *mname)
{
  Program *p = c->prog;
  emit_gb(c);
  int ngp = 0; /* graph properties: with none, no new values to combine */
  for (int i = 0; i < p->nprops; i++)
    ngp += p->props[i].kind == PK_GRAPH;
  /* Every thread combines the graph properties (the same values in every
   * thread: the parts' copies do not change between the two barriers), and
   * every thread whose part's value is not the combined one writes it after
   * the second barrier (one value, so the writes agree).  No barrier
   * follows them: a later step that writes a shared object gets one
   * (lower_plan.c, gp_pending); steps that read them read that value.
   * With cur (plan.c gp_copy_rule) only the leader writes them and every
   * thread keeps them in *cur, which the steps read instead. */
  put(c, "__device__ static void fal_G_px_end(cooperative_groups::grid_group &grid, const fal_px &x, "
         "fal_G *own, unsigned long long &nb, int ex, fal_G_gb *cur, int rd)\n{\n"
         "  const int k = x.k, me = x.me;\n"
         "  fal_G *pp = (fal_G *)x.pp, *sh = pp + k;\n"
         "  fal_px_sync(grid, x, nb); /* every part's foreach is done */\n");
  emit_px_one_part(c, "no ghosts to merge or refresh; the properties are the part's");
  const char *gb = "  const fal_G_gb b = *(const fal_G_gb *)x.gb; /* fal_G_px_before */\n"
                   "  fal_G_gb nv = b;\n";
  emit_px_merge(c, ngp ? gb : "", mname);
  if (ngp) {
    emit_px_combine(c, "pp[j].%s[0]");
    for (int i = 0; i < p->nprops; i++)
      if (p->props[i].kind == PK_GRAPH)
        putf(c, "  const bool nw_%s = own->%s && fal_bx_differs(own->%s[0], nv.%s);\n",
             p->props[i].name, p->props[i].name, p->props[i].name, p->props[i].name);
  }
  emit_px_scatter(c);
  put(c, "  fal_px_sync(grid, x, nb); /* merged, ghosts written, every part read the properties */\n");
  /* cur (lower_plan.c, plan.c gp_copy_rule): every thread takes the
   * values into its copy and only the leader writes them, so nothing but
   * the leader's next writes (its own, in order) follows the barrier.
   * rd: the steps after this phase read the copy (with one part it is
   * read from memory, and a barrier keeps the leader's next write after
   * those reads). */
  if (ngp)
    put(c, "  if (cur)\n    *cur = nv;\n"
           "  const bool wr = !cur || (blockIdx.x == 0 && threadIdx.x == 0 && threadIdx.y == 0);\n");
  else
    put(c, "  (void)cur; (void)rd;\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_GRAPH)
      putf(c, "  if (nw_%s && wr)\n    own->%s[0] = nv.%s;\n", p->props[i].name, p->props[i].name,
           p->props[i].name);
  put(c, "}\n");
  /* fal_G_px_mid (lower_plan.c parts_early_body, plan.c gp_early): the
   * exchange up to its last barrier, which the kernel takes after the
   * steps that follow the phase.  The part's last block publishes its
   * graph properties at the first barrier (x.pub[me]) and every part
   * combines the published values, so after it the leader may write its
   * part's memory: the combined values here, the steps' writes next. */
  put(c, "struct fal_G_px_pubf { /* fal_px_sync_f: the part's graph properties to x.pub */\n"
         "  static const bool some = true;\n"
         "  const fal_G *own;\n  fal_G_gb *to;\n"
         "  __device__ void operator()() const { fal_G_px_before(own, to); }\n};\n");
  put(c, "__device__ static void fal_G_px_mid(cooperative_groups::grid_group &grid, const fal_px &x, "
         "fal_G *own, unsigned long long &nb, int ex, fal_G_gb *cur, int rd)\n{\n"
         "  const int k = x.k, me = x.me;\n"
         "  fal_G *pp = (fal_G *)x.pp, *sh = pp + k;\n"
         "  fal_G_gb *pub = (fal_G_gb *)x.pub;\n"
         "  fal_G_px_pubf f = {own, pub + me};\n"
         "  fal_px_sync_f(grid, x, nb, f); /* every part's foreach is done, its properties published */\n");
  emit_px_one_part(c, "no ghosts; the properties are the part's");
  emit_px_merge(c, ngp ? gb : "  (void)cur; (void)pub;\n", mname);
  if (ngp)
    emit_px_combine(c, "pub[j].%s");
  emit_px_scatter(c);
  if (ngp) {
    put(c, "  *cur = nv;\n  if (blockIdx.x == 0 && threadIdx.x == 0 && threadIdx.y == 0) { /* the leader */\n");
    for (int i = 0; i < p->nprops; i++)
      if (p->props[i].kind == PK_GRAPH)
        putf(c, "    if (own->%s && fal_bx_differs(pub[me].%s, nv.%s))\n      own->%s[0] = nv.%s;\n",
             p->props[i].name, p->props[i].name, p->props[i].name, p->props[i].name,
             p->props[i].name);
    put(c, "  }\n");
  }
  put(c, "}\n");
  /* host: enter and leave */
  put(c, "static int fal_G_px_enter(fal_G *h, const char *file, int line)\n{\n"
         "  if (!h->fal_bx || h->fal_shared)\n    return 0;\n"
         "  if (!h->fal_pxh) {\n"
         "    if (h->fal_px_tried)\n      return 0;\n"
         "    h->fal_px_tried = 1;\n"
         "    fal_pxh *xh = fal_pxh_new(h->fal_bx, h->fal_lo, file, line);\n"
         "    if (!xh)\n      return 0;\n"
         "    int k = h->fal_nparts;\n"
         "    fal_G *all = (fal_G *)fal_calloc((size_t)2 * k, sizeof(fal_G));\n"
         "    for (int i = 0; i < k; i++) {\n"
         "      all[i] = h->fal_parts[i];\n      all[k + i] = h->fal_shadow[i];\n    }\n"
         "    for (int i = 0; i < k; i++) {\n"
         "      fal_cuda_use(h->fal_bx->dev[i]);\n"
         "      xh->px[i].pp = fal_dalloc((size_t)2 * k * sizeof(fal_G), file, line);\n"
         "      FAL_CUDA(cudaMemcpy(xh->px[i].pp, all, (size_t)2 * k * sizeof(fal_G), cudaMemcpyHostToDevice));\n"
         "      xh->px[i].wait_ns = fal_px_wait_ns();\n"
         "      xh->px[i].gb = fal_dalloc(sizeof(fal_G_gb), file, line);\n"
         "    }\n"
         "    fal_cuda_use(h->fal_bx->dev[0]); /* fal_G_px_mid: what each part published */\n"
         "    void *pub = fal_dalloc((size_t)k * sizeof(fal_G_gb), file, line);\n"
         "    for (int i = 0; i < k; i++)\n      xh->px[i].pub = pub;\n"
         "    free(all);\n"
         "    h->fal_pxh = xh;\n  }\n"
         "  if (((fal_pxh *)h->fal_pxh)->off)\n    return 0;\n"
         "  fal_G_bx_begin(h, FAL_EX_MERGE); /* host writes and graph properties to the parts; shadows */\n"
         "  for (int i = 0; i < h->fal_nparts; i++) {\n"
         "    fal_cuda_use(h->fal_bx->dev[i]);\n    FAL_CUDA(cudaDeviceSynchronize());\n  }\n"
         "  return 1;\n}\n");
  put(c, "static void fal_G_px_leave(fal_G *h)\n{\n"
         "  fal_cuda_use(h->fal_bx->dev[0]);\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_GRAPH)
      putf(c, "  if (h->%s && h->fal_parts[0].%s)\n"
              "    FAL_CUDA(cudaMemcpy(h->%s, h->fal_parts[0].%s, sizeof *h->%s, cudaMemcpyDeviceToHost));\n",
           p->props[i].name, p->props[i].name, p->props[i].name, p->props[i].name,
           p->props[i].name);
  put(c, "  h->fal_stale = h->fal_shadow_ok = 1;\n}\n");
}

/* CUDA target: the border exchange between GPU parts (falcon/cuda.cuh
 * fal_bx, docs/lowering.md "Partitioned graphs (§7)").  Kernels that
 * snapshot a part's ghosts, merge the ghosts another part changed into
 * their owner's values, and refresh a part's ghosts from their owners;
 * fal_G_bx_begin / fal_G_bx_end around a foreach; fal_G_fresh (host code
 * reads points: the parts' values come back) and fal_G_mark (host code
 * writes point p: it goes to the parts before the next foreach). */
static void emit_border_exchange(Ctx *c)
{
  Program *p = c->prog;
  bool ok;
  const FuncInfo *m = device_merge(c, &ok);
  ok = ok && !p->mutates;
  const char *mname = m ? text_of(c, declarator_name(node_field(m->def, F_DECLARATOR))) : NULL;
  if (m && ok) { /* the kernel below calls it; its definition comes later */
    const Node *t = node_field(m->def, F_TYPE);
    putf(c, "__host__ __device__ %s %s(fal_G *, fal_point, fal_G *, fal_point);\n",
         t ? text_of(c, t) : "void", mname);
  }
  /* The index's parameter must not be a token of the body: named x, a
   * loop over y ran blockIdx.y, threadIdx.y, ... (every thread took every
   * item: fal_G_px_end's loops, 1.6 ms a round on road-FLA). */
  put(c, "#define FAL_G_GRID_LOOP(fal_v_, n) for (int64_t fal_v_ = blockIdx.x * (int64_t)blockDim.x + "
         "threadIdx.x; fal_v_ < (n); fal_v_ += (int64_t)gridDim.x * blockDim.x)\n");
  put(c, "__global__ void fal_G_bx_snap(fal_G g, fal_G sh, const fal_point *ids, int64_t n)\n{\n"
         "  FAL_G_GRID_LOOP(x, n) {\n    fal_point p = ids[x];\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT)
      putf(c, "    if (sh.%s)\n      sh.%s[x] = g.%s[p];\n", p->props[i].name,
                       p->props[i].name, p->props[i].name);
  put(c, "  }\n}\n");
  /* One ghost: merged into its owner when holder `from` changed it (its
   * shadow entry s differs), and refreshed from its owner (the shadow of
   * the next foreach too).  The host's kernels below and the parts'
   * kernels (fal_G_px_end) both call these. */
  put(c, "__device__ static inline void fal_G_bx_merge1(fal_G *own, fal_G *from, const fal_G *sh, "
         "int64_t s, fal_point p, int use_merge)\n{\n  if (!(0");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT)
      putf(c, " ||\n        (sh->%s && fal_bx_differs(from->%s[p], sh->%s[s]))",
                       p->props[i].name, p->props[i].name, p->props[i].name);
  put(c, "))\n    return; /* this part did not change it */\n");
  if (m && ok)
    putf(c, "  if (use_merge) {\n    %s(own, p, from, p);\n    return;\n  }\n", mname);
  else
    put(c, "  (void)use_merge;\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT)
      putf(c, "  if (own->%s)\n    own->%s[p] = from->%s[p];\n", p->props[i].name,
                       p->props[i].name, p->props[i].name);
  put(c, "}\n");
  put(c, "__device__ static inline void fal_G_bx_scatter1(fal_G *g, const fal_G *from, const fal_G *sh, "
         "int64_t s, fal_point p)\n{\n  (void)sh;\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT)
      putf(c, "  if (g->%s) {\n    g->%s[p] = from->%s[p];\n"
                          "    if (sh->%s)\n      sh->%s[s] = g->%s[p];\n  }\n",
                       p->props[i].name, p->props[i].name, p->props[i].name, p->props[i].name,
                       p->props[i].name, p->props[i].name);
  put(c, "}\n");
  put(c, "__global__ void fal_G_bx_merge(fal_G own, fal_G from, fal_G sh, int64_t s0, "
         "const fal_point *ids, int64_t n, int use_merge)\n{\n"
         "  FAL_G_GRID_LOOP(x, n)\n    fal_G_bx_merge1(&own, &from, &sh, s0 + x, ids[x], use_merge);\n}\n");
  put(c, "__global__ void fal_G_bx_scatter(fal_G g, fal_G from, fal_G sh, int64_t s0, "
         "const fal_point *ids, int64_t n)\n{\n"
         "  FAL_G_GRID_LOOP(x, n)\n    fal_G_bx_scatter1(&g, &from, &sh, s0 + x, ids[x]);\n}\n");
  /* setup: after makePartition placed the parts */
  put(c, "static void fal_G_bx_setup(fal_G *h, const char *file, int line)\n{\n"
         "  int k = h->fal_nparts, dev[64];\n");
  if (!ok)
    put(c, "  /* several updateFunctions, one that is not device code, or mutation (§6):\n"
           "   * every foreach copies every property */\n");
  putf(c, "  if (%s || h->fal_shared || fal_env_switch(\"FALCON_BORDERS\", \"on\", \"off\") == 0)\n"
          "    return;\n", ok ? "0" : "1");
  /* Host parts take part through their point properties, moved to pinned
   * memory mapped for every GPU: their exchange kernels run on the
   * first GPU part's device, in its stream, so merges into a host part's
   * points run one after another, as a GPU owner's do. */
  putf(c, "  int d0 = -1, onhost[64] = {0};\n"
          "  for (int i = 0; i < k && d0 < 0; i++)\n"
          "    if (h->fal_parts[i].fal_base.on_gpu)\n      d0 = h->fal_parts[i].fal_base.device;\n"
          "  if (d0 < 0)\n    return;\n"
          "  for (int i = 0; i < k; i++) {\n"
          "    fal_G *q = &h->fal_parts[i];\n"
          "    dev[i] = q->fal_base.on_gpu ? q->fal_base.device : d0;\n"
          "    if (q->fal_base.on_gpu)\n      continue;\n"
          "    onhost[i] = 1;\n%s",
       merge_points_only(c, m)
           ? "    if (!fal_host_mappable())\n      return; /* every property travels */\n"
           : "    return; /* the merge function reaches more than its points' properties:\n"
             "             * with host parts every property travels */\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT)
      putf(c, "    if (q->%s && !fal_host_pin((void **)&q->%s, (%s + 1) * sizeof *q->%s))\n"
              "      return;\n",
           p->props[i].name, p->props[i].name, prop_count_expr(p->props[i].kind), p->props[i].name);
  put(c, "  }\n"
         "  h->fal_bx = fal_bx_new(&h->fal_base.csr, h->fal_lo, k, dev, onhost, file, line);\n"
         "  if (!h->fal_bx)\n    return;\n"
         "  h->fal_shadow = (fal_G *)fal_calloc((size_t)k, sizeof(fal_G));\n"
         "  for (int i = 0; i < k; i++) {\n"
         "    int64_t n = fal_bx_nghosts(h->fal_bx, i);\n"
         "    fal_cuda_use(dev[i]);\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT)
      putf(c, "    if (h->%s && n)\n      h->fal_shadow[i].%s = (%s *)fal_dalloc((size_t)n * sizeof(%s), file, line);\n",
                       p->props[i].name, p->props[i].name, p->props[i].ctype, p->props[i].ctype);
  put(c, "  }\n  h->fal_gpin = (fal_G *)fal_calloc((size_t)k, sizeof(fal_G));\n"
         "  for (int i = 0; i < k; i++) { /* graph properties travel through pinned memory */\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_GRAPH)
      putf(c, "    FAL_CUDA(cudaMallocHost((void **)&h->fal_gpin[i].%s, sizeof(%s)));\n",
           p->props[i].name, p->props[i].ctype);
  put(c, "  }\n  h->fal_stale = h->fal_ndirty = h->fal_shadow_ok = 0;\n}\n");
  /* fresh and mark */
  emit_dirty_to(c);
  put(c, "static fal_G *fal_G_fresh(fal_G *h)\n{\n"
         "  if (!h->fal_stale)\n    return h;\n"
         "  /* the points host code wrote since the parts' last foreach (fal_G_wr)\n"
         "   * go to the parts first; they stay marked for the next foreach */\n"
         "  for (int i = 0; i < h->fal_nparts && h->fal_bx && h->fal_ndirty <= 64; i++) {\n"
         "    fal_cuda_use(h->fal_parts[i].fal_base.device);\n"
         "    fal_G_dirty_to(h, &h->fal_parts[i]);\n"
         "  }\n"
         "  for (int i = 0; i < h->fal_nparts; i++) {\n"
         "    fal_G *q = &h->fal_parts[i];\n"
         "    int64_t lo = h->fal_lo[i], n = h->fal_lo[i + 1] - lo;\n"
         "    fal_cuda_use(q->fal_base.device);\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT)
      putf(c, "    if (h->%s && q->%s && n)\n"
                          "      FAL_CUDA(cudaMemcpy(h->%s + lo, q->%s + lo, (size_t)n * sizeof *h->%s, cudaMemcpyDefault));\n",
                       p->props[i].name, p->props[i].name, p->props[i].name, p->props[i].name,
                       p->props[i].name);
  put(c, "  }\n  h->fal_stale = 0;\n  return h;\n}\n");
  emit_mark_functions(c, "h->fal_bx");
  /* A host write of point p (lower_expr.c render_element_field) while the
   * parts hold newer values: that point's values from its owner, not every
   * point's (fal_G_fresh copies them all: 16 MB for kron-22's distances);
   * the host graph stays stale but for p, which is marked (and fetched
   * once: a second write of p keeps the first).  Without the
   * exchange, or with 64 points marked, fal_G_fresh and fal_G_mark. */
  put(c, "static int64_t fal_G_wr(fal_G *h, int64_t p)\n{\n"
         "  if (!h->fal_stale || !h->fal_bx || h->fal_ndirty >= 64 || p < 0 || p >= h->npoints) {\n"
         "    fal_G_fresh(h);\n    return fal_G_mark(h, p);\n  }\n"
         "  for (int d = 0; d < h->fal_ndirty; d++)\n"
         "    if (h->fal_dirty_pt[d] == (fal_point)p)\n"
         "      return p; /* its values are here already, with the host's writes */\n"
         "  int o = 0;\n"
         "  while (o + 1 < h->fal_nparts && p >= h->fal_lo[o + 1])\n    o++;\n"
         "  fal_G *q = &h->fal_parts[o];\n"
         "  fal_cuda_use(q->fal_base.device);\n");
  emit_dirty_copies(c, "h", "q", "  ");
  put(c, "  h->fal_dirty_pt[h->fal_ndirty++] = (fal_point)p;\n  return p;\n}\n");
  /* begin */
  put(c, "static int fal_G_bx_begin(fal_G *h, int ex)\n{\n"
         "  if (!h->fal_bx) {\n    fal_G_parts_push(h);\n    return 0;\n  }\n"
         "  fal_bx *x = h->fal_bx;\n  int k = h->fal_nparts;\n"
         "  if (h->fal_ndirty > 64) /* host code changed points: every value */\n"
         "    fal_G_parts_push(h);\n"
         "  for (int i = 0; i < k && h->fal_ndirty <= 64; i++) {\n"
         "    fal_G *q = &h->fal_parts[i];\n"
         "    fal_cuda_use(x->dev[i]);\n"
         "    fal_G_dirty_to(h, q);\n");
  /* a host part's value is set here: its loop runs on the host right
   * after the launches, so it must not wait for a copy */
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_GRAPH)
      putf(c, "    if (h->%s && q->%s && !q->fal_base.on_gpu)\n"
              "      q->%s[0] = h->%s[0];\n"
              "    else if (h->%s && q->%s) {\n"
              "      h->fal_gpin[i].%s[0] = h->%s[0];\n"
              "      FAL_CUDA(cudaMemcpyAsync(q->%s, h->fal_gpin[i].%s, sizeof *h->%s, cudaMemcpyHostToDevice, 0));\n"
              "    }\n",
           p->props[i].name, p->props[i].name, p->props[i].name, p->props[i].name,
           p->props[i].name, p->props[i].name, p->props[i].name, p->props[i].name,
           p->props[i].name, p->props[i].name, p->props[i].name);
  put(c, "  }\n  if (h->fal_ndirty) /* the ghosts may have changed */\n    h->fal_shadow_ok = 0;\n"
         "  h->fal_ndirty = 0;\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_GRAPH)
      putf(c, "  if (h->%s)\n    h->fal_bx_before_%s = h->%s[0];\n", p->props[i].name,
           p->props[i].name, p->props[i].name);
  put(c, "  for (int i = 0; i < k && ex == FAL_EX_MERGE && !h->fal_shadow_ok; i++) { /* the ghosts' values now */\n"
         "    int64_t n = fal_bx_nghosts(x, i);\n"
         "    if (!n)\n      continue;\n"
         "    fal_cuda_use(x->dev[i]);\n"
         "    fal_G_bx_snap<<<fal_cuda_grid(n), FAL_BLOCK>>>(h->fal_parts[i], h->fal_shadow[i], x->gids[i], n);\n"
         "    FAL_CHECK_LAUNCH(\"fal_G_bx_snap\");\n"
         "    if (x->onhost[i]) /* before its loop writes the ghosts it reads */\n"
         "      FAL_CUDA(cudaDeviceSynchronize());\n  }\n  return 1;\n}\n");
  /* end */
  put(c, "static void fal_G_bx_end(fal_G *h, int on, int ex)\n{\n"
         "  if (!on) {\n    fal_G_parts_pull(h);\n    return;\n  }\n"
         "  fal_bx *x = h->fal_bx;\n  int k = h->fal_nparts;\n  fal_G *v = h->fal_parts;\n"
         "  x->rounds++;\n"
         "  for (int i = 0; i < k; i++) {\n"
         "    fal_cuda_use(x->dev[i]);\n    FAL_CUDA(cudaEventRecord(x->done[i], 0));\n  }\n"
         "  for (int j = 0; j < k && ex == FAL_EX_MERGE; j++) { /* owners merge what others changed */\n"
         "    fal_cuda_use(x->dev[j]);\n"
         "    for (int i = 0; i < k; i++) {\n"
         "      int64_t n = FAL_BORDER_N(&x->b, i, j);\n"
         "      if (i == j || !n)\n        continue;\n"
         "      FAL_CUDA(cudaStreamWaitEvent(0, x->done[i], 0));\n"
         "      fal_G_bx_merge<<<fal_cuda_grid(n), FAL_BLOCK>>>(v[j], v[i], h->fal_shadow[i],\n"
         "          x->b.off[i * k + j] - x->b.off[i * k], x->oids[j] + x->ooff[j * (k + 1) + i], n,\n"
         "          h->fal_merge != NULL);\n"
         "      FAL_CHECK_LAUNCH(\"fal_G_bx_merge\");\n    }\n"
         "    FAL_CUDA(cudaEventRecord(x->merged[j], 0));\n  }\n"
         "  /* FAL_EX_OWNERS: the foreach's MINs went to their owners (fal_rmt,\n"
         "   * lower_loop.c): nothing to merge, and the ghosts, which its loop\n"
         "   * never reads, are refreshed once, after the loop; FAL_EX_ALIKE: every\n"
         "   * part wrote its ghosts as their owners did (lower_loop.c bx_alike) */\n"
         "  for (int i = 0; i < k && ex < FAL_EX_OWNERS; i++) { /* ghosts take their owners' values */\n"
         "    fal_cuda_use(x->dev[i]);\n"
         "    for (int j = 0; j < k; j++) {\n"
         "      int64_t n = FAL_BORDER_N(&x->b, i, j);\n"
         "      if (i == j || !n)\n        continue;\n"
         "      FAL_CUDA(cudaStreamWaitEvent(0, ex == FAL_EX_OWN ? x->done[j] : x->merged[j], 0));\n"
         "      fal_G_bx_scatter<<<fal_cuda_grid(n), FAL_BLOCK>>>(v[i], v[j], h->fal_shadow[i],\n"
         "          x->b.off[i * k + j] - x->b.off[i * k], x->gids[i] + (x->b.off[i * k + j] - x->b.off[i * k]), n);\n"
         "      FAL_CHECK_LAUNCH(\"fal_G_bx_scatter\");\n    }\n  }\n");
  /* a loop that may pull counts the round's new points after the
   * exchange, in the same streams (falcon/cuda.cuh fal_pdir) */
  put(c, "  for (int i = 0; i < k && x->post; i++) {\n"
         "    fal_cuda_use(x->dev[i]);\n    x->post(x->post_arg, i);\n  }\n");
  put(c, "  for (int i = 0; i < k; i++) { /* graph properties back, then wait */\n"
         "    fal_cuda_use(x->dev[i]);\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_GRAPH)
      putf(c, "    if (h->%s && v[i].%s && x->onhost[i])\n"
              "      h->fal_gpin[i].%s[0] = v[i].%s[0];\n"
              "    else if (h->%s && v[i].%s)\n"
              "      FAL_CUDA(cudaMemcpyAsync(h->fal_gpin[i].%s, v[i].%s, sizeof *h->%s, cudaMemcpyDeviceToHost, 0));\n",
           p->props[i].name, p->props[i].name, p->props[i].name, p->props[i].name,
           p->props[i].name, p->props[i].name, p->props[i].name, p->props[i].name,
           p->props[i].name);
  put(c, "  }\n  for (int i = 0; i < k; i++) {\n"
         "    fal_cuda_use(x->dev[i]);\n    FAL_CUDA(cudaDeviceSynchronize());\n  }\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_GRAPH)
      putf(c, "  if (h->%s) /* a value changed by any part wins */\n"
              "    for (int j = 0; j < k; j++)\n"
              "      if (fal_bx_differs(h->fal_gpin[j].%s[0], h->fal_bx_before_%s)) {\n"
              "        h->%s[0] = h->fal_gpin[j].%s[0];\n        break;\n      }\n",
           p->props[i].name, p->props[i].name, p->props[i].name, p->props[i].name,
           p->props[i].name);
  /* (FAL_EX_ALIKE wrote the ghosts and not their shadows: fal_G_bx_begin
   * takes them again before a loop that merges) */
  put(c, "  h->fal_stale = 1;\n  h->fal_shadow_ok = ex != FAL_EX_ALIKE;\n}\n");
  emit_part_kernels_exchange(c, m && ok ? mname : NULL);
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
  if (c->gpu)
    put(c, "static void fal_G_bx_setup(fal_G *h, const char *file, int line);\n");
  put(c, "static void fal_G_partition(fal_G *h, int ngpu, int ncpu, int policy, const char *file, int line)\n{\n"
         "  int k = ngpu + ncpu;\n  (void)policy;\n"
         "  if (k < 1 || k > 64 || ngpu < 0 || ncpu < 0) {\n"
         "    fprintf(stderr, \"%s:%d: error: makePartition(%d, %d): between 1 and 64 parts\\n\", file, line, ngpu, ncpu);\n"
         "    exit(1);\n  }\n"
         "  h->fal_nparts = k;\n"
         "  h->fal_parts = (fal_G *)fal_calloc((size_t)k, sizeof(fal_G));\n"
         "  h->fal_mirrors = (fal_G *)fal_calloc((size_t)k, sizeof(fal_G));\n"
         "  h->fal_lo = (int64_t *)fal_calloc((size_t)k + 1, sizeof(int64_t));\n"
         "  /* ORDERED: contiguous, balanced by edges */\n"
         "  fal_graph_cut_ordered(h->fal_base.csr.offsets, 0, h->npoints, h->nedges, k, h->fal_lo);\n");
  /* No GPU part: every part is threads of this process, which share the
   * host graph's properties, so nothing is copied or merged. */
  if (c->gpu)
    put(c, "  h->fal_shared = ngpu == 0 || fal_cuda_count_quiet() == 0;\n");
  else
    put(c, "  h->fal_shared = 1;\n");
  put(c, "  for (int i = 0; i < k; i++) {\n    fal_G *q = &h->fal_parts[i];\n");
  if (c->gpu)
    put(c, "    if (i < ngpu && fal_cuda_count_quiet() > 0) { /* a GPU part */\n"
           "      *q = fal_G_gpu(-1);\n      fal_G_to_gpu(q, h, file, line);\n      continue;\n    }\n"
           "    if (i < ngpu && i == 0)\n"
           "      fprintf(stderr, \"falcon: note: no GPU: the %d GPU part(s) run on the host\\n\", ngpu);\n");
  put(c, "    q->fal_base.csr = h->fal_base.csr; /* a host part shares the CSR */\n"
         "    q->fal_base.device = -1;\n"
         "    q->npoints = h->npoints;\n    q->nedges = h->nedges;\n    q->directed = h->directed;\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind != PK_VIEW) /* views are not partitioned (§7) */
      putf(c, "    q->%s = h->fal_shared ? h->%s : (%s *)fal_calloc(%s + 1, sizeof *q->%s);\n",
         p->props[i].name, p->props[i].name, p->props[i].ctype,
         prop_count_expr(p->props[i].kind), p->props[i].name);
  put(c, c->gpu ? "  }\n  fal_G_bx_setup(h, file, line);\n}\n" : "  }\n}\n");
  /* push */
  put(c, "static void fal_G_parts_push(fal_G *h)\n{\n"
         "  if (h->fal_shared)\n    return;\n"
         "  for (int i = 0; i < h->fal_nparts; i++) {\n    fal_G *q = &h->fal_parts[i];\n");
  if (c->gpu)
    put(c, "    if (q->fal_base.on_gpu) {\n      fal_G_to_gpu(q, h, __FILE__, __LINE__);\n"
           "      continue;\n    }\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind != PK_VIEW)
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
         "  if (h->fal_shared)\n    return;\n"
         "  for (int i = 0; i < k; i++) {\n    v[i] = &h->fal_parts[i];\n");
  if (c->gpu)
    put(c, "    if (v[i]->fal_base.on_gpu) {\n      fal_G_props_to_host(&h->fal_mirrors[i], v[i]);\n"
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
  if (c->gpu) /* the parts are behind the host graph now */
    put(c, "  if (h->fal_bx)\n    h->fal_ndirty = 65;\n");
  put(c, "}\n");
  if (c->gpu)
    emit_border_exchange(c);
}

/* --mpi (docs/lowering.md "Partitioned graphs under MPI"): every rank
 * holds the whole graph and owns a contiguous range of points; a foreach
 * runs over the rank's own points on the host graph itself, and after it
 * only the ghosts and border points whose values changed travel
 * (falcon/mpi.h).  A point's record is its point properties, packed. */
static const char *mpi_bit(Ctx *c, const char *m, int k)
{
  /* more than 64 point properties: the rest always travel */
  return k < 64 ? ctx_printf(c, "(%s >> %d & 1)", m, k) : "1";
}

/* --mpi --target=gpu (docs/lowering.md "GPU parts under MPI"): a rank's
 * points run on one GPU, which holds the whole graph like the host graph
 * does.  The MPI exchange stays on the host graph; around it only the
 * ghosts and border points travel between the GPU and the host, packed by
 * kernels into one staging array per point property (each 16-byte
 * aligned), and only the properties of the round's record.  Host code
 * that reads points gets this rank's own range back first
 * (fal_G_mpi_own); points that host code writes go to the GPU before the
 * next foreach (fal_G_mark, as for GPU parts without MPI). */
static void mpi_gpu_each_prop(Ctx *c, bool dev_to_buf)
{
  Program *p = c->prog;
  for (int i = 0, k = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT) {
      const char *nm = p->props[i].name, *ty = p->props[i].ctype;
      if (dev_to_buf)
        putf(c, "    if (%s && g.%s)\n      ((%s *)b)[x] = g.%s[ids[x]];\n", mpi_bit(c, "m", k), nm, ty, nm);
      else
        putf(c, "    if (%s && g.%s)\n      g.%s[ids[x]] = ((const %s *)b)[x];\n", mpi_bit(c, "m", k), nm, nm, ty);
      putf(c, "    b += FAL_MPI_SEG(n, sizeof(%s));\n", ty);
      k++;
    }
}

/* The staging copies of the point properties of mask m, one
 * cudaMemcpyAsync each: `count` records of each property's array, whose
 * arrays start FAL_MPI_SEG(`seg`) apart; to the host or to the device.
 * `guard` is prepended to each property's condition. */
static void mpi_gpu_copies(Ctx *c, const char *guard, const char *count, const char *seg,
                           bool to_host)
{
  Program *p = c->prog;
  for (int i = 0, k = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT) {
      const char *ty = p->props[i].ctype;
      putf(c, "  if (%s%s && h->%s)\n"
              "    FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_%s + o, h->fal_mpi_%s + o, (size_t)%s * sizeof(%s), %s, 0));\n"
              "  o += FAL_MPI_SEG(%s, sizeof(%s));\n",
           guard, mpi_bit(c, "m", k), p->props[i].name, to_host ? "hbuf" : "dbuf",
           to_host ? "dbuf" : "hbuf", count, ty,
           to_host ? "cudaMemcpyDeviceToHost" : "cudaMemcpyHostToDevice", seg, ty);
      k++;
    }
}

/* The graph properties (the loop flags) through the pinned block
 * fal_mpi_hgp, one FAL_MPI_SEG(1, size) slot each, in the program's
 * order (fal_G_mpi_gpu_setup sizes it):
 *   GP_TO_GPU    into the first half, then on to the GPU, asynchronously;
 *   GP_FROM_GPU  from the GPU into the second half, asynchronously;
 *   GP_TAKE      from the second half into the host graph, once the
 *                stream has synchronised. */
enum { GP_TO_GPU, GP_FROM_GPU, GP_TAKE };

static void mpi_gpu_graph_props(Ctx *c, int how)
{
  Program *p = c->prog;
  int ngp = 0;
  for (int i = 0; i < p->nprops; i++)
    ngp += p->props[i].kind == PK_GRAPH;
  if (!ngp) /* (nvcc warns of a gp set and not used, (void) or not) */
    return;
  /* GP_TO_GPU is printed inside fal_G_mpi_dbegin's block already */
  putf(c, "%s    %sunsigned char *gp = h->fal_mpi_hgp%s;\n",
       how == GP_TO_GPU ? "" : "  {\n", how == GP_TAKE ? "const " : "",
       how == GP_TO_GPU ? "" : " + h->fal_mpi_ngp");
  for (int i = 0; i < p->nprops; i++) {
    if (p->props[i].kind != PK_GRAPH)
      continue;
    const char *x = p->props[i].name;
    putf(c, "    if (h->%s && d->%s)", x, x);
    if (how == GP_TO_GPU)
      putf(c, " {\n      memcpy(gp, h->%s, sizeof *h->%s);\n"
              "      FAL_CUDA(cudaMemcpyAsync(d->%s, gp, sizeof *h->%s, cudaMemcpyHostToDevice, 0));\n    }\n",
           x, x, x, x);
    else if (how == GP_FROM_GPU)
      putf(c, "\n      FAL_CUDA(cudaMemcpyAsync(gp, d->%s, sizeof *h->%s, cudaMemcpyDeviceToHost, 0));\n", x, x);
    else
      putf(c, "\n      memcpy(h->%s, gp, sizeof *h->%s);\n", x, x);
    putf(c, "    gp += FAL_MPI_SEG(1, sizeof *h->%s);\n", x);
  }
  if (how != GP_TO_GPU)
    put(c, "  }\n");
}

/* In a kernel over the entries x of ids: ch becomes true when entry x's
 * record (the point properties of mask m) differs from its copy in the
 * shadow s, whose segments hold n values of each property in turn */
static void mpi_emit_differs(Ctx *c)
{
  Program *p = c->prog;
  for (int i = 0, k = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT) {
      const char *nm = p->props[i].name, *ty = p->props[i].ctype;
      putf(c, "      if (%s && g.%s)\n        ch = ch || fal_bx_differs(g.%s[ids[x]], ((const %s *)s)[x]);\n"
              "      s += FAL_MPI_SEG(n, sizeof(%s));\n", mpi_bit(c, "m", k), nm, nm, ty, ty);
      k++;
    }
}

/* Merges on the GPU (fal_mpi_exchange_dev, runtime/mpi.c): the rank's
 * GPU packs the changed entries as the messages' (point, record) pairs,
 * merges the incoming ones into its own points with the updateFunction
 * (device code) and overwrites its ghosts with the others; the host only
 * moves the pairs between the GPU and MPI.  docs/lowering.md "GPU ranks
 * merge on their GPU" says why the host graph needs none of it. */
static void emit_mpi_gpu_merges(Ctx *c)
{
  bool ok;
  const FuncInfo *m = device_merge(c, &ok);
  const char *mname = m ? text_of(c, declarator_name(node_field(m->def, F_DECLARATOR))) : NULL;
  if (m) { /* the kernel below calls it; its definition comes later */
    const Node *t = node_field(m->def, F_TYPE);
    putf(c, "__host__ __device__ %s %s(fal_G *, fal_point, fal_G *, fal_point);\n",
         t ? text_of(c, t) : "void", mname);
  }
  /* entries x0 .. x1 of the ids (ghosts, then border entries) whose
   * record differs from the round's start (sh), or whose point a merge
   * changed (pchg, phase 2), as (point, record) pairs from out; cnt
   * counts them (one atomicAdd per warp: the loop steps a warp at a time) */
  put(c, "enum { FAL_MPI_AHEAD = 16384 };\n");
  put(c, "__global__ void fal_G_mpi_dcollect(fal_G g, const fal_point *ids, int64_t x0, int64_t x1, int64_t n, const unsigned char *sh, const unsigned char *pchg, int64_t lo, unsigned char *out, unsigned long long *cnt, uint64_t m, size_t one)\n{\n"
         "  for (int64_t w = x0 + blockIdx.x * (int64_t)blockDim.x + (threadIdx.x & ~31u); w < x1; w += (int64_t)gridDim.x * blockDim.x) {\n"
         "    int64_t x = w + (threadIdx.x & 31);\n    bool ch = false;\n"
         "    if (x < x1) {\n      const unsigned char *s = sh;\n      (void)s;\n"
         "      ch = pchg && pchg[ids[x] - lo];\n");
  mpi_emit_differs(c);
  put(c, "    }\n    long long q = fal_mpi_slot(ch, cnt);\n"
         "    if (q < 0)\n      continue;\n"
         "    unsigned char *o = out + (size_t)q * one;\n    fal_point p = ids[x];\n"
         "    memcpy(o, &p, sizeof p);\n"
         "    fal_G_mpi_pack_m(&g, p, o + sizeof p, m);\n  }\n}\n");
  /* a message's pairs: merged into the owner's points (merge), as point
   * `at + j` of `in`, which holds the owner's properties overlaid with the
   * record, and flagged in pchg when the record changed; or (!merge)
   * overwriting ghosts.  A message names each point once. */
  /* bad (pairs read from another rank's GPU over CUDA IPC): points
   * outside [plo, phi) (this rank's, phase 1; the sender's, phase 2) are
   * counted there and skipped, as the host checks a message's points */
  put(c, "__global__ void fal_G_mpi_dapply(fal_G g, fal_G fal_in, const unsigned char *rb, int64_t nrec, int64_t at, int fal_ph1, int fal_um, unsigned char *pchg, int64_t lo, uint64_t m, size_t one, int64_t plo, int64_t phi, unsigned long long *bad)\n{\n"
         "  for (int64_t j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; j < nrec; j += (int64_t)gridDim.x * blockDim.x) {\n"
         "    const unsigned char *r = rb + (size_t)j * one;\n    fal_point p;\n"
         "    memcpy(&p, r, sizeof p);\n    r += sizeof p;\n"
         "    if (bad && (p < plo || p >= phi)) {\n      atomicAdd(bad, 1ULL);\n      continue;\n    }\n"
         "    if (!fal_ph1) {\n      fal_G_mpi_unpack(&g, p, r, m);\n      continue;\n    }\n"
         "    unsigned char before[FAL_MPI_REC_MAX], after[FAL_MPI_REC_MAX];\n"
         "    size_t cur = one - sizeof p;\n"
         "    fal_G_mpi_pack_m(&g, p, before, m);\n");
  if (m)
    putf(c, "    if (fal_um) {\n"
            "      unsigned char all[FAL_MPI_REC_MAX];\n"
            "      fal_G_mpi_pack_m(&g, p, all, ~(uint64_t)0);\n"
            "      fal_G_mpi_unpack(&fal_in, at + j, all, ~(uint64_t)0);\n"
            "      fal_G_mpi_unpack(&fal_in, at + j, r, m);\n"
            "      %s(&g, p, &fal_in, (fal_point)(at + j));\n"
            "    } else\n  ", mname);
  else
    put(c, "    (void)fal_in;\n    (void)fal_um;\n");
  put(c, "    fal_G_mpi_unpack(&g, p, r, m);\n"
         "    fal_G_mpi_pack_m(&g, p, after, m);\n"
         "    for (size_t b = 0; b < cur; b++)\n"
         "      if (before[b] != after[b]) {\n        pchg[p - lo] = 1;\n        break;\n      }\n"
         "  }\n}\n");
  /* fal_mpi_collect_fn: the changed entries of the phase's list, per
   * neighbour, from the GPU (waiting for the previous phase's
   * deliveries); phase 2 clears the merge flags and takes the graph
   * properties back too */
  put(c, "static void fal_G_mpi_collect(void *gv, int phase, int64_t *count, unsigned char *sbuf)\n{\n"
         "  fal_G *h = (fal_G *)gv, *d = h->fal_mpi_gpu;\n  fal_mpi_plan *pl = h->fal_mpi;\n"
         "  int nn = pl->nnbr;\n  const int64_t *off = phase == 1 ? pl->goff : pl->boff;\n"
         "  int64_t base = phase == 1 ? 0 : pl->goff[nn], lo = pl->lo[pl->rank];\n"
         "  size_t one = sizeof(fal_point) + pl->cur;\n"
         "  /* IPC: the pairs stay on the GPU for the neighbours to read, each\n"
         "   * phase in its own part of the send area (fal_mpi_exchange_ipc) */\n"
         "  int ipc = h->fal_mpi_ipc;\n"
         "  unsigned char *out = h->fal_mpi_dsend + (ipc && phase == 2 ? (size_t)pl->goff[nn] * one : 0);\n"
         "  fal_cuda_use(d->fal_base.device);\n"
         "  if (nn) {\n"
         "    FAL_CUDA(cudaMemsetAsync(h->fal_mpi_dncnt, 0, (size_t)nn * sizeof *h->fal_mpi_dncnt, 0));\n"
         "    for (int i = 0; i < nn; i++)\n"
         "      if (off[i + 1] > off[i]) {\n"
         "        fal_G_mpi_dcollect<<<fal_cuda_grid(off[i + 1] - off[i]), FAL_BLOCK>>>(*d, h->fal_mpi_did, base + off[i], base + off[i + 1], h->fal_mpi_nid, h->fal_mpi_dsh, phase == 2 && pl->ex == FAL_EX_MERGE ? h->fal_mpi_dpchg : NULL, lo, out + (size_t)off[i] * one, h->fal_mpi_dncnt + i, h->fal_mpi_mask, one);\n"
         "        FAL_CHECK_LAUNCH(\"fal_G_mpi_dcollect\");\n"
         "      }\n"
         "    if (phase == 2 && pl->ex == FAL_EX_MERGE)\n"
         "      FAL_CUDA(cudaMemsetAsync(h->fal_mpi_dpchg, 0, (size_t)(pl->lo[pl->rank + 1] - lo), 0));\n"
         "    FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_hncnt, h->fal_mpi_dncnt, (size_t)nn * sizeof *h->fal_mpi_hncnt, cudaMemcpyDeviceToHost, 0));\n"
         "    for (int i = 0; i < nn; i++) /* the first FAL_MPI_AHEAD pairs before their count is known: one wait, not two, in short rounds (with IPC: the rounds whose pairs go in messages) */\n"
         "      if (off[i + 1] > off[i])\n"
         "        FAL_CUDA(cudaMemcpyAsync(sbuf + (size_t)off[i] * one, out + (size_t)off[i] * one, (size_t)(off[i + 1] - off[i] < FAL_MPI_AHEAD ? off[i + 1] - off[i] : FAL_MPI_AHEAD) * one, cudaMemcpyDeviceToHost, 0));\n"
         "  }\n"
         "  if (phase == 2) {\n");
  mpi_gpu_graph_props(c, GP_FROM_GPU);
  put(c, "  }\n  FAL_CUDA(cudaStreamSynchronize(0));\n"
         "  if (phase == 2) {\n");
  mpi_gpu_graph_props(c, GP_TAKE);
  put(c, "  }\n  int any = 0;\n"
         "  for (int i = 0; i < nn; i++) {\n"
         "    int64_t k = (int64_t)h->fal_mpi_hncnt[i];\n"
         "    if (k < 0 || k > off[i + 1] - off[i]) {\n"
         "      fprintf(stderr, \"falcon: rank %d: %lld changed entries of %lld\\n\", pl->rank, (long long)k, (long long)(off[i + 1] - off[i]));\n"
         "      exit(1);\n    }\n"
         "    count[i] = k;\n"
         "    if (k > FAL_MPI_AHEAD && !ipc) {\n"
         "      size_t at = ((size_t)off[i] + FAL_MPI_AHEAD) * one;\n"
         "      FAL_CUDA(cudaMemcpyAsync(sbuf + at, h->fal_mpi_dsend + at, (size_t)(k - FAL_MPI_AHEAD) * one, cudaMemcpyDeviceToHost, 0));\n"
         "      any = 1;\n    }\n  }\n"
         "  if (any)\n    FAL_CUDA(cudaStreamSynchronize(0));\n}\n");
  /* fal_mpi_deliver_fn: a message to the GPU and applied there, in
   * stream order (the next collect waits for it) */
  putf(c, "static void fal_G_mpi_deliver(void *gv, int phase, int i, const unsigned char *rb, int64_t nrec, int64_t at)\n{\n"
          "  fal_G *h = (fal_G *)gv, *d = h->fal_mpi_gpu;\n  fal_mpi_plan *pl = h->fal_mpi;\n"
          "  size_t one = sizeof(fal_point) + pl->cur;\n  unsigned char *dr = h->fal_mpi_drecv + (size_t)at * one;\n"
          "  (void)i;\n"
          "  fal_cuda_use(d->fal_base.device);\n"
          "  FAL_CUDA(cudaMemcpyAsync(dr, rb, (size_t)nrec * one, cudaMemcpyHostToDevice, 0));\n"
          "  fal_G_mpi_dapply<<<fal_cuda_grid(nrec), FAL_BLOCK>>>(*d, *h->fal_mpi_din, dr, nrec, at, phase == 1, %s, h->fal_mpi_dpchg, pl->lo[pl->rank], h->fal_mpi_mask, one, 0, 0, NULL);\n"
          "  FAL_CHECK_LAUNCH(\"fal_G_mpi_dapply\");\n}\n",
       m ? "h->fal_merge != NULL" : "0");
  /* fal_mpi_ipc_deliver_fn: neighbour i's pairs read from its GPU's send
   * area (mapped here) and applied; returns when they are read */
  putf(c, "static void fal_G_mpi_ideliver(void *gv, int phase, int i, int64_t nrec, int64_t slot, int64_t at)\n{\n"
          "  fal_G *h = (fal_G *)gv, *d = h->fal_mpi_gpu;\n  fal_mpi_plan *pl = h->fal_mpi;\n"
          "  size_t one = sizeof(fal_point) + pl->cur;\n  int s = pl->nbr[i];\n"
          "  if (at < 0 || (uint64_t)at + (uint64_t)nrec * one > (uint64_t)h->fal_mpi_peer_bytes[i]) {\n"
          "    fprintf(stderr, \"falcon: rank %%d: rank %%d announced %%lld records past the end of its send area\\n\", pl->rank, s, (long long)nrec);\n"
          "    exit(1);\n  }\n"
          "  int64_t plo = phase == 1 ? pl->lo[pl->rank] : pl->lo[s], phi = phase == 1 ? pl->lo[pl->rank + 1] : pl->lo[s + 1];\n"
          "  fal_cuda_use(d->fal_base.device);\n"
          "  fal_G_mpi_dapply<<<fal_cuda_grid(nrec), FAL_BLOCK>>>(*d, *h->fal_mpi_din, h->fal_mpi_peer[i] + at, nrec, slot, phase == 1, %s, h->fal_mpi_dpchg, pl->lo[pl->rank], h->fal_mpi_mask, one, plo, phi, h->fal_mpi_derr);\n"
          "  FAL_CHECK_LAUNCH(\"fal_G_mpi_dapply\");\n"
          "  FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_herr, h->fal_mpi_derr, sizeof *h->fal_mpi_herr, cudaMemcpyDeviceToHost, 0));\n"
          "  FAL_CUDA(cudaStreamSynchronize(0)); /* read: the sender may write its area again */\n"
          "  if (*h->fal_mpi_herr) {\n"
          "    fprintf(stderr, \"falcon: rank %%d: %%llu records from rank %%d name points outside [%%lld, %%lld)\\n\", pl->rank, *h->fal_mpi_herr, s, (long long)plo, (long long)phi);\n"
          "    exit(1);\n  }\n}\n",
       m ? "h->fal_merge != NULL" : "0");
}

static void emit_mpi_gpu_staging(Ctx *c)
{
  Program *p = c->prog;
  put(c, "#define FAL_MPI_SEG(n, size) (((size_t)(n) * (size) + 15) / 16 * 16)\n");
  put(c, "__global__ void fal_G_mpi_dgather(fal_G g, const fal_point *ids, int64_t n, unsigned char *buf, uint64_t m)\n{\n"
         "  for (int64_t x = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; x < n; x += (int64_t)gridDim.x * blockDim.x) {\n"
         "    unsigned char *b = buf;\n");
  mpi_gpu_each_prop(c, true);
  put(c, "  }\n}\n");
  put(c, "__global__ void fal_G_mpi_dscatter(fal_G g, const fal_point *ids, int64_t n, const unsigned char *buf, uint64_t m)\n{\n"
         "  for (int64_t x = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; x < n; x += (int64_t)gridDim.x * blockDim.x) {\n"
         "    const unsigned char *b = buf;\n");
  mpi_gpu_each_prop(c, false);
  put(c, "  }\n}\n");
  /* the entries whose record differs from the copy taken at the round's
   * start (sh), compacted: entry x at slot q of cx, its record at slot q
   * of each property's array in buf.  The loop steps a warp at a time, so
   * fal_mpi_slot takes one atomicAdd per warp. */
  put(c, "__global__ void fal_G_mpi_dcmp(fal_G g, const fal_point *ids, int64_t n, const unsigned char *sh, unsigned char *buf, int64_t *cx, unsigned long long *cnt, uint64_t m)\n{\n"
         "  for (int64_t w = blockIdx.x * (int64_t)blockDim.x + (threadIdx.x & ~31u); w < n; w += (int64_t)gridDim.x * blockDim.x) {\n"
         "    int64_t x = w + (threadIdx.x & 31);\n    bool ch = false;\n"
         "    if (x < n) {\n      const unsigned char *s = sh;\n      (void)s;\n");
  mpi_emit_differs(c);
  put(c, "    }\n    long long q = fal_mpi_slot(ch, cnt);\n"
         "    if (q < 0)\n      continue;\n    cx[q] = x;\n    unsigned char *b = buf;\n    (void)b;\n");
  for (int i = 0, k = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT) {
      const char *nm = p->props[i].name, *ty = p->props[i].ctype;
      putf(c, "    if (%s && g.%s)\n      ((%s *)b)[q] = g.%s[ids[x]];\n"
              "    b += FAL_MPI_SEG(n, sizeof(%s));\n", mpi_bit(c, "m", k), nm, ty, nm, ty);
      k++;
    }
  put(c, "  }\n}\n");
  /* changed entries only (fal_mpi_exchange_marked): the kernel above, its
   * count back, then that many entries and records; the host graph takes
   * them and the plan marks them */
  put(c, "static void fal_G_mpi_dpull_marked(fal_G *h, uint64_t m)\n{\n"
         "  fal_G *d = h->fal_mpi_gpu;\n  fal_mpi_plan *pl = h->fal_mpi;\n  int64_t n = h->fal_mpi_nid;\n"
         "  fal_cuda_use(d->fal_base.device);\n  *h->fal_mpi_hcnt = 0;\n"
         "  if (n) {\n"
         "    FAL_CUDA(cudaMemsetAsync(h->fal_mpi_dcnt, 0, sizeof *h->fal_mpi_dcnt, 0));\n"
         "    fal_G_mpi_dcmp<<<fal_cuda_grid(n), FAL_BLOCK>>>(*d, h->fal_mpi_did, n, h->fal_mpi_dsh, h->fal_mpi_dbuf, h->fal_mpi_dcx, h->fal_mpi_dcnt, m);\n"
         "    FAL_CHECK_LAUNCH(\"fal_G_mpi_dcmp\");\n"
         "    FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_hcnt, h->fal_mpi_dcnt, sizeof *h->fal_mpi_hcnt, cudaMemcpyDeviceToHost, 0));\n  }\n");
  mpi_gpu_graph_props(c, GP_FROM_GPU);
  put(c, "  FAL_CUDA(cudaStreamSynchronize(0));\n");
  mpi_gpu_graph_props(c, GP_TAKE);
  put(c, "  int64_t k = (int64_t)*h->fal_mpi_hcnt;\n"
         "  pl->dev_pulled += k;\n"
         "  if (k > n) {\n    fprintf(stderr, \"falcon: rank %d: %lld changed entries of %lld\\n\", pl->rank, (long long)k, (long long)n);\n    exit(1);\n  }\n"
         "  if (k <= 0)\n    return;\n"
         "  size_t o = 0;\n"
         "  FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_hcx, h->fal_mpi_dcx, (size_t)k * sizeof *h->fal_mpi_hcx, cudaMemcpyDeviceToHost, 0));\n");
  mpi_gpu_copies(c, "", "k", "n", true);
  put(c, "  FAL_CUDA(cudaStreamSynchronize(0));\n"
         "  const fal_point *ids = h->fal_mpi_hid;\n  const int64_t *cx = h->fal_mpi_hcx;\n"
         "  unsigned char *mark = pl->mark;\n"
         "#pragma omp parallel for schedule(static)\n"
         "  for (int64_t q = 0; q < k; q++) {\n"
         "    int64_t x = cx[q];\n    size_t o = 0;\n    (void)ids;\n"
         "    mark[x] = 1;\n");
  for (int i = 0, k = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT) {
      putf(c, "    if (%s && h->%s)\n      h->%s[ids[x]] = ((const %s *)(h->fal_mpi_hbuf + o))[q];\n"
              "    o += FAL_MPI_SEG(n, sizeof(%s));\n",
           mpi_bit(c, "m", k), p->props[i].name, p->props[i].name, p->props[i].ctype,
           p->props[i].ctype);
      k++;
    }
  put(c, "  }\n}\n");
  /* the points the exchange changed (pl->push) to the GPU: ids and
   * records packed (k of them, so each property's array starts at
   * FAL_MPI_SEG(k)), copied, scattered */
  put(c, "static void fal_G_mpi_dpush_marked(fal_G *h, uint64_t m)\n{\n"
         "  fal_G *d = h->fal_mpi_gpu;\n  fal_mpi_plan *pl = h->fal_mpi;\n  int64_t k = pl->npush;\n"
         "  pl->dev_pushed += k;\n"
         "  if (k <= 0)\n    return;\n"
         "  fal_cuda_use(d->fal_base.device);\n"
         "  const fal_point *pt = pl->push;\n  fal_point *hid = h->fal_mpi_hpid;\n"
         "#pragma omp parallel for schedule(static)\n"
         "  for (int64_t q = 0; q < k; q++) {\n"
         "    size_t o = 0;\n    hid[q] = pt[q];\n");
  for (int i = 0, k = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT) {
      putf(c, "    if (%s && h->%s)\n      ((%s *)(h->fal_mpi_hbuf + o))[q] = h->%s[pt[q]];\n"
              "    o += FAL_MPI_SEG(k, sizeof(%s));\n",
           mpi_bit(c, "m", k), p->props[i].name, p->props[i].ctype, p->props[i].name,
           p->props[i].ctype);
      k++;
    }
  put(c, "  }\n  size_t o = 0;\n"
         "  FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_dpid, hid, (size_t)k * sizeof *hid, cudaMemcpyHostToDevice, 0));\n");
  mpi_gpu_copies(c, "", "k", "k", false);
  put(c, "  fal_G_mpi_dscatter<<<fal_cuda_grid(k), FAL_BLOCK>>>(*d, h->fal_mpi_dpid, k, h->fal_mpi_dbuf, m);\n"
         "  FAL_CHECK_LAUNCH(\"fal_G_mpi_dscatter\");\n}\n");
  /* the GPU's ghosts and border points (properties of m), and the graph
   * properties, into the host graph */
  put(c, "static void fal_G_mpi_dpull(fal_G *h, uint64_t m)\n{\n"
         "  fal_G *d = h->fal_mpi_gpu;\n  int64_t n = h->fal_mpi_nid;\n  size_t o = 0;\n"
         "  const fal_point *ids = h->fal_mpi_hid;\n  (void)ids;\n"
         "  fal_cuda_use(d->fal_base.device);\n"
         "  if (n) {\n"
         "    fal_G_mpi_dgather<<<fal_cuda_grid(n), FAL_BLOCK>>>(*d, h->fal_mpi_did, n, h->fal_mpi_dbuf, m);\n"
         "    FAL_CHECK_LAUNCH(\"fal_G_mpi_dgather\");\n  }\n");
  mpi_gpu_copies(c, "n && ", "n", "n", true);
  mpi_gpu_graph_props(c, GP_FROM_GPU);
  put(c, "  FAL_CUDA(cudaStreamSynchronize(0));\n  o = 0;\n");
  mpi_gpu_graph_props(c, GP_TAKE);
  for (int i = 0, k = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT) {
      putf(c, "  if (n && %s && h->%s) {\n"
              "    const %s *b = (const %s *)(h->fal_mpi_hbuf + o);\n"
              "#pragma omp parallel for schedule(static)\n"
              "    for (int64_t x = 0; x < n; x++)\n      h->%s[ids[x]] = b[x];\n  }\n"
              "  o += FAL_MPI_SEG(n, sizeof(%s));\n",
           mpi_bit(c, "m", k), p->props[i].name, p->props[i].ctype, p->props[i].ctype,
           p->props[i].name, p->props[i].ctype);
      k++;
    }
  put(c, "}\n");
  /* the host graph's ghosts and border points (after the exchange) to
   * the GPU; stream-ordered, so the next launch sees them */
  put(c, "static void fal_G_mpi_dpush(fal_G *h, uint64_t m)\n{\n"
         "  fal_G *d = h->fal_mpi_gpu;\n  int64_t n = h->fal_mpi_nid;\n  size_t o = 0;\n"
         "  const fal_point *ids = h->fal_mpi_hid;\n"
         "  if (!n)\n    return;\n"
         "  fal_cuda_use(d->fal_base.device);\n");
  for (int i = 0, k = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT) {
      putf(c, "  if (%s && h->%s) {\n"
              "    %s *b = (%s *)(h->fal_mpi_hbuf + o);\n"
              "#pragma omp parallel for schedule(static)\n"
              "    for (int64_t x = 0; x < n; x++)\n      b[x] = h->%s[ids[x]];\n"
              "    FAL_CUDA(cudaMemcpyAsync(h->fal_mpi_dbuf + o, b, (size_t)n * sizeof(%s), cudaMemcpyHostToDevice, 0));\n  }\n"
              "  o += FAL_MPI_SEG(n, sizeof(%s));\n",
           mpi_bit(c, "m", k), p->props[i].name, p->props[i].ctype, p->props[i].ctype,
           p->props[i].name, p->props[i].ctype, p->props[i].ctype);
      k++;
    }
  put(c, "  fal_G_mpi_dscatter<<<fal_cuda_grid(n), FAL_BLOCK>>>(*d, h->fal_mpi_did, n, h->fal_mpi_dbuf, m);\n"
         "  FAL_CHECK_LAUNCH(\"fal_G_mpi_dscatter\");\n}\n");
  /* host code wrote points since the last foreach, and the graph
   * properties (host code sets the loop flags): to the GPU */
  emit_dirty_to(c);
  put(c, "static void fal_G_mpi_dbegin(fal_G *h)\n{\n"
         "  fal_G *d = h->fal_mpi_gpu;\n"
         "  h->fal_mpi_nwr = 0; /* (every rank: fal_G_mpi_wr's count is theirs alike) */\n"
         "  if (!d)\n    return;\n"
         "  fal_cuda_use(d->fal_base.device);\n"
         "  if (h->fal_ndirty > 64) /* every value (host code went through fal_G_fresh) */\n"
         "    fal_G_to_gpu(d, h, __FILE__, __LINE__);\n"
         "  else {\n"
         "    fal_G_dirty_to(h, d);\n");
  /* through the pinned block's first half, stream-ordered: every round's
   * end synchronises the stream (fal_G_mpi_dpull*) before the next
   * round's start writes the block again */
  mpi_gpu_graph_props(c, GP_TO_GPU);
  put(c, "  }\n  h->fal_ndirty = 0;\n"
         "  if (!h->fal_mpi_all && h->fal_mpi_nid && h->fal_mpi->ex < FAL_EX_OWNERS) { /* the entries' records at the round's start */\n"
         "    fal_G_mpi_dgather<<<fal_cuda_grid(h->fal_mpi_nid), FAL_BLOCK>>>(*d, h->fal_mpi_did, h->fal_mpi_nid, h->fal_mpi_dsh, h->fal_mpi_mask);\n"
         "    FAL_CHECK_LAUNCH(\"fal_G_mpi_dgather\");\n  }\n}\n");
  /* this rank's own points (and their edges) back from its GPU */
  put(c, "static fal_G *fal_G_mpi_own(fal_G *h)\n{\n"
         "  fal_G *d = h->fal_mpi_gpu;\n"
         "  if (!d || !h->fal_mpi_devstale)\n    return h;\n"
         "  h->fal_mpi_devstale = 0;\n"
         "  int64_t lo = h->fal_mpi->lo[h->fal_mpi->rank], hi = h->fal_mpi->lo[h->fal_mpi->rank + 1];\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_EDGE) {
      put(c, "  int64_t elo = h->fal_base.csr.offsets[lo], ehi = h->fal_base.csr.offsets[hi];\n");
      break;
    }
  put(c, "  fal_cuda_use(d->fal_base.device);\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT || p->props[i].kind == PK_EDGE) {
      const char *a = p->props[i].kind == PK_POINT ? "lo" : "elo", *b = p->props[i].kind == PK_POINT ? "hi" : "ehi";
      putf(c, "  if (h->%s && d->%s && %s > %s)\n"
              "    FAL_CUDA(cudaMemcpy(h->%s + %s, d->%s + %s, (size_t)(%s - %s) * sizeof *h->%s, cudaMemcpyDeviceToHost));\n",
           p->props[i].name, p->props[i].name, b, a, p->props[i].name, a, p->props[i].name, a, b, a,
           p->props[i].name);
    }
  put(c, "  return h;\n}\n");
  emit_mark_functions(c, "h->fal_mpi_gpu");
  if (mpi_merge_on_gpu(c))
    emit_mpi_gpu_merges(c);
  /* makePartition: the rank's GPU (local rank modulo the machine's GPUs)
   * gets the whole graph; the ids of the ghosts and border points and the
   * staging areas are made once */
  /* CUDA IPC, unless FALCON_MPI_IPC=off (docs/lowering.md "GPU ranks of
   * one machine read each other's pairs"): every rank exports its send
   * area (`bytes`) and maps its neighbours'; a one-byte read through each
   * mapping proves it.  Any rank that cannot (another machine, no peer
   * access between the GPUs, an IPC error) makes every rank keep the
   * messages: the ranks agree, since the two exchanges' messages differ.
   * The fallback is noted where FALCON_MPI_IPC=on asked for IPC (or
   * under FALCON_VERBOSE). */
  if (mpi_merge_on_gpu(c))
    put(c, "typedef struct {\n  cudaIpcMemHandle_t mem;\n  long long bytes;\n  int ok;\n  char bus[32];\n} fal_mpi_ipc_rec;\n"
           "static void fal_G_mpi_ipc_open(fal_G *h, size_t bytes, int loud)\n{\n"
           "  fal_mpi_plan *pl = h->fal_mpi;\n  int nn = pl->nnbr, k = pl->nranks;\n"
           "  fal_mpi_ipc_rec mine, *all = (fal_mpi_ipc_rec *)fal_calloc((size_t)k, sizeof *all);\n"
           "  memset(&mine, 0, sizeof mine);\n"
           "  mine.bytes = (long long)bytes;\n"
           "  int dev = h->fal_mpi_gpu->fal_base.device;\n"
           "  mine.ok = fal_mpi_local_size() == k && cudaIpcGetMemHandle(&mine.mem, h->fal_mpi_dsend) == cudaSuccess &&\n"
           "            cudaDeviceGetPCIBusId(mine.bus, (int)sizeof mine.bus, dev) == cudaSuccess;\n"
           "  mine.bus[sizeof mine.bus - 1] = 0;\n"
           "  fal_mpi_allgather_bytes(&mine, all, sizeof mine);\n"
           "  h->fal_mpi_peer = (unsigned char **)fal_calloc((size_t)nn + 1, sizeof *h->fal_mpi_peer);\n"
           "  h->fal_mpi_peer_bytes = (int64_t *)fal_calloc((size_t)nn + 1, sizeof *h->fal_mpi_peer_bytes);\n"
           "  int ok = 1;\n"
           "  for (int r = 0; r < k; r++)\n    ok = ok && all[r].ok;\n"
           "  for (int i = 0; i < nn && ok; i++) {\n"
           "    void *q = NULL;\n    unsigned char b;\n"
           "    int pd = -1, can = 0; /* the neighbour's GPU, seen from here: this one or a peer */\n"
           "    all[pl->nbr[i]].bus[sizeof all[0].bus - 1] = 0;\n"
           "    if (cudaDeviceGetByPCIBusId(&pd, all[pl->nbr[i]].bus) != cudaSuccess)\n"
           "      can = 0; /* not visible to this process */\n"
           "    else if (pd == dev)\n      can = 1;\n"
           "    else if (cudaDeviceCanAccessPeer(&can, dev, pd) != cudaSuccess)\n      can = 0;\n"
           "    if (!can || cudaIpcOpenMemHandle(&q, all[pl->nbr[i]].mem, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess ||\n"
           "        cudaMemcpy(&b, q, 1, cudaMemcpyDeviceToHost) != cudaSuccess) {\n"
           "      (void)cudaGetLastError();\n      ok = 0;\n"
           "      if (q)\n        (void)cudaIpcCloseMemHandle(q);\n      break;\n    }\n"
           "    h->fal_mpi_peer[i] = (unsigned char *)q;\n"
           "    h->fal_mpi_peer_bytes[i] = all[pl->nbr[i]].bytes;\n  }\n"
           "  ok = fal_mpi_all_true(ok);\n"
           "  if (!ok) {\n"
           "    for (int i = 0; i < nn; i++)\n"
           "      if (h->fal_mpi_peer[i])\n        (void)cudaIpcCloseMemHandle(h->fal_mpi_peer[i]);\n"
           "    (void)cudaGetLastError();\n"
           "    if (pl->rank == 0 && loud)\n"
           "      fprintf(stderr, \"falcon: note: CUDA IPC: not every rank can read its neighbours' GPUs (one machine, peer access, CUDA IPC); the ranks exchange through the host\\n\");\n"
           "  } else {\n"
           "    h->fal_mpi_derr = (unsigned long long *)fal_dalloc(sizeof(unsigned long long), __FILE__, __LINE__);\n"
           "    FAL_CUDA(cudaMemset(h->fal_mpi_derr, 0, sizeof(unsigned long long)));\n"
           "    FAL_CUDA(cudaMallocHost((void **)&h->fal_mpi_herr, sizeof(unsigned long long)));\n"
           "    *h->fal_mpi_herr = 0;\n  }\n"
           "  h->fal_mpi_ipc = ok;\n  free(all);\n}\n"
           "/* every rank calls this once, from fal_G_mpi_gpu_setup: IPC if all want\n"
           " * it (want 2: FALCON_MPI_IPC=on, which notes a fallback) */\n"
           "static void fal_G_mpi_ipc_start(fal_G *h, int want, size_t bytes, const char *file, int line)\n{\n"
           "  h->fal_mpi_ipc = 0;\n"
           "  if (fal_mpi_all_true(want))\n    fal_G_mpi_ipc_open(h, bytes, want == 2 || fal_verbose());\n"
           "  /* and the GPUs' point properties, for the loops' kernels and host\n"
           "   * rounds that reach the other ranks (falcon/mpi.cuh fal_mpxg) */\n"
           "  fal_G *d = h->fal_mpi_gpu;\n  (void)d;\n"
           "  void *fal_pp[] = {NULL");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT)
      putf(c, ", d ? (void *)d->%s : NULL", p->props[i].name);
  put(c, "};\n"
           "  h->fal_mpxg = fal_mpxg_open(h->fal_mpi, h->fal_mpi_ipc && d ? d->fal_base.device : -1, "
           "fal_pp + 1, (int)(sizeof fal_pp / sizeof *fal_pp) - 1, file, line);\n}\n");
  put(c, "static void fal_G_mpi_gpu_setup(fal_G *h, int ngpu, int ncpu, const char *file, int line)\n{\n"
         "  int ndev = ngpu > 0 ? fal_cuda_count_quiet() : 0;\n"
         "  if (ngpu > 0 && ndev == 0) {\n"
         "    if (fal_mpi_rank() == 0)\n"
         "      fprintf(stderr, \"falcon: note: no GPU: the %d GPU part(s) of each rank run on its host\\n\", ngpu);\n");
  if (mpi_merge_on_gpu(c)) /* the other ranks may have GPUs: take part */
    put(c, "    fal_G_mpi_ipc_start(h, 0, 0, file, line);\n");
  put(c, "    return;\n  }\n"
         "  if (ngpu == 0) {\n");
  if (mpi_merge_on_gpu(c))
    put(c, "    fal_G_mpi_ipc_start(h, 0, 0, file, line);\n");
  put(c, "    return;\n  }\n"
         "  if ((ngpu > 1 || ncpu > 0) && fal_mpi_rank() == 0)\n"
         "    fprintf(stderr, \"falcon: note: --mpi: makePartition(%d, %d): the points of each rank run on one GPU\\n\", ngpu, ncpu);\n"
         "  int dev = fal_mpi_local_rank() % ndev;\n"
         "  fal_G *d = h->fal_mpi_gpu = (fal_G *)fal_calloc(1, sizeof(fal_G));\n"
         "  *d = fal_G_gpu(dev);\n"
         "  fal_G_to_gpu(d, h, file, line);\n"
         "  fal_mpi_plan *pl = h->fal_mpi;\n"
         "  int64_t ng = pl->goff[pl->nnbr], nb = pl->boff[pl->nnbr], n = ng + nb;\n"
         "  h->fal_mpi_nid = n;\n"
         "  h->fal_mpi_hid = (fal_point *)fal_calloc((size_t)n + 1, sizeof(fal_point));\n"
         "  if (ng)\n    memcpy(h->fal_mpi_hid, pl->ghost, (size_t)ng * sizeof(fal_point));\n"
         "  if (nb)\n    memcpy(h->fal_mpi_hid + ng, pl->border, (size_t)nb * sizeof(fal_point));\n"
         "  size_t bytes = 16;\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT)
      putf(c, "  bytes += FAL_MPI_SEG(n, sizeof(%s));\n", p->props[i].ctype);
  put(c, "  fal_cuda_use(d->fal_base.device);\n"
         "  h->fal_mpi_did = (fal_point *)fal_dalloc(((size_t)n + 1) * sizeof(fal_point), file, line);\n"
         "  if (n)\n    FAL_CUDA(cudaMemcpy(h->fal_mpi_did, h->fal_mpi_hid, (size_t)n * sizeof(fal_point), cudaMemcpyHostToDevice));\n"
         "  h->fal_mpi_dbuf = (unsigned char *)fal_dalloc(bytes, file, line);\n"
         "  FAL_CUDA(cudaMallocHost((void **)&h->fal_mpi_hbuf, bytes));\n"
         "  h->fal_mpi_ngp = 16;\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_GRAPH)
      putf(c, "  h->fal_mpi_ngp += FAL_MPI_SEG(1, sizeof *h->%s);\n", p->props[i].name);
  put(c, "  FAL_CUDA(cudaMallocHost((void **)&h->fal_mpi_hgp, 2 * h->fal_mpi_ngp));\n"
         "  const char *st = getenv(\"FALCON_MPI_STAGING\");\n"
         "  h->fal_mpi_all = st && strcmp(st, \"all\") == 0;\n"
         "  if (!h->fal_mpi_all) {\n"
         "    fal_mpi_record(pl, pl->rec); /* the plan's marks and lists, made now */\n"
         "    h->fal_mpi_dsh = (unsigned char *)fal_dalloc(bytes, file, line);\n"
         "    h->fal_mpi_dcx = (int64_t *)fal_dalloc(((size_t)n + 1) * sizeof(int64_t), file, line);\n"
         "    h->fal_mpi_dcnt = (unsigned long long *)fal_dalloc(sizeof(unsigned long long), file, line);\n"
         "    h->fal_mpi_dpid = (fal_point *)fal_dalloc(((size_t)n + 1) * sizeof(fal_point), file, line);\n"
         "    FAL_CUDA(cudaMallocHost((void **)&h->fal_mpi_hcx, ((size_t)n + 1) * sizeof(int64_t)));\n"
         "    FAL_CUDA(cudaMallocHost((void **)&h->fal_mpi_hcnt, sizeof(unsigned long long)));\n"
         "    FAL_CUDA(cudaMallocHost((void **)&h->fal_mpi_hpid, ((size_t)n + 1) * sizeof(fal_point)));\n"
         "  }\n");
  if (mpi_merge_on_gpu(c)) {
    put(c, "  const char *mg = getenv(\"FALCON_MPI_MERGE\");\n"
           "  int ipc = 0;\n  size_t swire = 0;\n"
           "  h->fal_mpi_dm = !h->fal_mpi_all && !(mg && strcmp(mg, \"host\") == 0);\n"
           "  if (h->fal_mpi_dm) {\n"
           "    size_t wire = ((size_t)pl->most + 1) * (sizeof(fal_point) + pl->rec);\n"
           "    int64_t own = pl->lo[pl->rank + 1] - pl->lo[pl->rank];\n"
           "    const char *ip = getenv(\"FALCON_MPI_IPC\");\n"
           "    ipc = pl->nranks < 2 || (ip && strcmp(ip, \"off\") == 0) ? 0 : ip && strcmp(ip, \"on\") == 0 ? 2 : 1;\n"
           "    /* IPC: room for both phases' pairs, apart (fal_mpi_exchange_ipc) */\n"
           "    swire = ipc ? ((size_t)n + 1) * (sizeof(fal_point) + pl->rec) : wire;\n"
           "    /* with IPC, rounds of at most this many pairs for a neighbour still\n"
           "     * go in messages (no wait for the neighbour's reads); the first\n"
           "     * FAL_MPI_AHEAD pairs come to the host with the counts anyway */\n"
           "    const char *il = getenv(\"FALCON_MPI_INLINE\");\n"
           "    char *ie = NULL;\n"
           "    long long iv = il && *il ? strtoll(il, &ie, 10) : -1;\n"
           "    h->fal_mpi_inl = iv >= 0 && iv <= FAL_MPI_AHEAD && ie && !*ie ? iv : FAL_MPI_AHEAD;\n"
           "    if (il && *il && h->fal_mpi_inl != iv && pl->rank == 0)\n"
           "      fprintf(stderr, \"falcon: note: FALCON_MPI_INLINE=%s is not a number from 0 to %d: %d taken\\n\", il, (int)FAL_MPI_AHEAD, (int)FAL_MPI_AHEAD);\n"
           "    h->fal_mpi_dsend = (unsigned char *)fal_dalloc(swire, file, line);\n"
           "    h->fal_mpi_drecv = (unsigned char *)fal_dalloc(wire, file, line);\n"
           "    h->fal_mpi_dpchg = (unsigned char *)fal_dalloc((size_t)own + 1, file, line);\n"
           "    FAL_CUDA(cudaMemset(h->fal_mpi_dpchg, 0, (size_t)own + 1));\n"
           "    h->fal_mpi_dncnt = (unsigned long long *)fal_dalloc(((size_t)pl->nnbr + 1) * sizeof(unsigned long long), file, line);\n"
           "    FAL_CUDA(cudaMallocHost((void **)&h->fal_mpi_hsend, wire));\n"
           "    FAL_CUDA(cudaMallocHost((void **)&h->fal_mpi_hrecv, wire));\n"
           "    FAL_CUDA(cudaMallocHost((void **)&h->fal_mpi_hncnt, ((size_t)pl->nnbr + 1) * sizeof(unsigned long long)));\n"
           "    fal_G *in = h->fal_mpi_din = (fal_G *)fal_calloc(1, sizeof(fal_G));\n"
           "    (void)in;\n");
    for (int i = 0; i < p->nprops; i++)
      if (p->props[i].kind == PK_POINT)
        putf(c, "    if (h->%s)\n      in->%s = (%s *)fal_dalloc(((size_t)pl->most + 1) * sizeof(%s), file, line);\n",
             p->props[i].name, p->props[i].name, p->props[i].ctype, p->props[i].ctype);
    put(c, "  }\n  fal_G_mpi_ipc_start(h, ipc, swire, file, line);\n");
  }
  putf(c, "  if (fal_verbose())\n"
          "    fprintf(stderr, \"falcon: rank %%d: points [%%lld, %%lld) on GPU %%d; %%lld ghosts and border entries staged through the host (%%s)\\n\",\n"
          "            pl->rank, (long long)pl->lo[pl->rank], (long long)pl->lo[pl->rank + 1], d->fal_base.device, (long long)n,\n"
          "            h->fal_mpi_all ? \"all of them, FALCON_MPI_STAGING=all\" : %s);\n"
          "}\n",
       mpi_merge_on_gpu(c) ? "h->fal_mpi_ipc ? \"those that changed, merged on the GPU, read by the neighbours over CUDA IPC\" : h->fal_mpi_dm ? \"those that changed, merged on the GPU\" : \"those that changed, merged on the host\""
                           : "\"those that changed\"");
}

static void emit_mpi_partition_functions(Ctx *c)
{
  Program *p = c->prog;
  put(c, "enum { FAL_MPI_REC_MAX = 1");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT)
      putf(c, " + sizeof(%s)", p->props[i].ctype);
  put(c, " };\n");
  /* A round's record holds the point properties of the mask that
   * fal_G_mpi_begin was given (bit k: the k-th point property). */
  const char *hd = mpi_merge_on_gpu(c) ? "__host__ __device__ " : "";
  putf(c, "static %svoid fal_G_mpi_pack_m(const fal_G *g, fal_point p, void *rec, uint64_t m)\n{\n", hd);
  put(c, "  unsigned char *w = (unsigned char *)rec;\n  (void)g; (void)p; (void)w; (void)m;\n");
  for (int i = 0, k = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT) {
      putf(c, "  if (%s) {\n    if (g->%s)\n      memcpy(w, &g->%s[p], sizeof(%s));\n"
              "    else\n      memset(w, 0, sizeof(%s));\n    w += sizeof(%s);\n  }\n",
           mpi_bit(c, "m", k), p->props[i].name, p->props[i].name, p->props[i].ctype, p->props[i].ctype,
           p->props[i].ctype);
      k++;
    }
  put(c, "}\n"
         "static void fal_G_mpi_pack(void *gv, fal_point p, void *rec)\n{\n"
         "  fal_G_mpi_pack_m((const fal_G *)gv, p, rec, ((const fal_G *)gv)->fal_mpi_mask);\n}\n");
  putf(c, "static %svoid fal_G_mpi_unpack(fal_G *g, fal_point p, const unsigned char *r, uint64_t m)\n{\n"
          "  (void)g; (void)p; (void)r; (void)m;\n", hd);
  for (int i = 0, k = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT) {
      putf(c, "  if (%s) {\n    if (g->%s)\n      memcpy(&g->%s[p], r, sizeof(%s));\n"
              "    r += sizeof(%s);\n  }\n",
           mpi_bit(c, "m", k), p->props[i].name, p->props[i].name, p->props[i].ctype, p->props[i].ctype);
      k++;
    }
  put(c, "}\n");
  /* An incoming record is merged as point 0 of a one-point copy, whose
   * properties outside the round's record are the receiver's own (the
   * sender's foreach did not write them). */
  put(c, "static void fal_G_mpi_apply(void *gv, fal_point p, const void *rec, int merge)\n{\n"
         "  fal_G *g = (fal_G *)gv;\n"
         "  if (merge && g->fal_merge) {\n"
         "    unsigned char all[FAL_MPI_REC_MAX];\n"
         "    uint64_t m = g->fal_mpi_mask;\n"
         "    fal_G_mpi_pack_m(g, p, all, ~(uint64_t)0);\n"
         "    fal_G *in = &g->fal_mpi_in[fal_mpi_thread() % g->fal_mpi_nin];\n"
         "    fal_G_mpi_unpack(in, 0, all, ~(uint64_t)0);\n"
         "    fal_G_mpi_unpack(in, 0, (const unsigned char *)rec, m);\n"
         "    g->fal_merge(g, p, in, 0);\n"
         "  } else\n    fal_G_mpi_unpack(g, p, (const unsigned char *)rec, g->fal_mpi_mask);\n}\n");
  if (c->gpu)
    emit_mpi_gpu_staging(c);
  put(c, "static void fal_G_partition(fal_G *h, int ngpu, int ncpu, int policy, const char *file, int line)\n{\n"
         "  int k = ngpu + ncpu;\n  (void)policy;\n"
         "  if (k < 1 || k > 64 || ngpu < 0 || ncpu < 0) {\n"
         "    fprintf(stderr, \"%s:%d: error: makePartition(%d, %d): between 1 and 64 parts\\n\", file, line, ngpu, ncpu);\n"
         "    exit(1);\n  }\n"
         "  if (h->fal_mpi) {\n"
         "    fprintf(stderr, \"%s:%d: error: makePartition: the graph is partitioned already\\n\", file, line);\n"
         "    exit(1);\n  }\n");
  if (!c->gpu)
    put(c, "  if (ngpu > 0 && fal_mpi_rank() == 0)\n"
           "    fprintf(stderr, \"falcon: note: --mpi: the %d GPU part(s) of each rank run on its host\\n\", ngpu);\n");
  put(c, "  h->fal_nparts = k; /* per rank; a rank's host parts share its memory */\n"
         "  size_t rec = 0;\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT)
      putf(c, "  rec += sizeof(%s);\n", p->props[i].ctype);
  put(c, "  h->fal_mpi = (fal_mpi_plan *)fal_calloc(1, sizeof *h->fal_mpi);\n"
         "  fal_mpi_plan_init(h->fal_mpi, &h->fal_base.csr, rec);\n"
         "  /* a one-point copy per thread: incoming records merge in parallel */\n"
         "  h->fal_mpi_nin = fal_mpi_threads();\n"
         "  h->fal_mpi_in = (fal_G *)fal_calloc((size_t)h->fal_mpi_nin, sizeof(fal_G));\n"
         "  for (int t = 0; t < h->fal_mpi_nin; t++) {\n"
         "    fal_G *in = &h->fal_mpi_in[t];\n    (void)in;\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT)
      putf(c, "    if (h->%s)\n      in->%s = (%s *)fal_calloc(1, sizeof(%s));\n",
           p->props[i].name, p->props[i].name, p->props[i].ctype, p->props[i].ctype);
  put(c, "  }\n");
  if (c->gpu)
    put(c, "  fal_G_mpi_gpu_setup(h, ngpu, ncpu, file, line);\n");
  put(c, "}\n");
  /* host code reads points of other ranks: gather first (CUDA: this
   * rank's own points come back from its GPU before) */
  put(c, "static fal_G *fal_G_fresh(fal_G *h)\n{\n");
  if (c->gpu) {
    put(c, "  if (!h->fal_mpi)\n    return h;\n");
    /* the points fal_G_mpi_wr let host code write while the GPU held
     * newer values go to the GPU first, so that the copy back keeps them
     * (they stay marked for the next foreach) */
    put(c, "  if (h->fal_mpi_gpu && h->fal_mpi_devstale && h->fal_ndirty <= 64) {\n"
           "    fal_cuda_use(h->fal_mpi_gpu->fal_base.device);\n"
           "    fal_G_dirty_to(h, h->fal_mpi_gpu);\n  }\n");
    put(c, "  fal_G_mpi_own(h);\n"
           "  if (!h->fal_mpi_stale)\n    return h;\n");
  } else
    put(c, "  if (!h->fal_mpi || !h->fal_mpi_stale)\n    return h;\n");
  put(c, "  fal_mpi_sync(FAL_MPI_SITE_GATHER);\n"
         "  h->fal_mpi_stale = 0;\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT || p->props[i].kind == PK_EDGE)
      putf(c, "  fal_mpi_gather(h->fal_mpi, h->%s, sizeof(%s), %s);\n", p->props[i].name,
           p->props[i].ctype, p->props[i].kind == PK_EDGE ? "h->fal_base.csr.offsets" : "NULL");
  put(c, "  return h;\n}\n");
  /* A host write of point p (lower_expr.c render_element_field) while
   * other ranks' points (CUDA: or this rank's GPU) hold newer values: p's
   * values from its owner (one MPI_Bcast a property), not every rank's
   * range (fal_G_fresh: 16 MB a rank for kron-22's levels, about 3 ms of
   * a 3 ms BFS on GPUs).  The host graph stays stale but for p (CUDA: p
   * is marked and goes to the GPU at the next foreach, fal_G_mpi_dbegin).
   * Every rank takes the same path: fal_mpi_stale and fal_mpi_nwr are
   * alike on every rank (a rank without a GPU counts too); after 64 such
   * writes since the last foreach, fal_G_fresh (and fal_G_mark) as before
   * (so fal_ndirty stays under 64 here).  The owner's value is its
   * host's where that is current (CPU; no GPU, the GPU not newer, or p
   * written already), else its GPU's. */
  put(c, "static int64_t fal_G_mpi_wr(fal_G *h, int64_t p)\n{\n"
         "  if (!h->fal_mpi || !h->fal_mpi_stale || h->fal_mpi_nwr >= 64 || p < 0 || p >= h->npoints) {\n");
  put(c, c->gpu ? "    fal_G_fresh(h);\n    return fal_G_mark(h, p);\n  }\n"
                : "    fal_G_fresh(h);\n    return p;\n  }\n");
  put(c, "  h->fal_mpi_nwr++;\n"
         "  fal_mpi_sync(FAL_MPI_SITE_GATHER);\n"
         "  int o = fal_mpi_owner(h->fal_mpi, p);\n");
  if (c->gpu) {
    put(c, "  int mine = 0;\n"
           "  for (int i = 0; i < h->fal_ndirty && i < 64; i++)\n"
           "    mine |= h->fal_dirty_pt[i] == (fal_point)p;\n"
           "  fal_G *d = h->fal_mpi_gpu;\n"
           "  if (o == h->fal_mpi->rank && d && h->fal_mpi_devstale && !mine) {\n"
           "    fal_cuda_use(d->fal_base.device);\n");
    emit_dirty_copies(c, "h", "d", "    ");
    put(c, "  }\n");
  }
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT)
      putf(c, "  if (h->%s)\n    fal_mpi_bcast_from(h->%s + p, sizeof *h->%s, o);\n",
           p->props[i].name, p->props[i].name, p->props[i].name);
  put(c, c->gpu ? "  return mine ? p : fal_G_mark(h, p);\n}\n" : "  return p;\n}\n");
  put(c, "static void fal_G_mpi_begin(fal_G *h, int line, uint64_t mask, int ex)\n{\n"
         "  if (!h->fal_mpi) {\n    fprintf(stderr, \"falcon: a foreach over a partitioned graph before makePartition\\n\");\n"
         "    exit(1);\n  }\n"
         "  fal_mpi_sync(line > 0 ? line : 0);\n"
         "  size_t cur = 0;\n"
         "  h->fal_mpi_mask = mask;\n");
  if (!c->gpu) /* (CUDA: fal_G_mpi_dbegin, which the ranks' kernels call too) */
    put(c, "  h->fal_mpi_nwr = 0;\n");
  for (int i = 0, k = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_POINT)
      putf(c, "  if (%s)\n    cur += sizeof(%s);\n", mpi_bit(c, "mask", k++), p->props[i].ctype);
  put(c, "  h->fal_mpi->ex = ex;\n");
  if (c->gpu) /* a GPU rank marks what changed: no host shadows; FAL_EX_OWNERS:
                * its MINs go to their owners, no exchange (fal_G_mpi_end_rm);
                * FAL_EX_ALIKE: every rank wrote alike, no exchange
                * (fal_G_mpi_end_alike) */
    put(c, "  if (ex >= FAL_EX_OWNERS)\n    ;\n"
           "  else if (h->fal_mpi_gpu && !h->fal_mpi_all)\n    fal_mpi_record(h->fal_mpi, cur);\n"
           "  else\n    fal_mpi_snapshot(h->fal_mpi, h, fal_G_mpi_pack, cur);\n");
  else
    put(c, "  if (ex != FAL_EX_ALIKE)\n    fal_mpi_snapshot(h->fal_mpi, h, fal_G_mpi_pack, cur);\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_GRAPH)
      putf(c, "  if (h->%s)\n    h->fal_mpi_before_%s = h->%s[0];\n", p->props[i].name,
           p->props[i].name, p->props[i].name);
  if (c->gpu)
    put(c, "  fal_G_mpi_dbegin(h);\n");
  put(c, "}\n");
  /* after a foreach: the host's view of other ranks' points is out of
   * date, and a graph property's value changed on any rank wins */
  put(c, "static void fal_G_mpi_gp_done(fal_G *h)\n{\n"
         "  h->fal_mpi_stale = h->fal_mpi->nranks > 1;\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_GRAPH)
      putf(c, "  if (h->%s) /* a value changed on any rank wins */\n"
              "    fal_mpi_combine(&h->%s[0], &h->fal_mpi_before_%s, sizeof(%s));\n",
           p->props[i].name, p->props[i].name, p->props[i].name, p->props[i].ctype);
  put(c, "}\n");
  put(c, "static void fal_G_mpi_end(fal_G *h)\n{\n");
  if (c->gpu) { /* only what changed, both ways (merged on the GPU, or on
                 * the host); or (FALCON_MPI_STAGING=all, or a rank without
                 * a GPU) every ghost and border entry */
    put(c, mpi_merge_on_gpu(c) ?
           "  if (h->fal_mpi_gpu && !h->fal_mpi_all && h->fal_mpi_dm) {\n"
           "    h->fal_mpi_devstale = 1;\n"
           "    if (h->fal_mpi_ipc)\n"
           "      fal_mpi_exchange_ipc(h->fal_mpi, h, h->fal_mpi_hsend, h->fal_mpi_hrecv, h->fal_mpi_inl, fal_G_mpi_collect, fal_G_mpi_deliver, fal_G_mpi_ideliver);\n"
           "    else\n"
           "      fal_mpi_exchange_dev(h->fal_mpi, h, h->fal_mpi_hsend, h->fal_mpi_hrecv, fal_G_mpi_collect, fal_G_mpi_deliver);\n"
           "  } else " : "  ");
    put(c, "if (h->fal_mpi_gpu && !h->fal_mpi_all) {\n"
           "    fal_G_mpi_dpull_marked(h, h->fal_mpi_mask);\n    h->fal_mpi_devstale = 1;\n"
           "    fal_mpi_exchange_marked(h->fal_mpi, h, fal_G_mpi_pack, fal_G_mpi_apply);\n"
           "    fal_G_mpi_dpush_marked(h, h->fal_mpi_mask);\n"
           "  } else {\n"
           "    if (h->fal_mpi_gpu) { /* the GPU's ghosts and border points to the host */\n"
           "      fal_G_mpi_dpull(h, h->fal_mpi_mask);\n      h->fal_mpi_devstale = 1;\n    }\n"
           "    fal_mpi_exchange(h->fal_mpi, h, fal_G_mpi_pack, fal_G_mpi_apply);\n"
           "    if (h->fal_mpi_gpu) /* and the exchanged values back */\n"
           "      fal_G_mpi_dpush(h, h->fal_mpi_mask);\n  }\n");
  } else
    put(c, "  fal_mpi_exchange(h->fal_mpi, h, fal_G_mpi_pack, fal_G_mpi_apply);\n");
  put(c, "  fal_G_mpi_gp_done(h);\n}\n");
  /* a foreach that every rank ran over all its points, writing alike
   * (lower_loop.c bx_alike, FAL_EX_ALIKE): nothing to exchange; the rank's
   * GPU holds the newer values */
  put(c, "static inline void fal_G_mpi_end_alike(fal_G *h)\n{\n");
  if (c->gpu)
    put(c, "  if (h->fal_mpi_gpu)\n    h->fal_mpi_devstale = 1;\n");
  put(c, "  fal_G_mpi_gp_done(h);\n}\n");
  if (!mpi_merge_on_gpu(c))
    return;
  /* the GPU's graph properties to the host graph, through the pinned
   * block's second half (after the loops' kernels, lower_plan.c
   * mpx_launch, and fal_G_mpi_end_rm) */
  put(c, "static void fal_G_mpi_gp_back(fal_G *h)\n{\n"
         "  fal_G *d = h->fal_mpi_gpu;\n"
         "  fal_cuda_use(d->fal_base.device);\n");
  mpi_gpu_graph_props(c, GP_FROM_GPU);
  put(c, "  FAL_CUDA(cudaStreamSynchronize(0));\n");
  mpi_gpu_graph_props(c, GP_TAKE);
  put(c, "}\n");
  /* a foreach whose MINs went to their owners (fal_mpx_host, FAL_EX_OWNERS):
   * no exchange; the GPU's graph properties come back and are combined */
  put(c, "static void fal_G_mpi_end_rm(fal_G *h)\n{\n"
         "  fal_cuda_use(h->fal_mpi_gpu->fal_base.device);\n"
         "  FAL_CUDA(cudaDeviceSynchronize()); /* its MINs on other ranks' points are in */\n"
         "  fal_G_mpi_gp_back(h);\n"
         "  h->fal_mpi_devstale = 1;\n"
         "  fal_G_mpi_gp_done(h);\n}\n");
}

/* g.sortEdges(p) (§3.1): p's out-edges in increasing weight, by a heap
 * sort that swaps whole edges: destination, weight, deletion mark and
 * every edge property of the program move together.  No allocation, so
 * the same function runs on the host and in a kernel.  Deleted slots of
 * a mutable graph (§6) go last.  When the graph has in-edges, the in-edges
 * from p are pointed at the new slots (the k-th in-edge u <- p of a
 * neighbour u at the k-th slot of p that holds u). */
static void emit_sort_edges(Ctx *c)
{
  Program *p = c->prog;
  const char *hd = c->gpu ? "__host__ __device__ " : "";
  putf(c, "static %sinline void fal_G_eswap(fal_G *g, int64_t a, int64_t b)\n{\n"
          "  fal_graph *s = &g->fal_base.csr;\n"
          "  { fal_point t = s->dst[a]; s->dst[a] = s->dst[b]; s->dst[b] = t; }\n"
          "  { fal_weight t = s->weight[a]; s->weight[a] = s->weight[b]; s->weight[b] = t; }\n"
          "  if (s->edel) { unsigned char t = s->edel[a]; s->edel[a] = s->edel[b]; s->edel[b] = t; }\n",
       hd);
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_EDGE)
      putf(c, "  if (g->%s) { %s t = g->%s[a]; g->%s[a] = g->%s[b]; g->%s[b] = t; }\n",
           p->props[i].name, p->props[i].ctype, p->props[i].name, p->props[i].name,
           p->props[i].name, p->props[i].name);
  putf(c, "}\n"
          "static %sinline int fal_G_eless(const fal_graph *s, int64_t a, int64_t b)\n{\n"
          "  int da = s->edel ? s->edel[a] : 0, db = s->edel ? s->edel[b] : 0;\n"
          "  return da != db ? da < db : s->weight[a] < s->weight[b];\n}\n"
          "static %svoid fal_G_sort_edges(fal_G *g, fal_point p)\n{\n"
          "  fal_graph *s = &g->fal_base.csr;\n"
          "  if (p < 0 || p >= s->npoints)\n    return;\n"
          "  s->unsorted = 1; /* edge look-ups search linearly */\n"
          "#ifndef __CUDA_ARCH__\n"
          "  __atomic_fetch_add(&s->version, 1, __ATOMIC_RELAXED); /* GPU copies are stale */\n"
          "#endif\n"
          "  int64_t lo = s->offsets[p], n = fal_nbr_end(s, p) - lo;\n"
          "  for (int64_t k = n / 2; k-- > 0;) /* heapify */\n"
          "    for (int64_t r = k, ch; (ch = 2 * r + 1) < n; r = ch) {\n"
          "      if (ch + 1 < n && fal_G_eless(s, lo + ch, lo + ch + 1))\n        ch++;\n"
          "      if (!fal_G_eless(s, lo + r, lo + ch))\n        break;\n"
          "      fal_G_eswap(g, lo + r, lo + ch);\n    }\n"
          "  for (int64_t end = n; end-- > 1;) {\n"
          "    fal_G_eswap(g, lo, lo + end);\n"
          "    for (int64_t r = 0, ch; (ch = 2 * r + 1) < end; r = ch) {\n"
          "      if (ch + 1 < end && fal_G_eless(s, lo + ch, lo + ch + 1))\n        ch++;\n"
          "      if (!fal_G_eless(s, lo + r, lo + ch))\n        break;\n"
          "      fal_G_eswap(g, lo + r, lo + ch);\n    }\n  }\n"
          "  if (!s->in_edge)\n    return;\n"
          "  for (int64_t e = lo; e < lo + n; e++) {\n"
          "    fal_point u = s->dst[e];\n    int64_t j = 0;\n"
          "    for (int64_t f = lo; f < e; f++)\n      j += s->dst[f] == u;\n"
          "    for (int64_t k = s->in_offsets[u]; k < s->in_offsets[u + 1]; k++)\n"
          "      if (s->in_src[k] == p && j-- == 0) {\n        s->in_edge[k] = e;\n        break;\n      }\n"
          "  }\n}\n", hd, hd);
}

/* CPU target: `d = s;` between two graphs (§2: every getType graph is a
 * graph of its own).  d gets its own copy of every property; the
 * structure is shared while nothing can change it (it is read-only in a
 * program that does not mutate graphs: d then borrows s's arrays, marked
 * by structure_of), and copied in a program that mutates (§6) or sorts
 * edges (§3.1).  A copy
 * onto a graph that already has this structure copies properties only. */
static void emit_csr_release(Ctx *c);

static void emit_host_graph_copy(Ctx *c)
{
  Program *p = c->prog;
  emit_csr_release(c);
  put(c, "static void fal_G_copy(fal_G *d, fal_G *s)\n{\n"
         "  if (d == s)\n    return;\n");
  if (p->mutates)
    put(c, "  fal_G_settle(s);\n");
  put(c, "  if (!d->fal_base.loaded || d->fal_base.csr.offsets != s->fal_base.csr.offsets ||\n"
         "      d->fal_base.csr.version != s->fal_base.csr.version) {\n"
         );
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind != PK_VIEW)
      putf(c, "    fal_free(d->%s);\n", p->props[i].name);
  put(c, "    d->fal_base.nprops = 0;\n"
         "    fal_G_csr_release(d);\n");
  if (p->mutates || c->need_sort) /* sortEdges changes the structure too */
    put(c, "    fal_graph_clone(&d->fal_base.csr, &s->fal_base.csr);\n"
           "    d->fal_base.structure_of = NULL;\n");
  else
    put(c, "    if (!__atomic_load_n(&s->fal_base.csr_refs, __ATOMIC_ACQUIRE)) {\n"
           "      int *r = (int *)fal_alloc(sizeof *r), *none = NULL;\n      *r = 1;\n"
           "      if (!__atomic_compare_exchange_n(&s->fal_base.csr_refs, &none, r, 0,\n"
           "                                       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))\n"
           "        fal_free(r); /* another section installed one */\n    }\n"
           "    __atomic_add_fetch(s->fal_base.csr_refs, 1, __ATOMIC_ACQ_REL);\n"
           "    d->fal_base.csr = s->fal_base.csr; /* borrowed, read-only */\n"
           "    d->fal_base.csr_refs = s->fal_base.csr_refs;\n"
           "    d->fal_base.structure_of = s->fal_base.csr.offsets;\n");
  put(c, "    d->fal_base.loaded = 1;\n"
         "    d->fal_base.is_mutable = s->fal_base.is_mutable;\n"
         "    d->fal_base.need_in_edges = s->fal_base.need_in_edges;\n"
         "    d->fal_base.need_sources = s->fal_base.need_sources;\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind != PK_VIEW)
      putf(c, "    fal_prop_add(&d->fal_base, (void **)&d->%s, sizeof *d->%s, %s);\n",
           p->props[i].name, p->props[i].name, prop_kind_name(p->props[i].kind));
  put(c, "  }\n"
         "  d->npoints = s->npoints;\n  d->nedges = s->nedges;\n  d->directed = s->directed;\n");
  for (int i = 0; i < p->nprops; i++) {
    const Prop *q = &p->props[i];
    if (q->kind == PK_VIEW)
      putf(c, "  fal_view_resize((void **)&d->%s, &d->fal_cap_%s, d->n%s, s->n%s, sizeof *d->%s, "
              "__FILE__, __LINE__);\n  d->n%s = s->n%s;\n"
              "  if (s->n%s)\n    memcpy(d->%s, s->%s, (size_t)s->n%s * sizeof *d->%s);\n",
           q->name, q->name, q->name, q->name, q->name, q->name, q->name, q->name, q->name,
           q->name, q->name, q->name);
    else
      putf(c, "  if (s->%s && d->%s)\n    memcpy(d->%s, s->%s, %s * sizeof *d->%s);\n",
           q->name, q->name, q->name, q->name,
           q->kind == PK_GRAPH ? "1"
           : p->mutates ? (q->kind == PK_POINT ? "fal_prop_elems(&s->fal_base.csr, 0)"
                                                : "fal_prop_elems(&s->fal_base.csr, 1)")
           : q->kind == PK_POINT ? "(size_t)s->npoints" : "(size_t)s->nedges",
           q->name);
  }
  put(c, "}\n");
}

/* CPU target: g stops using its structure.  A structure some graph
 * borrowed (fal_G_copy) is counted (csr_refs) and freed by its last user;
 * one never shared is g's own. */
static void emit_csr_release(Ctx *c)
{
  if (c->csr_release_done)
    return;
  c->csr_release_done = true;
  put(c, "static void fal_G_csr_release(fal_G *g)\n{\n"
         "  int *r = g->fal_base.csr_refs;\n"
         "  if (!r || __atomic_sub_fetch(r, 1, __ATOMIC_ACQ_REL) == 0) {\n"
         "    fal_graph_free(&g->fal_base.csr);\n    fal_free(r);\n  }\n"
         "  g->fal_base.csr_refs = NULL;\n"
         "  memset(&g->fal_base.csr, 0, sizeof g->fal_base.csr);\n}\n");
}

/* CPU target: the end of a graph local to a function other than main
 * (__attribute__((cleanup)), lower_decl.c).  It frees the properties and
 * views, which are always the graph's own, and its use of the structure
 * (freed with the last graph using it, which may live longer). */
static void emit_host_graph_drop(Ctx *c)
{
  Program *p = c->prog;
  emit_csr_release(c);
  put(c, "static void fal_G_drop(fal_G *g)\n{\n  fal_G_csr_release(g);\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_VIEW)
      putf(c, "  fal_free(g->%s);\n  fal_owner_free(&g->fal_own_%s);\n", p->props[i].name,
           p->props[i].name);
  put(c, "  fal_gbase_free(&g->fal_base);\n}\n");
}

/* struct fal_G: the graph type of this program (struct of arrays). */
static void emit_graph_struct(Ctx *c)
{
  Program *p = c->prog;
  put(c, "/* falconc: the graph type of this program; one array per property (§3.1). */\n");
  put(c, "struct fal_G {\n  fal_gbase fal_base;\n  int npoints;\n  long nedges;\n  int directed;\n");
  for (int i = 0; i < p->nprops; i++)
    if (p->props[i].kind == PK_VIEW)
      putf(c, "  %s *%s; /* graph view (§3.6): n%s elements */\n  int n%s;\n"
              "  int64_t fal_cap_%s;\n  fal_owner fal_own_%s; /* single (§4.3) */\n",
           p->props[i].ctype, p->props[i].name, p->props[i].name, p->props[i].name,
           p->props[i].name, p->props[i].name);
    else
      putf(c, "  %s *%s; /* %s property */\n", p->props[i].ctype, p->props[i].name,
           p->props[i].kind == PK_POINT ? "point" : p->props[i].kind == PK_EDGE ? "edge" : "graph");
  if (p->nparted)
    put(c, "  /* makePartition (§7): the parts, host views of GPU parts, the first\n"
           "   * point of each part, and the merge function of updateFunction */\n"
           "  struct fal_G *fal_parts, *fal_mirrors;\n  int fal_nparts, fal_shared;\n  int64_t *fal_lo;\n"
           "  void (*fal_merge)(struct fal_G *, fal_point, struct fal_G *, fal_point);\n");
  if (p->nparted && !c->mpi && c->gpu) {
    put(c, "  /* the border exchange of GPU parts (NULL: every property travels),\n"
           "   * each part's ghosts at the start of a foreach, whether the parts\n"
           "   * hold newer values than this host graph, the points host code wrote\n"
           "   * since the last foreach (65: all), graph properties before it */\n"
           "  fal_bx *fal_bx;\n  struct fal_G *fal_shadow, *fal_gpin; /* fal_gpin: pinned graph properties */\n"
           "  int fal_stale, fal_ndirty, fal_shadow_ok;\n"
           "  fal_point fal_dirty_pt[64];\n"
           "  /* a planned loop's kernels, one per part (fal_pxh, lower_plan.c) */\n"
           "  void *fal_pxh;\n  int fal_px_tried;\n"
           "  /* while a topology-driven loop's kernels run on this part: its\n"
           "   * fal_rmt, where MINs of points other parts own go (lower_plan.c;\n"
           "   * falcon/cuda.cuh fal_rmv) */\n"
           "  fal_rmv fal_rmt;\n");
    for (int i = 0; i < p->nprops; i++)
      if (p->props[i].kind == PK_GRAPH)
        putf(c, "  %s fal_bx_before_%s;\n", p->props[i].ctype, p->props[i].name);
  }
  if (p->nparted && c->mpi) {
    put(c, "  /* --mpi: ghosts and borders of this rank, the one-point copies (one per\n"
           "   * thread) that incoming records are merged from, whether points of other ranks\n"
           "   * are out of date, graph properties at the start of a foreach */\n"
           "  fal_mpi_plan *fal_mpi;\n  struct fal_G *fal_mpi_in;\n  int fal_mpi_nin, fal_mpi_stale;\n"
           "  int fal_mpi_nwr; /* host writes since the last foreach (fal_G_mpi_wr) */\n"
           "  uint64_t fal_mpi_mask; /* the point properties of this round's record */\n");
    for (int i = 0; i < p->nprops; i++)
      if (p->props[i].kind == PK_GRAPH)
        putf(c, "  %s fal_mpi_before_%s;\n", p->props[i].ctype, p->props[i].name);
    if (c->gpu)
      put(c, "  /* --mpi --target=gpu: this rank's GPU copy (NULL: its points run on\n"
             "   * the host), the ghosts then the border entries (host and device\n"
             "   * ids), their records' staging areas (one array per point property,\n"
             "   * device and pinned host), whether the GPU holds newer values of\n"
             "   * this rank's points than the host graph, and the points host code\n"
             "   * wrote since the last foreach (65: all) */\n"
             "  struct fal_G *fal_mpi_gpu;\n  fal_point *fal_mpi_hid, *fal_mpi_did;\n"
             "  int64_t fal_mpi_nid;\n  unsigned char *fal_mpi_dbuf, *fal_mpi_hbuf;\n"
             "  int fal_mpi_devstale, fal_ndirty;\n  fal_point fal_dirty_pt[64];\n"
             "  /* changed entries only: the device's copy of the entries' records\n"
             "   * at the round's start (laid out like the staging area), the list of\n"
             "   * those that changed (device, pinned host) and its length, the ids\n"
             "   * of the points pushed back (pinned host, device); fal_mpi_all:\n"
             "   * FALCON_MPI_STAGING=all, every entry both ways each round */\n"
             "  unsigned char *fal_mpi_dsh;\n  int64_t *fal_mpi_dcx, *fal_mpi_hcx;\n"
             "  unsigned long long *fal_mpi_dcnt, *fal_mpi_hcnt;\n"
             "  fal_point *fal_mpi_hpid, *fal_mpi_dpid;\n  int fal_mpi_all;\n"
             "  /* the graph properties (the loop flags) on their way to the GPU\n"
             "   * (first half) and back (second half), pinned */\n"
             "  unsigned char *fal_mpi_hgp;\n  size_t fal_mpi_ngp;\n"
             "  /* the ranks' GPUs' point property arrays, mapped here (fal_mpxg,\n"
             "   * NULL: the loops keep the exchange), and while a loop's kernels\n"
             "   * or host rounds run (fal_mpx) the rank's fal_rmt, where MINs of\n"
             "   * other ranks' points go */\n"
             "  struct fal_mpxg *fal_mpxg;\n");
    if (c->gpu)
      put(c, "  fal_rmv fal_rmt;\n");
    if (c->gpu && mpi_merge_on_gpu(c))
      put(c, "  /* merges on the GPU (fal_mpi_dm; FALCON_MPI_MERGE=host: on the\n"
             "   * host): the (point, record) pairs sent and received (device,\n"
             "   * pinned host), the records per neighbour (device, pinned host),\n"
             "   * a byte per own point that a merge changed, and the incoming\n"
             "   * records as a graph (device arrays, a slot per record) */\n"
             "  int fal_mpi_dm;\n"
             "  unsigned char *fal_mpi_dsend, *fal_mpi_drecv, *fal_mpi_hsend, *fal_mpi_hrecv, *fal_mpi_dpchg;\n"
             "  unsigned long long *fal_mpi_dncnt, *fal_mpi_hncnt;\n"
             "  struct fal_G *fal_mpi_din;\n"
             "  /* CUDA IPC (every rank on one machine): each neighbour's\n"
             "   * send area mapped here (CUDA IPC) and its size, and a device\n"
             "   * count of records that named points outside their range */\n"
             "  int fal_mpi_ipc;\n  unsigned char **fal_mpi_peer;\n  int64_t *fal_mpi_peer_bytes;\n"
             "  int64_t fal_mpi_inl; /* the most pairs a neighbour gets in a message (FALCON_MPI_INLINE) */\n"
             "  unsigned long long *fal_mpi_derr, *fal_mpi_herr;\n");
  }
  put(c, "};\n");
  /* --mpi: fal_G_read_rows reads a partitioned graph whose edges no code
   * reaches beyond a rank's points (lower_loop.c mpi_rows_ok) */
  for (int rows = 0; rows <= (c->mpi ? 1 : 0); rows++) {
    putf(c, "static void fal_G_read%s(fal_G *g, const char *path)\n{\n", rows ? "_rows" : "");
    if (p->uses_in_edges)
      put(c, "  g->fal_base.need_in_edges = 1;\n");
    if (p->uses_sources)
      put(c, "  g->fal_base.need_sources = 1;\n");
    if (p->mutates) /* kept in the mutable layout (§6) */
      put(c, "  g->fal_base.is_mutable = 1;\n");
    putf(c, "  %s(&g->fal_base, path);\n"
            "  g->npoints = (int)g->fal_base.csr.npoints;\n"
            "  g->nedges = (long)%s;\n"
            "  g->directed = g->fal_base.csr.directed;\n}\n",
         rows ? "fal_mpi_gbase_read" : "fal_gbase_read",
         rows ? "(g->fal_base.csr.rows ? g->fal_base.csr.all_edges : g->fal_base.csr.nedges)"
              : "g->fal_base.csr.nedges");
  }
  if (p->mutates) {
    put(c, "/* Mutation (§6): additions are visible after fal_G_settle, which the\n"
           " * program calls before each parallel loop and each copy to a GPU. */\n"
           "static void fal_G_settle(fal_G *g)\n{\n"
           "  if (!g->fal_base.csr.end)\n    return;\n"
           "  fal_gbase_settle(&g->fal_base);\n"
           "  g->npoints = (int)g->fal_base.csr.npoints;\n"
           "  g->nedges = (long)g->fal_base.csr.nedges;\n}\n"
           "static inline fal_edge fal_G_add_edge(fal_G *g, fal_point u, fal_point v, fal_weight w)\n{\n"
           "  if (!g->fal_base.csr.end)\n    fal_gbase_mutable(&g->fal_base);\n"
           "  fal_edge e = fal_graph_add_edge(&g->fal_base.csr, u, v, w);\n"
           "  __atomic_store_n(&g->nedges, (long)__atomic_load_n(&g->fal_base.csr.nedges, "
           "__ATOMIC_RELAXED), __ATOMIC_RELAXED);\n  return e;\n}\n"
           "static inline fal_point fal_G_add_point(fal_G *g)\n{\n"
           "  if (!g->fal_base.csr.end)\n    fal_gbase_mutable(&g->fal_base);\n"
           "  fal_point p = fal_gbase_add_point(&g->fal_base);\n"
           "  __atomic_store_n(&g->npoints, (int)__atomic_load_n(&g->fal_base.csr.npoints, "
           "__ATOMIC_RELAXED), __ATOMIC_RELAXED);\n  return p;\n}\n");
  }
  if (c->need_sort)
    emit_sort_edges(c);
  if (c->gpu)
    emit_gpu_graph_functions(c);
  emit_view_functions(c);
  if (!c->gpu && c->need_copy)
    emit_host_graph_copy(c);
  if (!c->gpu && c->need_drop)
    emit_host_graph_drop(c);
  if (p->nparted && c->mpi && c->gpu) /* the kernels of emit_mpi_loop */
    emit_gb(c);
  if (p->nparted && c->mpi)
    emit_mpi_partition_functions(c);
  else if (p->nparted)
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

static bool name_in(const Source *src, const Node *id, char **names, int n)
{
  for (int i = 0; id && id->kind == K_IDENTIFIER && i < n; i++)
    if (node_text_is(src, id, names[i]))
      return true;
  return false;
}

/* Whether declaration `m` is inside a function other than main. */
static bool local_to_function(Ctx *c, const Node *m)
{
  for (const Node *p = m->parent; p; p = p->parent)
    if (p->kind == K_FUNCTION_DEFINITION) {
      const Node *name = declarator_name(node_field(p, F_DECLARATOR));
      return !name || !node_text_is(c->src, name, "main");
    }
  return false;
}

/* What the program needs of the generated graph functions: sortEdges
 * (§3.1), and on the CPU target fal_G_copy for `a = b;` between two
 * names declared as graphs (§2). */
static void scan_graph_needs(Ctx *c, const Node *root)
{
  char **names = NULL;
  int n = 0;
  for (const Node *m = root; m; m = node_next(m, root, true)) {
    const Node *t = node_field(m, F_TYPE);
    bool graphs = m->kind == K_GETTYPE_DECLARATION ||
                  ((m->kind == K_DECLARATION || m->kind == K_PARAMETER_DECLARATION) &&
                   falcon_type_kind(t) == FK_GRAPH);
    for (const Node *d = graphs ? m->child : NULL; d; d = d->next) {
      const Node *id = d->field == F_DECLARATOR ? declarator_name(d) : NULL;
      if (!id)
        continue;
      if (m->kind != K_PARAMETER_DECLARATION && local_to_function(c, m))
        c->need_drop = true;
      names = xrealloc(names, (size_t)(n + 1) * sizeof *names);
      names[n++] = node_strdup(c->src, id);
    }
    if (m->kind == K_CALL_EXPRESSION) {
      const Node *fn = node_field(m, F_FUNCTION);
      if (fn && fn->kind == K_FIELD_EXPRESSION &&
          node_text_is(c->src, node_field(fn, F_FIELD), "sortEdges"))
        c->need_sort = true;
    }
  }
  for (const Node *m = root; m; m = node_next(m, root, true))
    if (m->kind == K_ASSIGNMENT_EXPRESSION &&
        name_in(c->src, node_field(m, F_LEFT), names, n) &&
        name_in(c->src, node_field(m, F_RIGHT), names, n))
      c->need_copy = true;
  for (int i = 0; i < n; i++)
    free(names[i]);
  free(names);
}

/* CUDA when something is placed on a GPU, unless --target=cpu (§2). */
static bool check_target(Ctx *c, const Node *root)
{
  (void)root;
  c->gpu = c->prog->uses_gpu && c->opt->target != TARGET_CPU;
  /* --mpi (§7 under MPI) */
  c->mpi = c->opt->mpi && c->prog->nparted > 0;
  /* --mpi --target=gpu: CUDA, each rank's points on one GPU; otherwise
   * (auto, cpu) C, every part on the rank's host (docs/language-choices.md) */
  if (c->mpi && c->opt->target != TARGET_GPU)
    c->gpu = false;
  return true;
}

bool lower_program(const Source *src, const Node *root, Program *prog,
                   const Options *opt, StrBuf *out)
{
  int before = error_count();
  Ctx c = {.src = src, .prog = prog, .opt = opt};
  mutating = prog->mutates;
  if (!check_target(&c, root))
    return false;
  if (prog->falcon) {
    check_prop_structs(&c, root);
    scan_graph_needs(&c, root);
  }
  mark_interesting((Node *)root, c.gpu);
  if (c.gpu && prog->falcon && !prog->user_atomics)
    plan_read_first(&c, root);
  /* (--mpi: for the kernels that ranks of one machine may run, emit_mpi_loop;
   * elsewhere the context is NULL and the MIN is the plain one) */
  if (c.gpu && prog->falcon && !prog->user_atomics && prog->nparted > 0)
    plan_remote(&c, root);
  StrBuf body = {0};
  c.out = &body;
  render_program(&c, root);
  bool changed = body.len != src->len || memcmp(body.data ? body.data : "", src->text, src->len) != 0;
  if (prog->falcon) {
    /* A program with an rtclock of its own keeps it (§8). */
    const FuncInfo *rt = program_func(prog, "rtclock");
    if (rt && rt->def)
      strbuf_puts(out, "#define FAL_NO_RTCLOCK 1\n");
    if (c.hubs) /* GPU graphs make their hub lists when copied (falcon/cuda.cuh) */
      strbuf_puts(out, "#define FAL_HUB_KERNELS 1\n");
    if (c.ra_hold) /* a level-synchronous loop's kernels keep the ghosts (fal_ra_mm) */
      strbuf_puts(out, "#define FAL_RA_HOLD 1\n");
    strbuf_printf(out, "#include \"falcon/%s\"\ntypedef struct fal_G fal_G;\n",
                  c.gpu ? "cuda.cuh" : "falcon.h");
    if (c.mpi) /* output from rank 0 only (falcon/mpi.h; mpi.cuh for CUDA) */
      strbuf_printf(out, "#include \"falcon/%s\"\n#define fopen(p, m) fal_mpi_fopen(p, m)\n",
                    c.gpu ? "mpi.cuh" : "mpi.h");
  }
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

