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

Node *node_child_of_kind(const Node *n, NodeKind kind)
{
  for (Node *c = n ? n->child : NULL; c; c = c->next)
    if (c->kind == kind)
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

static const struct {
  NodeKind kind;
  const char *describe;
} falcon_kinds[] = {
    {K_PLACEMENT, "placement qualifier (§2)"},
    {K_PLACED_DECLARATOR, "placed declarator (§2)"},
    {K_GETTYPE_DECLARATION, "getType declaration (§2)"},
    {K_FALCON_TYPE, "Falcon type (§3)"},
    {K_ELEMENT_DECLARATOR, "Set/Collection declarator (§3.4, §3.5)"},
    {K_GRAPH_TYPE, "Graph type (§3.1)"},
    {K_POINT_TYPE, "Point type (§3.2)"},
    {K_EDGE_TYPE, "Edge type (§3.3)"},
    {K_SET_TYPE, "Set type (§3.4)"},
    {K_COLLECTION_TYPE, "Collection type (§3.5)"},
    {K_STRUCT_REC_SPECIFIER, "struct_rec (§3.6)"},
    {K_FOREACH_STATEMENT, "foreach statement (§4.1)"},
    {K_FOREACH_OFFSET, "foreach offset (§4.1)"},
    {K_SINGLE_STATEMENT, "single statement (§4.3)"},
    {K_PARALLEL_SECTIONS_STATEMENT, "parallel sections statement (§4.5)"},
    {K_SECTION, "section (§4.5)"},
    {K_REDUCTION_EXPRESSION, "reduction assignment (§4.4)"},
};

const char *node_kind_describe(NodeKind k)
{
  for (size_t i = 0; i < sizeof falcon_kinds / sizeof falcon_kinds[0]; i++)
    if (falcon_kinds[i].kind == k)
      return falcon_kinds[i].describe;
  return "construct";
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

char *node_strdup(const Source *src, const Node *n)
{
  size_t len;
  const char *t = node_text(src, n, &len);
  return xstrndup(t, len);
}
