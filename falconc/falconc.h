/*
 * falconc.h: the map of the compiler.
 *
 * The pipeline (main.c) is:  read source -> parse (parse.c, the only file
 * that talks to tree-sitter) -> report syntax errors (diag.c) -> lower the
 * Falcon constructs into edits of the source text (lower.c) -> apply the
 * edits and write the result (emit.c).
 *
 * Plain C is never re-printed from the tree: the output is the input text
 * with the byte ranges of Falcon constructs replaced, so comments, layout
 * and preprocessor lines survive unchanged.
 *
 * Section numbers (§4.1, ...) refer to the Falcon language reference.
 */
#ifndef FALCONC_H
#define FALCONC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define FALCONC_VERSION "0.1.0"

/* ---- util.c: memory, growable strings ------------------------------- */

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* The index of string s in list[0 .. n), or -1. */
int str_index(char *const *list, int n, const char *s);

/* A growable byte buffer; `data` is always NUL-terminated. */
typedef struct StrBuf {
  char *data;
  size_t len, cap;
} StrBuf;

void strbuf_append(StrBuf *b, const char *s, size_t n);
void strbuf_puts(StrBuf *b, const char *s);
void strbuf_printf(StrBuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void strbuf_free(StrBuf *b);

/* Reads a whole file; returns NULL (errno set) on failure. */
char *read_file(const char *path, size_t *len);

/* ---- source.c: the input file ---------------------------------------- */

/* The file being compiled, with an index of line starts so that a byte
 * offset can be turned into a 1-based line and column. */
typedef struct Source {
  const char *path;
  char *text;
  size_t len;
  size_t *line_start; /* byte offset where each line begins */
  size_t nlines;
} Source;

Source *source_open(const char *path);
/* The same for text already in memory (NUL-terminated at text[len]); the
 * Source takes ownership of `text` (the fuzz harnesses use this). */
Source *source_from_text(const char *path, char *text, size_t len);
void source_delete(Source *src);
/* The text of line `line` (1-based) without its newline; sets *n. */
const char *source_line(const Source *src, size_t line, size_t *n);

/* ---- diag.c: diagnostics --------------------------------------------- */

typedef struct SrcLoc {
  uint32_t line, col; /* 1-based; col counts bytes */
} SrcLoc;

/* Prints `file:line:col: error: message`, the source line and a caret. */
void error_at(const Source *src, SrcLoc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same without a location: `falconc: error: message`. */
void error_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Number of errors reported so far. */
int error_count(void);
/* Forgets the errors counted so far (a harness compiling many inputs). */
void error_reset(void);

/* ---- ast.c: falconc's own tree --------------------------------------- */

/* Node kinds the compiler reads.  Everything else is K_OTHER and is
 * treated as plain C text.  The table in ast.c maps tree-sitter's node
 * type names to these. */
typedef enum NodeKind {
  K_OTHER,
  K_ERROR,
  K_TRANSLATION_UNIT,
  K_FUNCTION_DEFINITION,
  K_FUNCTION_DECLARATOR,
  K_IDENTIFIER,
  K_RETURN_STATEMENT,
  K_COMPOUND_STATEMENT,
  K_DECLARATION,
  K_PARAMETER_DECLARATION,
  K_INIT_DECLARATOR,
  K_POINTER_DECLARATOR,
  K_FIELD_EXPRESSION,
  K_ASSIGNMENT_EXPRESSION,
  K_UPDATE_EXPRESSION,
  K_ARRAY_DECLARATOR,
  K_CALL_EXPRESSION,
  K_SUBSCRIPT_EXPRESSION,
  K_PARENTHESIZED_EXPRESSION,
  K_POINTER_EXPRESSION,
  K_ARGUMENT_LIST,
  K_TYPE_ARGUMENT,
  K_EXPRESSION_STATEMENT,
  K_IF_STATEMENT,
  K_BREAK_STATEMENT,
  K_CONTINUE_STATEMENT,
  K_LOOP_STATEMENT, /* for, while, do: they capture break and continue */
  K_SWITCH_STATEMENT,
  K_STRUCT_SPECIFIER,
  K_FIELD_DECLARATION,
  K_FIELD_DECLARATION_LIST,
  K_PREPROC_DEF,
  K_COMMENT,
  /* Falcon (§2-§4) */
  K_PLACEMENT,
  K_PLACED_DECLARATOR,
  K_GETTYPE_DECLARATION,
  K_FALCON_TYPE,
  K_ELEMENT_DECLARATOR,
  K_GRAPH_TYPE,
  K_POINT_TYPE,
  K_EDGE_TYPE,
  K_SET_TYPE,
  K_COLLECTION_TYPE,
  K_BOUND_STRUCT_TYPE, /* struct T (g) (§3.6) */
  K_STRUCT_REC_SPECIFIER,
  K_FOREACH_STATEMENT,
  K_FOREACH_OFFSET,
  K_SINGLE_STATEMENT,
  K_PARALLEL_SECTIONS_STATEMENT,
  K_SECTION,
  K_REDUCTION_EXPRESSION,
  K_NKINDS
} NodeKind;

/* Field names the compiler reads children by (never by position). */
typedef enum FieldId {
  F_NONE,
  F_ALTERNATIVE,
  F_ARGUMENT,
  F_ARGUMENTS,
  F_BODY,
  F_CONSEQUENCE,
  F_FIELD,
  F_FUNCTION,
  F_INDEX,
  F_CONDITION,
  F_DECLARATOR,
  F_DEVICE,
  F_ELEMENT,
  F_GRAPH,
  F_ITERABLE,
  F_KIND,
  F_LEFT,
  F_NAME,
  F_OFFSET,
  F_OPERATOR,
  F_PARAMETERS,
  F_PLACEMENT,
  F_RIGHT,
  F_SECTION,
  F_SOURCE,
  F_TARGET,
  F_TYPE,
  F_VALUE,
  F_VARIABLE,
  F_OTHER
} FieldId;

typedef struct Node Node;
struct Node {
  NodeKind kind;
  FieldId field;       /* the field this node fills in its parent */
  const char *type;    /* tree-sitter's type name, for messages */
  bool named;          /* false for punctuation and keywords */
  bool missing;        /* inserted by error recovery */
  bool has_error;      /* this node or a descendant is ERROR/MISSING */
  bool interesting;    /* lowering must look inside (lower.c) */
  bool read_first;     /* a MIN/MAX whose GPU form loads first (plan.c
                        * plan_read_first) */
  bool remote;         /* a MIN/MAX on a point property in a foreach over
                        * a partitioned graph's points: its GPU form may
                        * write another part's point (plan.c plan_remote) */
  uint32_t start, end; /* byte range in the source */
  SrcLoc loc;          /* where it starts */
  Node *parent;
  Node *child;         /* first child */
  Node *next;          /* next sibling */
};

/* The first child filling `field`, or NULL. */
Node *node_field(const Node *n, FieldId field);
/* Pre-order successor of `n` within `root`; with enter == false the
 * children of `n` are skipped.  NULL at the end of the walk. */
Node *node_next(const Node *n, const Node *root, bool enter);
/* The source text of a node (not NUL-terminated); sets *len. */
const char *node_text(const Source *src, const Node *n, size_t *len);
/* True when the node's text equals `s`. */
bool node_text_is(const Source *src, const Node *n, const char *s);
void node_delete(Node *n);
bool node_kind_is_falcon(NodeKind k);
/* True if the subtree holds a Falcon node (a node for which
 * node_kind_is_falcon holds). */
bool node_has_falcon(const Node *n);
/* The number of named children filling no field (argument lists). */
int node_named_count(const Node *n);
/* The i-th named child (0-based), or NULL. */
Node *node_named_child(const Node *n, int i);
/* (x) -> x, however deep; n itself when it is not parenthesised. */
const Node *node_unparen(const Node *n);
/* The source text of a node as a new string. */
char *node_strdup(const Source *src, const Node *n);

/* ---- parse.c: tree-sitter front end ---------------------------------- */

/* Parses the source and converts tree-sitter's tree into ours.  Returns
 * NULL only if tree-sitter itself fails (out of memory, ABI mismatch). */
Node *parse_source(const Source *src);

/* ---- syntax.c: reporting syntax errors ------------------------------- */

/* Reports every ERROR and MISSING node; returns how many were reported. */
int report_syntax_errors(const Source *src, const Node *root);

/* ---- sema.c: program-wide facts ---------------------------------------- */

typedef enum Target { TARGET_AUTO, TARGET_GPU, TARGET_CPU } Target;

/* --gpu-loops=MODE (docs/optimiser.md "Convergence loops on the GPU"):
 * auto (the default) starts a planned loop on the host and moves it into
 * its cooperative kernel once its rounds are short; host never moves it;
 * device runs it whole in the kernel. */
typedef enum GpuLoops { GPU_LOOPS_AUTO, GPU_LOOPS_HOST, GPU_LOOPS_DEVICE } GpuLoops;

typedef struct Options {
  Target target;
  bool line_directives; /* emit #line (off with --no-line) */
  bool explain;         /* --explain: print the loop plans (plan.c) */
  GpuLoops gpu_loops;   /* --gpu-loops: how planned GPU loops run
                         * (docs/optimiser.md) */
  bool mpi;             /* --mpi: a partitioned program runs under MPI
                         * (docs/lowering.md "Partitioned graphs under MPI") */
} Options;

/* What a Falcon-typed expression denotes. */
typedef enum FalKind {
  FK_NONE,    /* plain C */
  FK_GRAPH,   /* a graph variable (lowered to a pointer to its struct) */
  FK_POINT,   /* a point id of `graph` */
  FK_EDGE,    /* an edge id of `graph` */
  FK_PROPVAL, /* a struct-typed property element: t.minppty */
  FK_ITER,    /* g.points / g.edges (only as a foreach or reduction domain) */
  FK_CVAR,    /* a plain C variable (tracked on the CUDA target) */
  FK_GPUVAR,  /* a file-scope scalar placed on the GPU: int <GPU> x */
  FK_COLL,    /* a Collection (§3.5): a fal_coll pointer */
  FK_SET,     /* a Set (§3.4): a fal_set pointer */
  FK_ELEM     /* an element of a graph view (§3.6): its index */
} FalKind;

/* PK_VIEW: addProperty(name, struct T), an element kind of its own (§3.6). */
typedef enum PropKind { PK_POINT, PK_EDGE, PK_GRAPH, PK_VIEW } PropKind;

/* A property from addPointProperty / addEdgeProperty / addProperty (§3.1).
 * Properties live in one registry for the whole program: a name has one
 * type and kind wherever it is added (docs/language-choices.md). */
typedef struct Prop {
  char *name;
  char *ctype;       /* lowered element type, e.g. "int", "struct node" */
  char *struct_name; /* for struct types: "node" */
  PropKind kind;
  SrcLoc loc;
} Prop;

typedef struct FieldInfo {
  char *struct_name, *field;
  FalKind kind; /* FK_POINT or FK_EDGE for Point/Edge fields */
} FieldInfo;

typedef struct FuncInfo {
  char *name;
  const Node *def;
  bool element;      /* reachable from a parallel foreach: runs per element */
  char *graph_param; /* the single Graph parameter, or NULL */
  /* Filled by lowering: the function (or one it calls) uses the hidden
   * per-point / per-edge locks of `single` (§4.3). */
  bool single_points, single_edges;
  bool sorts;        /* calls g.sortEdges in device code (§3.1) */
  bool merge;        /* registered with updateFunction (§7): its two Point
                      * parameters belong to two copies of a partition */
  int warp;          /* CUDA target: a warp body (lower_warp.c)? 0 not yet
                      * known, 1 yes, 2 no */
} FuncInfo;

typedef struct Program {
  Prop *props;
  int nprops;
  FieldInfo *fields;
  int nfields;
  FuncInfo *funcs;
  int nfuncs;
  bool falcon;          /* the file uses any Falcon construct */
  bool uses_gpu;        /* a <GPU> placement exists */
  bool uses_in_edges;   /* innbrs, nbrs, getInDegree */
  bool uses_sources;    /* e.src over edges */
  bool user_atomics;    /* the file defines its own MIN/MAX/... */
  bool mutates;         /* addPoint/addEdge/delpoint/deledge/del (§6) */
  bool par_mutates;     /* ... inside a foreach or a function one calls:
                         * on the CUDA target, possibly in a kernel */
  const Node *struct_at; /* top-level item before which fal_G is defined */
  char **parted;        /* graphs that makePartition is called on (§7) */
  int nparted;
} Program;

/* Collects properties, struct fields, functions and the call graph;
 * reports misuse.  Returns false if an error was reported. */
bool sema_program(const Source *src, const Node *root, Program *prog);
void program_free(Program *prog);
const Prop *program_prop(const Program *prog, const char *name);
FuncInfo *program_func(const Program *prog, const char *name);
FalKind program_field_kind(const Program *prog, const char *struct_name,
                           const char *field);
bool program_parted(const Program *prog, const char *graph);
/* The property name argument of g.addPointProperty(name, T) or (T, name)
 * (§3.1) and, in *type, the type argument; NULL when malformed. */
const Node *prop_args(const Node *args, const Node **type);
/* MIN, MAX, ADD, ... : the atomic library calls of §4.2. */
bool is_atomic_name(const char *name);
/* FK_GRAPH, FK_POINT, FK_EDGE, FK_SET or FK_COLL for a falcon_type node,
 * FK_ELEM for a struct bound to a graph (`struct T (g)`, §3.6: an element
 * of a view or a struct value, lower_view.c tells which); FK_NONE
 * otherwise (plain C types). */
FalKind falcon_type_kind(const Node *type);
/* The identifier a declarator declares, through pointer, array, function
 * and placement declarators; NULL if there is none. */
const Node *declarator_name(const Node *d);
/* The parameter list of a function definition, or NULL. */
const Node *function_params(const Node *def);

/* ---- lower.c: Falcon -> C with OpenMP -------------------------------------- */

/* Lowers the program into `out` (the whole output file).  Returns false
 * if an error was reported. */
bool lower_program(const Source *src, const Node *root, Program *prog,
                   const Options *opt, StrBuf *out);

/* ---- emit.c: output ---------------------------------------------------------- */

/* Writes `text` to `out`; false on a write error. */
bool emit_output(FILE *out, const StrBuf *text);
/* Appends `#line LINE "path"` (path escaped) and a newline. */
/* text as the inside of a C string literal (" and \\ escaped). */
void emit_string_body(StrBuf *b, const char *text);
void emit_line_directive(StrBuf *b, unsigned line, const char *path);
/* 1-based line of a byte offset. */
unsigned source_line_of(const Source *src, size_t offset);

#endif /* FALCONC_H */
