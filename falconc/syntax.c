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

/* A hint for the Falcon rule an ERROR node most likely breaks, or NULL. */
static const char *falcon_hint(const Source *src, const Node *err)
{
  const Node *leaf = first_leaf(err);
  if (node_text_is(src, leaf, "section") &&
      !inside(src, err, "parallel_sections_statement"))
    return "'section' is only allowed inside 'parallel sections { ... }' (§4.5)";
  if (has_token(src, err, "foreach") && !has_token(src, err, "In"))
    return "a foreach header is '(x In object.iterator)' (§4.1)";
  if (has_token(src, err, "foreach"))
    return "malformed foreach: 'foreach (x In object.iterator) [(condition)] "
           "statement' (§4.1)";
  if (has_token(src, err, "single"))
    return "'single (item)' must be followed by a statement (§4.3)";
  if (has_token(src, err, "GPU") || has_token(src, err, "CPU"))
    return "a placement is '<GPU>', '<GPU, n>' or '<CPU>' (§2)";
  if (has_token(src, err, "parallel"))
    return "expected 'parallel sections { section { ... } ... }' (§4.5)";
  if (has_token(src, err, "getType"))
    return "expected 'G1.getType() <GPU> G2;' (§2)";
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
  const Node *hint_at = n->parent ? n->parent : n;
  const char *hint = falcon_hint(src, hint_at);
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
