/*
 * sema.c: facts about the whole program that lowering needs before it
 * starts writing: the property registry (§3.1), struct fields of Point and
 * Edge type (§3.2), functions and which of them run per element because a
 * parallel foreach calls them (§4.1), and which runtime structures the
 * program needs (in-edges, edge sources).
 */
#include "falconc.h"

#include <stdlib.h>
#include <string.h>

static const char *const reserved_props[] = {
    "npoints", "nedges", "directed", "points", "edges", "read", NULL};

static const char *const atomic_names[] = {
    "MIN", "MAX", "ADD", "SUB", "INCR", "DECR", "AND", "OR", "XOR", "CAS",
    NULL};

static bool in_list(const char *const *list, const char *s)
{
  for (; *list; list++)
    if (strcmp(*list, s) == 0)
      return true;
  return false;
}

bool is_atomic_name(const char *name)
{
  return in_list(atomic_names, name);
}

const Prop *program_prop(const Program *prog, const char *name)
{
  for (int i = 0; i < prog->nprops; i++)
    if (strcmp(prog->props[i].name, name) == 0)
      return &prog->props[i];
  return NULL;
}

FuncInfo *program_func(const Program *prog, const char *name)
{
  for (int i = 0; i < prog->nfuncs; i++)
    if (strcmp(prog->funcs[i].name, name) == 0)
      return &prog->funcs[i];
  return NULL;
}

FalKind program_field_kind(const Program *prog, const char *struct_name,
                           const char *field)
{
  for (int i = 0; i < prog->nfields; i++)
    if (strcmp(prog->fields[i].struct_name, struct_name) == 0 &&
        strcmp(prog->fields[i].field, field) == 0)
      return prog->fields[i].kind;
  return FK_NONE;
}

/* The member name of a call `obj.name(...)`, or NULL. */
static const Node *method_name(const Node *call)
{
  const Node *fn = node_field(call, F_FUNCTION);
  return fn && fn->kind == K_FIELD_EXPRESSION ? node_field(fn, F_FIELD) : NULL;
}

bool program_parted(const Program *prog, const char *graph)
{
  for (int i = 0; graph && i < prog->nparted; i++)
    if (strcmp(prog->parted[i], graph) == 0)
      return true;
  return false;
}

/* ---- partitions (§7) ------------------------------------------------------ */

/* hg.makePartition(...) marks hg; hg.updateFunction(f) marks f. */
static void scan_partition_call(const Source *src, Program *prog, const Node *call,
                                const Node *m)
{
  const Node *obj = node_field(node_field(call, F_FUNCTION), F_ARGUMENT);
  if (node_text_is(src, m, "makePartition") && obj && obj->kind == K_IDENTIFIER) {
    char *name = node_strdup(src, obj);
    if (program_parted(prog, name)) {
      free(name);
      return;
    }
    prog->parted = xrealloc(prog->parted, (size_t)(prog->nparted + 1) * sizeof *prog->parted);
    prog->parted[prog->nparted++] = name;
  }
}

static void mark_merge_functions(const Source *src, Program *prog, const Node *root)
{
  for (const Node *n = root; n; n = node_next(n, root, true)) {
    const Node *m = n->kind == K_CALL_EXPRESSION ? method_name(n) : NULL;
    if (!m || !node_text_is(src, m, "updateFunction"))
      continue;
    const Node *f = node_named_child(node_field(n, F_ARGUMENTS), 0);
    if (!f || f->kind != K_IDENTIFIER)
      continue;
    char *name = node_strdup(src, f);
    FuncInfo *fi = program_func(prog, name);
    if (fi)
      fi->merge = true;
    else
      error_at(src, f->loc, "updateFunction needs a function defined in this "
               "file, '%s' is not one (§7)", name);
    free(name);
  }
}

/* ---- properties (§3.1) -------------------------------------------------- */

static bool prop_kind_of(const Source *src, const Node *m, PropKind *kind)
{
  if (node_text_is(src, m, "addPointProperty"))
    *kind = PK_POINT;
  else if (node_text_is(src, m, "addEdgeProperty"))
    *kind = PK_EDGE;
  else if (node_text_is(src, m, "addProperty"))
    *kind = PK_GRAPH;
  else
    return false;
  return true;
}

