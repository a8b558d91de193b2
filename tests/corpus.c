/*
 * corpus.c: runs tree-sitter corpus files without the tree-sitter CLI.
 *
 * A corpus file holds cases in tree-sitter's format:
 *
 *   ==================
 *   title
 *   :error                 (optional: the source must not parse cleanly)
 *   ==================
 *   source
 *   ---
 *   (expected S-expression with field names)
 *
 * Each case is parsed with the Falcon grammar and the tree, printed by
 * ts_node_string, is compared with the expected S-expression after both
 * are reduced to single spaces.  One line per case: [PASS] or [FAIL].
 * Usage: corpus FILE...   Exit status 1 if any case failed.
 *        corpus --print SOURCE   prints the tree of a source file (for
 *        writing new cases; read the tree before trusting it).
 *        corpus --query FILE     checks that a query file (highlights.scm)
 *        compiles against the grammar.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_falcon(void);

static char *slurp(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  size_t n;
  while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
    len += n;
    if (cap - len < 2)
      buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  if (buf)
    buf[len] = '\0';
  return buf;
}

/* Collapses whitespace to single spaces, drops it after '(' and before
 * ')', and trims both ends. */
static char *normalize(const char *s)
{
  size_t n = strlen(s);
  char *out = malloc(n + 1), *o = out;
  bool space = false;
  for (; *s; s++) {
    if (isspace((unsigned char)*s)) {
      space = true;
      continue;
    }
    if (space && o > out && o[-1] != '(' && *s != ')')
      *o++ = ' ';
    space = false;
    *o++ = *s;
  }
  *o = '\0';
  return out;
}

static bool is_rule(const char *line, char c)
{
  int k = 0;
  while (line[k] == c)
    k++;
  return k >= 3 && (line[k] == '\n' || line[k] == '\r' || line[k] == '\0');
}

/* Returns the start of the next line. */
static char *next_line(char *p)
{
  char *nl = strchr(p, '\n');
  return nl ? nl + 1 : p + strlen(p);
}

typedef struct Case {
  char *title;
  bool expect_error;
  char *source;
  char *expected;
} Case;

/* Parses the case starting at `p` (a "===" line); returns the position
 * after it, or NULL at the end of the file. */
static char *read_case(char *p, Case *c)
{
  while (*p && !is_rule(p, '='))
    p = next_line(p);
  if (!*p)
    return NULL;
  p = next_line(p);
  char *title = p;
  p = next_line(p);
  c->title = strndup(title, strcspn(title, "\r\n"));
  c->expect_error = false;
  while (*p && !is_rule(p, '=')) {
    if (strncmp(p, ":error", 6) == 0)
      c->expect_error = true;
    p = next_line(p);
  }
  p = next_line(p);
  char *src = p;
  while (*p && !is_rule(p, '-'))
    p = next_line(p);
  /* The newline before "---" separates; it is not part of the source. */
  size_t srclen = (size_t)(p - src);
  if (srclen > 0 && src[srclen - 1] == '\n')
    srclen--;
  c->source = strndup(src, srclen);
  p = next_line(p);
  char *exp = p;
  while (*p && !is_rule(p, '='))
    p = next_line(p);
  c->expected = strndup(exp, (size_t)(p - exp));
  return p;
}

static bool run_case(TSParser *parser, const char *file, const Case *c)
{
  TSTree *tree = ts_parser_parse_string(parser, NULL, c->source,
                                        (uint32_t)strlen(c->source));
  TSNode root = ts_tree_root_node(tree);
  char *actual = ts_node_string(root);
  bool ok;
  if (c->expect_error) {
    ok = ts_node_has_error(root);
  } else {
    char *want = normalize(c->expected);
    ok = strcmp(want, actual) == 0;
    if (!ok)
      printf("  expected: %s\n  actual:   %s\n", want, actual);
    free(want);
  }
  printf("[%s] %s: %s\n", ok ? "PASS" : "FAIL", file, c->title);
  if (!ok && c->expect_error)
    printf("  expected a syntax error; got: %s\n", actual);
  free(actual);
  ts_tree_delete(tree);
  return ok;
}

static int check_query(const char *path)
{
  char *text = slurp(path);
  if (!text) {
    printf("[FAIL] %s: cannot read\n", path);
    return 1;
  }
  uint32_t offset;
  TSQueryError err;
  TSQuery *q = ts_query_new(tree_sitter_falcon(), text, (uint32_t)strlen(text),
                            &offset, &err);
  if (!q) {
    printf("[FAIL] %s: query error %d at byte %u: %.40s\n", path, (int)err,
           offset, text + offset);
    free(text);
    return 1;
  }
  printf("[PASS] %s: %u patterns compile\n", path, ts_query_pattern_count(q));
  ts_query_delete(q);
  free(text);
  return 0;
}

int main(int argc, char **argv)
{
  TSParser *parser = ts_parser_new();
  if (!ts_parser_set_language(parser, tree_sitter_falcon())) {
    fprintf(stderr, "corpus: grammar ABI not supported by the runtime\n");
    return 2;
  }
  if (argc == 3 && strcmp(argv[1], "--print") == 0) {
    char *text = slurp(argv[2]);
    if (!text) {
      fprintf(stderr, "corpus: cannot read %s\n", argv[2]);
      return 2;
    }
    TSTree *tree = ts_parser_parse_string(parser, NULL, text,
                                          (uint32_t)strlen(text));
    char *s = ts_node_string(ts_tree_root_node(tree));
    puts(s);
    free(s);
    free(text);
    ts_tree_delete(tree);
    ts_parser_delete(parser);
    return 0;
  }
  if (argc == 3 && strcmp(argv[1], "--query") == 0) {
    ts_parser_delete(parser);
    return check_query(argv[2]);
  }
  int failed = 0, total = 0;
  for (int i = 1; i < argc; i++) {
    char *text = slurp(argv[i]);
    if (!text) {
      printf("[FAIL] %s: cannot read\n", argv[i]);
      failed++;
      continue;
    }
    Case c;
    for (char *p = read_case(text, &c); p; p = read_case(p, &c)) {
      total++;
      if (!run_case(parser, argv[i], &c))
        failed++;
      free(c.title);
      free(c.source);
      free(c.expected);
    }
    free(text);
  }
  ts_parser_delete(parser);
  if (total == 0) {
    printf("[FAIL] corpus: no cases found\n");
    return 1;
  }
  return failed ? 1 : 0;
}
