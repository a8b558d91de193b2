/*
 * syntax.c: turning tree-sitter's error recovery into diagnostics.
 *
 * tree-sitter has already recovered from every syntax error, so all of
 * them are reported at once: an ERROR node becomes "unexpected ...", a
 * MISSING node becomes "expected ...".  A few Falcon mistakes get a message
 * that names the rule of the language reference they break.
 */
#include "falconc.h"

#include <string.h>

static const Node *first_leaf(const Node *n)
{
  while (n->child)
    n = n->child;
  return n;
}

/* True if the subtree of `n` has a leaf whose text is `s`. */
static bool has_token(const Source *src, const Node *n, const char *s)
{
  for (const Node *c = n; c; c = node_next(c, n, true))
    if (!c->child && node_text_is(src, c, s))
      return true;
  return false;
}

static bool inside(const Source *src, const Node *n, const char *kind_type)
{
  (void)src;
  for (const Node *p = n->parent; p; p = p->parent)
    if (strcmp(p->type, kind_type) == 0)
      return true;
  return false;
}

/* The text of a token for a message: at most one line and 40 bytes. */
static void describe_token(const Source *src, const Node *leaf, char *buf,
                           size_t size)
{
  size_t len;
  const char *t = node_text(src, leaf, &len);
  size_t n = 0;
  while (n < len && n < 40 && t[n] != '\n')
    n++;
  if (n == 0) {
    snprintf(buf, size, "end of input");
    return;
  }
  snprintf(buf, size, "'%.*s'", (int)n, t);
}

static const char foreach_hint[] =
    "a foreach is 'foreach (x In object.iterator) [(condition)] statement' "
    "(§4.1)";
static const char placement_hint[] =
    "a placement is '<GPU>', '<GPU, n>' or '<CPU>' (§2)";
static const char section_hint[] =
    "'section' is only allowed inside 'parallel sections { ... }' (§4.5)";

/* A hint from the Falcon statement or declaration that encloses `n`. */
static const char *hint_from_ancestors(const Node *n)
{
  for (const Node *p = n->parent; p; p = p->parent) {
    switch (p->kind) {
    case K_FOREACH_STATEMENT:
      return foreach_hint;
    case K_SINGLE_STATEMENT:
      return "a single is 'single (item) statement [else statement]' (§4.3)";
    case K_PLACEMENT:
    case K_PLACED_DECLARATOR:
      return placement_hint;
    case K_PARALLEL_SECTIONS_STATEMENT:
      return "'parallel sections' holds only 'section { ... }' blocks (§4.5)";
    case K_ELEMENT_DECLARATOR:
      return "the elements of a Set or Collection are 'Point(g)', 'Edge(g)' "
             "or 'struct name' (§3.4, §3.5)";
    default:
      break;
    }
    if (p->kind == K_FUNCTION_DEFINITION || p->kind == K_COMPOUND_STATEMENT)
      break;
  }
  return NULL;
}

/* A hint for the Falcon rule that the erroneous node `n` most likely
 * breaks, or NULL for plain C mistakes. */
static const char *falcon_hint(const Source *src, const Node *n)
{
  const Node *leaf = first_leaf(n);
  if (node_text_is(src, leaf, "section") &&
      !inside(src, n, "parallel_sections_statement"))
    return section_hint;
  if (node_text_is(src, leaf, "ReduxSum=") || node_text_is(src, leaf, "ReduxMul="))
    return "a reduction is 'x ReduxSum= g.edges.f;' or 'x ReduxMul= "
           "g.points.f;' (§4.4)";
  if (node_text_is(src, leaf, "<") || has_token(src, n, "GPU") ||
      has_token(src, n, "CPU"))
    return placement_hint;
  if (has_token(src, n, "foreach") && !has_token(src, n, "In"))
    return "expected 'In' in the foreach header: 'foreach (x In "
           "object.iterator)' (§4.1)";
  if (has_token(src, n, "foreach"))
    return foreach_hint;
  if (has_token(src, n, "single"))
    return "'single (item)' must be followed by a statement (§4.3)";
  if (has_token(src, n, "parallel"))
    return "expected 'parallel sections { section { ... } ... }' (§4.5)";
  if (has_token(src, n, "getType"))
    return "expected 'G1.getType() <GPU> G2;' (§2)";
  if (has_token(src, n, "Set") || has_token(src, n, "Collection"))
    return "the elements of a Set or Collection are 'Point(g)', 'Edge(g)' "
           "or 'struct name' (§3.4, §3.5)";
  return hint_from_ancestors(n);
}

/* The body of a foreach or single that is nothing but a MISSING token. */
static const char *missing_body_of(const Node *missing)
{
  const Node *stmt = missing->parent;
  if (!stmt || stmt->field != F_BODY || stmt->child != missing ||
      missing->next)
    return NULL;
  if (stmt->parent->kind == K_FOREACH_STATEMENT)
    return "foreach";
  if (stmt->parent->kind == K_SINGLE_STATEMENT)
    return "single";
  return NULL;
}

static void report_error_node(const Source *src, const Node *err)
{
  const Node *leaf = first_leaf(err);
  char tok[64];
  describe_token(src, leaf, tok, sizeof tok);
  const char *hint = falcon_hint(src, err);
  if (hint)
    error_at(src, leaf->loc, "syntax error at %s: %s", tok, hint);
  else
    error_at(src, leaf->loc, "syntax error: unexpected %s", tok);
}

static void report_missing(const Source *src, const Node *n)
{
  const char *body_of = missing_body_of(n);
  if (body_of) {
    error_at(src, n->loc, "expected a statement after the '%s' header (%s)",
             body_of, body_of[0] == 'f' ? "§4.1" : "§4.3");
    return;
  }
  /* Error recovery often leaves the offending word just before the
   * MISSING token (`section { ... }` outside parallel sections). */
  const Node *prev = NULL;
  for (const Node *c = n->parent ? n->parent->child : NULL; c && c != n;
       c = c->next)
    prev = c;
  const char *hint = NULL;
  if (prev && node_text_is(src, prev, "section"))
    hint = section_hint;
  else
    hint = falcon_hint(src, n->parent ? n->parent : n);
  if (!n->named)
    error_at(src, n->loc, "expected '%s'%s%s", n->type, hint ? ": " : "",
             hint ? hint : "");
  else
    error_at(src, n->loc, "expected %s%s%s", n->type, hint ? ": " : "",
             hint ? hint : "");
}

int report_syntax_errors(const Source *src, const Node *root)
{
  int before = error_count();
  if (!root->has_error)
    return 0;
  const Node *n = root;
  while (n) {
    if (n->kind == K_ERROR) {
      report_error_node(src, n);
      n = node_next(n, root, false);
      continue;
    }
    if (n->missing)
      report_missing(src, n);
    /* Subtrees without errors need no visit. */
    n = node_next(n, root, n->has_error);
  }
  return error_count() - before;
}