/* The name and type arguments of addPointProperty & co: (name, T) or
 * (T, name) (§3.1: published programs write both).  The type is the
 * argument the grammar reads as a type (a primitive type or `struct T`);
 * two identifiers are (name, typedef-name). */
const Node *prop_args(const Node *args, const Node **type)
{
  const Node *a = node_named_child(args, 0), *b = node_named_child(args, 1);
  if (node_named_count(args) != 2 || !a || !b)
    return NULL;
  if (a->kind != K_IDENTIFIER && b->kind == K_IDENTIFIER) {
    const Node *t = a;
    a = b;
    b = t;
  }
  if (a->kind != K_IDENTIFIER)
    return NULL;
  if (type)
    *type = b;
  return a;
}

static void add_prop(const Source *src, Program *prog, const Node *call,
                     PropKind kind)
{
  const Node *args = node_field(call, F_ARGUMENTS);
  const Node *type = NULL;
  const Node *name = prop_args(args, &type);
  if (!name) {
    error_at(src, call->loc, "a property is added as 'g.addPointProperty(name, "
                             "type)' or '(type, name)' (§3.1)");
    return;
  }
  char *pname = node_strdup(src, name);
  const Node *sname = node_field(type, F_NAME);
  if (kind == PK_GRAPH && sname) /* a new element kind of the graph (§3.6) */
    kind = PK_VIEW;
  if (in_list(reserved_props, pname) || strncmp(pname, "fal_", 4) == 0) {
    error_at(src, name->loc, "'%s' cannot be a property name: it is reserved",
             pname);
    free(pname);
    return;
  }
  char *ctype = node_strdup(src, type);
  const Prop *old = program_prop(prog, pname);
  if (old) {
    if (old->kind != kind || strcmp(old->ctype, ctype) != 0)
      error_at(src, call->loc, "property '%s' was added before (line %u) with "
               "another type or kind; a name has one type in a program",
               pname, old->loc.line);
    free(pname);
    free(ctype);
    return;
  }
  prog->props = xrealloc(prog->props, (size_t)(prog->nprops + 1) * sizeof *prog->props);
  prog->props[prog->nprops++] = (Prop){
      pname, ctype, sname ? node_strdup(src, sname) : NULL, kind, call->loc};
}

/* ---- struct fields of Point and Edge type (§3.2) ------------------------ */

FalKind falcon_type_kind(const Node *type)
{
  if (!type || type->kind != K_FALCON_TYPE || !type->child)
    return FK_NONE;
  switch (type->child->kind) {
  case K_POINT_TYPE: return FK_POINT;
  case K_EDGE_TYPE: return FK_EDGE;
  case K_GRAPH_TYPE: return FK_GRAPH;
  case K_SET_TYPE: return FK_SET;
  case K_COLLECTION_TYPE: return FK_COLL;
  case K_BOUND_STRUCT_TYPE: return FK_ELEM;
  default: return FK_NONE;
  }
}

static void add_struct_fields(const Source *src, Program *prog, const Node *st)
{
  const Node *name = node_field(st, F_NAME);
  const Node *body = node_field(st, F_BODY);
  if (!name || !body)
    return;
  for (const Node *fd = body->child; fd; fd = fd->next) {
    FalKind k = fd->kind == K_FIELD_DECLARATION
                    ? falcon_type_kind(node_field(fd, F_TYPE)) : FK_NONE;
    if (k != FK_POINT && k != FK_EDGE)
      continue;
    for (const Node *d = fd->child; d; d = d->next) {
      if (d->field != F_DECLARATOR)
        continue;
      const Node *id = d;
      while (id && id->child)
        id = node_field(id, F_DECLARATOR);
      if (!id)
        continue;
      prog->fields = xrealloc(prog->fields, (size_t)(prog->nfields + 1) * sizeof *prog->fields);
      prog->fields[prog->nfields++] =
          (FieldInfo){node_strdup(src, name), node_strdup(src, id), k};
    }
  }
}

/* ---- functions and the call graph (§4.1) --------------------------------- */

