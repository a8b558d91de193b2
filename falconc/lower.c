/*
 * lower.c: lowering of Falcon constructs into edits of the source text.
 *
 * This is the front end's stage: functions without a return type (§1) are
 * lowered here; every other Falcon construct is reported as "not supported
 * yet" so that nothing is silently copied into C that will not compile.
 * The CPU and CUDA backends replace those reports with real lowerings.
 */
#include "falconc.h"

#include <stdlib.h>
#include <string.h>

void edit_add(EditList *e, uint32_t start, uint32_t end, const char *text)
{
  if (e->len == e->cap) {
    e->cap = e->cap ? 2 * e->cap : 16;
    e->items = xrealloc(e->items, e->cap * sizeof *e->items);
  }
  e->items[e->len] = (Edit){start, end, (uint32_t)e->len, xstrdup(text)};
  e->len++;
}

void edit_list_free(EditList *e)
{
  for (size_t i = 0; i < e->len; i++)
    free(e->items[i].text);
  free(e->items);
  e->items = NULL;
  e->len = e->cap = 0;
}

/* The identifier a function declarator declares (through pointers and
 * parentheses), or NULL. */
static const Node *declared_name(const Node *decl)
{
  while (decl && decl->kind != K_IDENTIFIER)
    decl = node_field(decl, F_DECLARATOR);
  return decl;
}

/* `return;` directly in main's body (not in nested functions) becomes
 * `return 0;` (§1: exit status 0). */
static void lower_main_returns(const Node *body, EditList *edits)
{
  for (const Node *n = body; n; n = node_next(n, body, true)) {
    if (n->kind != K_RETURN_STATEMENT)
      continue;
    bool has_value = false;
    for (const Node *c = n->child; c; c = c->next)
      if (c->named)
        has_value = true;
    if (!has_value)
      edit_add(edits, n->start + 6, n->start + 6, " 0"); /* after "return" */
  }
}

/* f(params) { ... }  ==>  void f(params) { ... }; main gets int (§1). */
static void lower_implicit_function(const Source *src, const Node *fn,
                                    EditList *edits)
{
  const Node *decl = node_field(fn, F_DECLARATOR);
  const Node *name = declared_name(decl);
  bool is_main = name && node_text_is(src, name, "main");
  edit_add(edits, fn->start, fn->start, is_main ? "int " : "void ");
  if (is_main)
    lower_main_returns(node_field(fn, F_BODY), edits);
}

static void report_unsupported(const Source *src, const Node *n)
{
  /* Name the type itself (Graph, Point, ...) rather than "Falcon type". */
  NodeKind k = n->kind == K_FALCON_TYPE && n->child ? n->child->kind : n->kind;
  error_at(src, n->loc, "%s is not supported yet", node_kind_describe(k));
}

bool lower_program(const Source *src, const Node *root, const Options *opt,
                   EditList *edits)
{
  (void)opt;
  int before = error_count();
  const Node *n = root;
  while (n) {
    if (n->kind == K_FUNCTION_DEFINITION && !node_field(n, F_TYPE))
      lower_implicit_function(src, n, edits);
    if (node_kind_is_falcon(n->kind)) {
      report_unsupported(src, n);
      n = node_next(n, root, false);
      continue;
    }
    n = node_next(n, root, true);
  }
  return error_count() == before;
}
