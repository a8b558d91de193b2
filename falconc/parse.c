/*
 * parse.c: the only file that talks to tree-sitter.  It parses the source
 * with the Falcon grammar (grammar/src/parser.c) and converts the tree once
 * into falconc's own Node tree, naming each child by its field.
 */
#include "falconc.h"

#include <string.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_falcon(void);

static const struct {
  const char *type;
  NodeKind kind;
} kind_table[] = {
    {"ERROR", K_ERROR},
    {"translation_unit", K_TRANSLATION_UNIT},
    {"function_definition", K_FUNCTION_DEFINITION},
    {"function_declarator", K_FUNCTION_DECLARATOR},
    {"identifier", K_IDENTIFIER},
    {"return_statement", K_RETURN_STATEMENT},
    {"compound_statement", K_COMPOUND_STATEMENT},
    {"declaration", K_DECLARATION},
    {"parameter_declaration", K_PARAMETER_DECLARATION},
    {"init_declarator", K_INIT_DECLARATOR},
    {"pointer_declarator", K_POINTER_DECLARATOR},
    {"field_expression", K_FIELD_EXPRESSION},
    {"assignment_expression", K_ASSIGNMENT_EXPRESSION},
    {"update_expression", K_UPDATE_EXPRESSION},
    {"array_declarator", K_ARRAY_DECLARATOR},
    {"call_expression", K_CALL_EXPRESSION},
    {"subscript_expression", K_SUBSCRIPT_EXPRESSION},
    {"parenthesized_expression", K_PARENTHESIZED_EXPRESSION},
    {"pointer_expression", K_POINTER_EXPRESSION},
    {"argument_list", K_ARGUMENT_LIST},
    {"type_argument", K_TYPE_ARGUMENT},
    {"expression_statement", K_EXPRESSION_STATEMENT},
    {"if_statement", K_IF_STATEMENT},
    {"break_statement", K_BREAK_STATEMENT},
    {"continue_statement", K_CONTINUE_STATEMENT},
    {"for_statement", K_LOOP_STATEMENT},
    {"while_statement", K_LOOP_STATEMENT},
    {"do_statement", K_LOOP_STATEMENT},
    {"switch_statement", K_SWITCH_STATEMENT},
    {"struct_specifier", K_STRUCT_SPECIFIER},
    {"field_declaration", K_FIELD_DECLARATION},
    {"field_declaration_list", K_FIELD_DECLARATION_LIST},
    {"preproc_def", K_PREPROC_DEF},
    {"preproc_function_def", K_PREPROC_DEF},
    {"comment", K_COMMENT},
    {"placement", K_PLACEMENT},
    {"placed_declarator", K_PLACED_DECLARATOR},
    {"gettype_declaration", K_GETTYPE_DECLARATION},
    {"falcon_type", K_FALCON_TYPE},
    {"element_declarator", K_ELEMENT_DECLARATOR},
    {"graph_type", K_GRAPH_TYPE},
    {"point_type", K_POINT_TYPE},
    {"edge_type", K_EDGE_TYPE},
    {"set_type", K_SET_TYPE},
    {"collection_type", K_COLLECTION_TYPE},
    {"bound_struct_type", K_BOUND_STRUCT_TYPE},
    {"struct_rec_specifier", K_STRUCT_REC_SPECIFIER},
    {"foreach_statement", K_FOREACH_STATEMENT},
    {"foreach_offset", K_FOREACH_OFFSET},
    {"single_statement", K_SINGLE_STATEMENT},
    {"parallel_sections_statement", K_PARALLEL_SECTIONS_STATEMENT},
    {"section", K_SECTION},
    {"reduction_expression", K_REDUCTION_EXPRESSION},
};

static const struct {
  const char *name;
  FieldId id;
} field_table[] = {
    {"alternative", F_ALTERNATIVE}, {"body", F_BODY},
    {"argument", F_ARGUMENT},       {"arguments", F_ARGUMENTS},
    {"consequence", F_CONSEQUENCE}, {"field", F_FIELD},
    {"function", F_FUNCTION},       {"index", F_INDEX},
    {"condition", F_CONDITION},     {"declarator", F_DECLARATOR},
    {"device", F_DEVICE},           {"element", F_ELEMENT},
    {"graph", F_GRAPH},             {"iterable", F_ITERABLE},
    {"kind", F_KIND},               {"left", F_LEFT},
    {"name", F_NAME},               {"offset", F_OFFSET},
    {"operator", F_OPERATOR},       {"parameters", F_PARAMETERS},
    {"placement", F_PLACEMENT},     {"right", F_RIGHT},
    {"section", F_SECTION},         {"source", F_SOURCE},
    {"target", F_TARGET},           {"type", F_TYPE},
    {"value", F_VALUE},             {"variable", F_VARIABLE},
};

static NodeKind kind_of(const char *type, bool named)
{
  if (!named)
    return K_OTHER; /* keywords and punctuation */
  for (size_t i = 0; i < sizeof kind_table / sizeof kind_table[0]; i++)
    if (strcmp(kind_table[i].type, type) == 0)
      return kind_table[i].kind;
  return K_OTHER;
}

static FieldId field_of(const char *name)
{
  if (!name)
    return F_NONE;
  for (size_t i = 0; i < sizeof field_table / sizeof field_table[0]; i++)
    if (strcmp(field_table[i].name, name) == 0)
      return field_table[i].id;
  return F_OTHER;
}