const Node *declarator_name(const Node *d)
{
  while (d && d->kind != K_IDENTIFIER)
    d = node_field(d, F_DECLARATOR);
  return d;
}

const Node *function_params(const Node *def)
{
  const Node *d = node_field(def, F_DECLARATOR);
  while (d && d->kind != K_FUNCTION_DECLARATOR)
    d = node_field(d, F_DECLARATOR);
  return d ? node_field(d, F_PARAMETERS) : NULL;
}

static void add_function(const Source *src, Program *prog, const Node *def)
{
  const Node *decl = node_field(def, F_DECLARATOR);
  const Node *name = declarator_name(decl);
  if (!name)
    return;
  FuncInfo f = {node_strdup(src, name), def, false, NULL, false, false, false, false, 0};
  const Node *fdecl = decl;
  while (fdecl && fdecl->kind != K_FUNCTION_DECLARATOR)
    fdecl = node_field(fdecl, F_DECLARATOR);
  const Node *params = fdecl ? node_field(fdecl, F_PARAMETERS) : NULL;
  int ngraphs = 0;
  for (const Node *p = params ? params->child : NULL; p; p = p->next) {
    if (p->kind != K_PARAMETER_DECLARATION ||
        falcon_type_kind(node_field(p, F_TYPE)) != FK_GRAPH)
      continue;
    const Node *pn = declarator_name(node_field(p, F_DECLARATOR));
    if (pn && ngraphs++ == 0)
      f.graph_param = node_strdup(src, pn);
  }
  if (ngraphs > 1) {
    free(f.graph_param);
    f.graph_param = NULL;
  }
  prog->funcs = xrealloc(prog->funcs, (size_t)(prog->nfuncs + 1) * sizeof *prog->funcs);
  prog->funcs[prog->nfuncs++] = f;
}

/* Marks every function called (directly) inside `root` as an element
 * function; returns true if a mark was added. */
static bool mark_calls(const Source *src, Program *prog, const Node *root)
{
  bool changed = false;
  for (const Node *n = root; n; n = node_next(n, root, true)) {
    if (n->kind != K_CALL_EXPRESSION)
      continue;
    const Node *fn = node_field(n, F_FUNCTION);
    if (!fn || fn->kind != K_IDENTIFIER)
      continue;
    char *name = node_strdup(src, fn);
    FuncInfo *f = program_func(prog, name);
    if (f && !f->element)
      f->element = changed = true;
    free(name);
  }
  return changed;
}

/* The outermost foreach statements of a host function are parallel; the
 * functions they call (transitively) run per element. */
static void mark_element_functions(const Source *src, Program *prog)
{
  bool changed = true;
  while (changed) {
    changed = false;
    for (int i = 0; i < prog->nfuncs; i++) {
      const Node *body = node_field(prog->funcs[i].def, F_BODY);
      if (prog->funcs[i].element) {
        changed |= mark_calls(src, prog, body);
        continue;
      }
      for (const Node *n = body; n;) {
        if (n->kind == K_FOREACH_STATEMENT) {
          changed |= mark_calls(src, prog, n);
          n = node_next(n, body, false);
        } else {
          n = node_next(n, body, true);
        }
      }
    }
  }
}

/* ---- the whole program -------------------------------------------------- */

/* g.addEdge(...), g.addPoint(...), g.delpoint(p), g.deledge(e), p.del()
 * (§6); `m` is the method name of call `n`. */
static bool is_mutation(const Source *src, const Node *n, const Node *m)
{
  return node_text_is(src, m, "addEdge") || node_text_is(src, m, "addPoint") ||
         node_text_is(src, m, "delpoint") || node_text_is(src, m, "deledge") ||
         (node_text_is(src, m, "del") && node_named_count(node_field(n, F_ARGUMENTS)) == 0);
}

/* A mutation inside a foreach or in a function that runs per element:
 * on the CUDA target it may run in a kernel (§6). */
