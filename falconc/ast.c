/*
 * ast.c: falconc's own tree.  parse.c builds it once from tree-sitter's
 * tree; every later pass reads only this.  Nodes keep byte ranges into the
 * source so that plain C can be copied through as text.
 *
 * Walks use the parent/next links (node_next) instead of recursion, so a
 * pathologically deep input cannot overflow the C stack.
 */
#include "falconc.h"

#include <stdlib.h>
#include <string.h>

Node *node_field(const Node *n, FieldId field)
{
  for (Node *c = n ? n->child : NULL; c; c = c->next)
    if (c->field == field)
      return c;
  return NULL;
}

const char *node_text(const Source *src, const Node *n, size_t *len)
{
  *len = n->end - n->start;
  return src->text + n->start;
}

bool node_text_is(const Source *src, const Node *n, const char *s)
{
  if (!n) /* an absent field (an anonymous struct's name) matches nothing */
    return false;
  size_t len;
  const char *t = node_text(src, n, &len);
  return strlen(s) == len && memcmp(t, s, len) == 0;
}

Node *node_next(const Node *n, const Node *root, bool enter)
{
  if (enter && n->child)
    return n->child;
  while (n && n != root) {
    if (n->next)
      return n->next;
    n = n->parent;
  }
  return NULL;
}

void node_delete(Node *root)
{
  /* Post-order without recursion: detach leaves as they are reached. */
  Node *n = root;
  while (n) {
    if (n->child) {
      n = n->child;
      continue;
    }
    Node *parent = n->parent;
    Node *next = n->next;
    bool last = (n == root);
    free(n);
    if (last)
      break;
    if (next) {
      n = next;
    } else {
      parent->child = NULL;
      n = parent;
    }
  }
}

bool node_kind_is_falcon(NodeKind k)
{
  return k >= K_PLACEMENT && k < K_NKINDS;
}

bool node_has_falcon(const Node *root)
{
  for (const Node *n = root; n; n = node_next(n, root, true))
    if (node_kind_is_falcon(n->kind))
      return true;
  return false;
}

int node_named_count(const Node *n)
{
  int k = 0;
  for (const Node *c = n->child; c; c = c->next)
    if (c->named && c->kind != K_COMMENT)
      k++;
  return k;
}

Node *node_named_child(const Node *n, int i)
{
  for (Node *c = n->child; c; c = c->next)
    if (c->named && c->kind != K_COMMENT && i-- == 0)
      return c;
  return NULL;
}

const Node *node_unparen(const Node *n)
{
  while (n && n->kind == K_PARENTHESIZED_EXPRESSION)
    n = node_named_child(n, 0);
  return n;
}

char *node_strdup(const Source *src, const Node *n)
{
  size_t len;
  const char *t = node_text(src, n, &len);
  return xstrndup(t, len);
}