static Node *convert_one(TSTreeCursor *cur, Node *parent)
{
  TSNode t = ts_tree_cursor_current_node(cur);
  Node *n = xcalloc(1, sizeof *n);
  n->type = ts_node_type(t);
  n->named = ts_node_is_named(t);
  n->missing = ts_node_is_missing(t);
  n->kind = kind_of(n->type, n->named);
  n->field = field_of(ts_tree_cursor_current_field_name(cur));
  n->has_error = ts_node_has_error(t);
  n->start = ts_node_start_byte(t);
  n->end = ts_node_end_byte(t);
  TSPoint p = ts_node_start_point(t);
  n->loc.line = p.row + 1;
  n->loc.col = p.column + 1;
  n->parent = parent;
  return n;
}

/* The deepest syntax tree falconc accepts, and the deepest nesting of
 * Falcon statements (foreach, single, parallel sections) in it.  The
 * compiler's later stages recurse over the tree: the first limit keeps them
 * far from the end of the stack main.c gives them (FALCONC_STACK, a few
 * hundred bytes a level); the second keeps the lowering's output and
 * memory, which grow with the square of that nesting, small. */
#define MAX_TREE_DEPTH 200000
#define MAX_FALCON_NESTING 128

/* Iterative depth-first conversion that mirrors the cursor's moves: down
 * to a first child, across to a sibling, up to a parent.  *too_deep: the
 * first node deeper than MAX_TREE_DEPTH (the conversion goes on). */
static Node *convert_tree(TSTree *tree, Node **too_deep)
{
  TSTreeCursor cur = ts_tree_cursor_new(ts_tree_root_node(tree));
  Node *root = convert_one(&cur, NULL);
  Node *n = root;
  int depth = 0;
  *too_deep = NULL;
  for (;;) {
    if (ts_tree_cursor_goto_first_child(&cur)) {
      Node *c = convert_one(&cur, n);
      n->child = c;
      n = c;
      if (++depth > MAX_TREE_DEPTH && !*too_deep)
        *too_deep = c;
      continue;
    }
    /* No children: move to the next sibling, climbing as needed. */
    for (;;) {
      if (ts_tree_cursor_goto_next_sibling(&cur)) {
        Node *s = convert_one(&cur, n->parent);
        n->next = s;
        n = s;
        break;
      }
      if (!ts_tree_cursor_goto_parent(&cur)) {
        ts_tree_cursor_delete(&cur);
        return root;
      }
      n = n->parent;
      depth--;
    }
  }
}

static bool is_falcon_statement(const Node *n)
{
  return n->kind == K_FOREACH_STATEMENT || n->kind == K_SINGLE_STATEMENT ||
         n->kind == K_PARALLEL_SECTIONS_STATEMENT;
}

/* Reports the first Falcon statement at a nesting depth (itself and the
 * Falcon statements around it) beyond MAX_FALCON_NESTING. */
static bool check_falcon_nesting(const Source *src, const Node *root)
{
  for (const Node *n = root; n; n = node_next(n, root, true)) {
    if (!is_falcon_statement(n))
      continue;
    int depth = 1;
    for (const Node *p = n->parent; p && depth <= MAX_FALCON_NESTING; p = p->parent)
      depth += is_falcon_statement(p);
    if (depth > MAX_FALCON_NESTING) {
      error_at(src, n->loc, "foreach, single and parallel sections nested more "
               "than %d deep; falconc stops here", MAX_FALCON_NESTING);
      return false;
    }
  }
  return true;
}

Node *parse_source(const Source *src)
{
  if (src->len > UINT32_MAX) {
    error_plain("%s: file too large", src->path);
    return NULL;
  }
  TSParser *parser = ts_parser_new();
  if (!parser || !ts_parser_set_language(parser, tree_sitter_falcon())) {
    error_plain("the Falcon grammar's ABI version is not supported by this "
                "tree-sitter runtime");
    if (parser)
      ts_parser_delete(parser);
    return NULL;
  }
  /* tree-sitter's error recovery can take time quadratic in the length of
   * some malformed runs (fuzz_falconc found 87 KB of a comment's text
   * followed by '=' x 11,000 taking 45 s).  A real program parses at
   * megabytes a second, so a budget of 2 s plus 10 us a byte only stops
   * such inputs, with an error instead of a hang. */
  uint64_t budget = 2000000 + 10 * (uint64_t)src->len;
  ts_parser_set_timeout_micros(parser, budget);
  TSTree *tree = ts_parser_parse_string(parser, NULL, src->text,
                                        (uint32_t)src->len);
  if (!tree) {
    error_plain("%s: the parser gave up after %.1f s: the text is too far from "
                "Falcon for its syntax errors to be recovered from; fix the "
                "first lines that are not Falcon or C", src->path, budget / 1e6);
    ts_parser_delete(parser);
    return NULL;
  }
  Node *too_deep;
  Node *root = convert_tree(tree, &too_deep);
  ts_tree_delete(tree);
  ts_parser_delete(parser);
  if (too_deep) {
    error_at(src, too_deep->loc, "nesting too deep (more than %d levels of "
             "syntax); falconc stops here", MAX_TREE_DEPTH);
    node_delete(root);
    return NULL;
  }
  if (!check_falcon_nesting(src, root)) {
    node_delete(root);
    return NULL;
  }
  return root;
}