static bool mutates_in_parallel(const Source *src, const Program *prog, const Node *root)
{
  for (const Node *n = root; n; n = node_next(n, root, true)) {
    const Node *m = n->kind == K_CALL_EXPRESSION ? method_name(n) : NULL;
    if (!m || !is_mutation(src, n, m))
      continue;
    for (const Node *a = n->parent; a; a = a->parent) {
      if (a->kind == K_FOREACH_STATEMENT)
        return true;
      if (a->kind == K_FUNCTION_DEFINITION) {
        const Node *name = declarator_name(node_field(a, F_DECLARATOR));
        char *fname = name ? node_strdup(src, name) : NULL;
        const FuncInfo *f = fname ? program_func(prog, fname) : NULL;
        free(fname);
        if (f && f->element)
          return true;
        break;
      }
    }
  }
  return false;
}

static void scan_node(const Source *src, Program *prog, const Node *n)
{
  PropKind pk;
  const Node *m;
  switch (n->kind) {
  case K_CALL_EXPRESSION:
    m = method_name(n);
    if (m && prop_kind_of(src, m, &pk))
      add_prop(src, prog, n, pk);
    if (m && node_text_is(src, m, "getInDegree"))
      prog->uses_in_edges = true;
    if (m && is_mutation(src, n, m))
      prog->mutates = true;
    if (m)
      scan_partition_call(src, prog, n, m);
    break;
  case K_FIELD_EXPRESSION:
    m = node_field(n, F_FIELD);
    if (m && (node_text_is(src, m, "innbrs") || node_text_is(src, m, "nbrs")))
      prog->uses_in_edges = true;
    if (m && node_text_is(src, m, "edges"))
      prog->uses_sources = true;
    break;
  case K_STRUCT_SPECIFIER:
    add_struct_fields(src, prog, n);
    break;
  case K_FUNCTION_DEFINITION:
    add_function(src, prog, n);
    break;
  case K_PLACEMENT:
    m = node_field(n, F_KIND);
    if (m && node_text_is(src, m, "GPU"))
      prog->uses_gpu = true;
    break;
  case K_PREPROC_DEF:
    m = node_field(n, F_NAME);
    if (m) {
      char *name = node_strdup(src, m);
      if (in_list(atomic_names, name))
        prog->user_atomics = true;
      free(name);
    }
    break;
  default:
    break;
  }
}

/* fal_G is defined before the first top-level item that needs it: the
 * first function definition or declaration that uses a Falcon type. */
static void find_struct_at(const Node *root, Program *prog)
{
  for (const Node *c = root->child; c; c = c->next) {
    if (c->kind == K_FUNCTION_DEFINITION ||
        (c->kind == K_DECLARATION && node_has_falcon(c))) {
      prog->struct_at = c;
      return;
    }
  }
}

bool sema_program(const Source *src, const Node *root, Program *prog)
{
  int before = error_count();
  memset(prog, 0, sizeof *prog);
  prog->falcon = node_has_falcon(root);
  for (const Node *n = root; n; n = node_next(n, root, true))
    scan_node(src, prog, n);
  for (int i = 0; i < prog->nfuncs; i++)
    if (in_list(atomic_names, prog->funcs[i].name))
      prog->user_atomics = true;
  mark_element_functions(src, prog);
  mark_merge_functions(src, prog, root);
  prog->par_mutates = prog->mutates && mutates_in_parallel(src, prog, root);
  /* Parts of a partitioned graph may be placed on GPUs (§7). */
  if (prog->nparted)
    prog->uses_gpu = true;
  find_struct_at(root, prog);
  return error_count() == before;
}

void program_free(Program *prog)
{
  for (int i = 0; i < prog->nprops; i++) {
    free(prog->props[i].name);
    free(prog->props[i].ctype);
    free(prog->props[i].struct_name);
  }
  for (int i = 0; i < prog->nfields; i++) {
    free(prog->fields[i].struct_name);
    free(prog->fields[i].field);
  }
  for (int i = 0; i < prog->nfuncs; i++) {
    free(prog->funcs[i].name);
    free(prog->funcs[i].graph_param);
  }
  for (int i = 0; i < prog->nparted; i++)
    free(prog->parted[i]);
  free(prog->parted);
  free(prog->props);
  free(prog->fields);
  free(prog->funcs);
  memset(prog, 0, sizeof *prog);
}
