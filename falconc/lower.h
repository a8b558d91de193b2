/*
 * lower.h: what the lowering files share (internal to falconc).
 *
 *   lower.c        the walk (render), symbols, expression types, functions
 *                  and statements, the program and its generated graph type
 *   lower_decl.c   declarations: graphs, points, edges, placement (§2, §3)
 *   lower_expr.c   member access, calls and atomics, host access to GPU
 *                  data (§2, §3, §4.2)
 *   lower_loop.c   foreach and kernels, single, reductions, parallel
 *                  sections, partitioned loops (§4, §7)
 */
#ifndef FALCONC_LOWER_H
#define FALCONC_LOWER_H

#include "falconc.h"

typedef struct Sym {
  char *name;
  FalKind kind;
  char *graph;    /* the graph variable a point/edge belongs to */
  char *edge_var; /* the current edge when bound by a neighbour loop */
  char *from;     /* that loop's point, as written (p in p.outnbrs) */
  bool in_edge;   /* the loop walks in-edges: the edge is var -> from */
  /* CUDA target: */
  bool gpu;       /* a graph placed on a GPU */
  char *ctype;    /* FK_CVAR: the C type to pass it to a kernel, or NULL */
  bool global;    /* declared at file scope */
  /* FK_COLL / FK_SET: the element type (ctype) and kind, and whether it is
   * a per-element local collection; FK_ELEM: ctype is the view's name */
  FalKind elem;
  bool local;
  bool ptr;       /* FK_COLL: `Collection *p[...]`, a pointer to one (§3.5) */
  /* FK_COLL of view elements (`Collection c[struct T (g)]`, §3.6): the
   * view's name (elem is FK_ELEM); of graph-bound struct values: the
   * struct's name (elem is FK_PROPVAL).  FK_PROPVAL symbols (a struct
   * value bound to a graph) keep the struct's name in ctype. */
  char *view;
} Sym;

/* A host variable a kernel reads: passed by value (graphs and Sets as
 * their structs, Collections as a pointer to their device copy); a host
 * scalar a kernel reduces into (§4.4): a pointer to a device copy. */
typedef enum CapKind { CAP_VALUE, CAP_GRAPH, CAP_COLL, CAP_SET, CAP_REDUX } CapKind;
typedef struct Capture {
  char *name;
  char *ctype;
  CapKind what;
} Capture;

/* A host variable that every statement naming it in a parallel foreach
 * reduces with one operator (§4.4): the loop's threads reduce into their
 * own copies and combine them once (lower_loop.c redux_locals). */
typedef struct RLocal {
  char *name;
  const char *op;    /* add (+ and -), mul, or, and, xor */
  char *ctype;
} RLocal;

typedef struct Redux {
  const char *graph;
  bool edges;
  const char *index; /* the loop variable of the reduction */
} Redux;

/* single on a Collection (§4.3) inside the parallel loop being rendered:
 * the loop element's id, the label that ends its body, whether a single
 * used it, and the host statements that start a round of its owners. */
typedef struct CollSingle {
  const char *tid;
  int label;
  bool used;
  StrBuf begins;
} CollSingle;

/* Warp-per-point loops (lower_warp.c): the sums of each neighbour loop
 * and the statements lane 0 alone runs, in the body being rendered. */
#define W_MAXSUMS 16
#define W_MAXLANE0 256
typedef struct WarpSum {
  const Node *loop;
  const Node *var;
} WarpSum;
typedef struct WarpInfo {
  WarpSum sums[W_MAXSUMS];
  int nsums;
  const Node *lane0[W_MAXLANE0];
  int nlane0;
} WarpInfo;

typedef struct Ctx {
  const Source *src;
  Program *prog;
  const Options *opt;
  StrBuf *out;
  Sym *syms;
  int nsyms, cap;
  FuncInfo *fn;
  bool element;           /* this code runs per element of a parallel loop */
  bool hd;                /* ... in a __host__ __device__ function (CUDA target):
                           * its GPU scalars go through FAL_HD_* (cuda.cuh) */
  bool break_is_continue; /* directly inside a parallel foreach body */
  int foreach_depth;
  bool single_points, single_edges; /* a single (p) / single (e) was lowered */
  bool sorts;             /* device code sorted a graph's edges (sortEdges) */
  bool need_sort, need_copy; /* emit fal_G_sort_edges / fal_G_copy */
  bool need_drop;            /* emit fal_G_drop: a graph local to a function
                              * other than main (CPU target) */
  bool csr_release_done;     /* fal_G_csr_release emitted */
  Redux *redux;
  RLocal *rl;        /* the parallel foreach being rendered: its host */
  int nrl;           /* reductions into per-thread copies */
  int uniq;
  char **strings; /* strings owned by the context, freed at the end */
  int nstrings;
  bool mpi;          /* --mpi and the program partitions a graph (§7) */
  uint64_t mpi_gmask; /* lower_loop.c mpi_ghost_mask, once mpi_gmask_done */
  bool mpi_gmask_done;
  bool hubs;         /* a hub kernel was written (FAL_HUB_KERNELS, cuda.cuh) */
  /* CUDA target: */
  bool gpu;          /* lowering for CUDA */
  bool in_kernel;    /* rendering a kernel body or a device function */
  int kernel_mark;   /* symbols below this are the host's */
  Capture *caps;
  int ncaps;
  StrBuf kernels;    /* kernels for the top-level item being rendered */
  bool lvalue;       /* rendering the left side of an assignment */
  CollSingle *cs;    /* the parallel loop a single on a Collection is in */
  bool loop_kernel;  /* rendering a loop the planner put on the GPU: the
                      * kernel's host variables are its threads' copies */
  bool loop_step;    /* ... one of its scalar steps (host code the kernel
                      * runs: Collections' sizes and assignments allowed) */
  const char *rot_var;  /* rendering a loop kernel whose flag rotates over
                         * three slots (lower_plan.c rot_flag): this GPU
                         * scalar ... */
  const char *rot_expr; /* ... is printed as this slot */
  const char *gp_copy;  /* rendering a step of a parts loop kernel that
                         * every thread runs, with LoopPlan.gp_copy: this
                         * graph's G.P[0] reads are the thread's fal_gv.P */
  /* A parts plan's topology-driven phase (plan.c parts_topo_rule) while
   * lower_plan.c emit_auto_loop prints that loop: the foreach topo_n's GPU
   * kernels skip the points whose topo_P (C type topo_T) equals their
   * value in the part's last-seen array (fal_seen topo_sn), valid once
   * the int topo_tv is set; NULL arrays when topo_ok is 0. */
  const Node *topo_n;
  const char *topo_P, *topo_T, *topo_sn, *topo_tv, *topo_ok;
  /* --mpi, host ranks: the phase's fal_lfix (falcon/frontier.h), with
   * which a rank runs it to its own fixpoint after the sweep, P's lowest
   * first (the highest with topo_max); NULL otherwise */
  const char *topo_lf;
  bool topo_max;
  /* ... and it stops each round at the window the ranks share (plan.c
   * rank_window_rule) */
  bool topo_win;
  /* ... and (plan.c rank_window_rule, p->wflag) after the first round the heap alone
   * visits what changed, the rank setting topo_wflag[0] while its heap
   * keeps points for later rounds; NULL otherwise */
  const char *topo_wflag;
  /* --mpi, GPU ranks: the phase's fal_rep (cuda.cuh), whose word its
   * kernel sets on a visit, so the rank repeats it to its fixpoint
   * (lower_loop.c render_partitioned_foreach); NULL otherwise */
  const char *topo_rep;
  /* --mpi, host ranks (render_partitioned_foreach): code that starts each
   * iteration of a ranged foreach (the skip); NULL otherwise */
  const char *rskip;
  /* CUDA, a parts plan with topo (not --mpi): the loop's fal_rmh
   * (falcon/cuda.cuh), whose contexts let the phase's MINs on other parts'
   * points go to their owners (plan.c plan_remote); px_own: printing the
   * loop's kernel whose parts run their own rounds (LoopPlan.own_rounds) */
  const char *topo_rm;
  bool px_own;
  /* a parts plan with sync_P: its loop, while lower_plan.c prints it
   * (the kernel with one barrier a round, whose MINs go to the owners and
   * to the other part's copy through topo_rm's contexts, made with
   * pushes; the host's rounds keep the exchange), and px_rs: printing
   * that kernel (lower_plan.c parts_rs_body) */
  const Node *rs_n;
  bool px_rs;
  /* a parts plan with pull (plan.c pull_rule on a level-synchronous loop
   * over GPU parts), while emit_auto_loop prints its host's rounds: the
   * phase pull_n, which render_partitioned_foreach launches in pull form
   * when the loop's fal_pdir pull_d says so (lower_loop.c pull_launch):
   * the level pull_P (C type pull_T), the round's value pull_v, the
   * neighbour filter's value pull_K and the flag's device address
   * pull_Fp ("(int *)NULL": none); pull_g: the graph when it is not
   * partitioned (one GPU), else NULL */
  const Node *pull_n;
  const char *pull_d, *pull_P, *pull_T, *pull_v, *pull_K, *pull_Fp, *pull_g;
  /* printing the warp form of a px_own or px_rs kernel (lower_plan.c
   * pw_rule; docs/optimiser.md "Parts kernels with a warp per point") */
  bool px_warp;
  const char *rm_P;  /* topo_rm's property (topo_P, or LoopPlan.sync_P) */
  bool rm_push;      /* topo_rm's contexts push to the ghosts (sync_P) */
  /* --mpi --target=gpu, a loop with LoopPlan.mpx: its fal_mpx (falcon/
   * mpi.cuh) while lower_plan.c prints the kernel that the ranks run, one
   * a rank (emit_mpi_loop); NULL otherwise */
  const char *mpx;
  /* ... and while its host rounds are printed: the fal_mpx (mpx_h) whose
   * host context the loop's phase (mpx_n) takes (lower_loop.c
   * render_partitioned_foreach): its MINs go to the owners, no exchange */
  const char *mpx_h;
  const Node *mpx_n;
  const char *mpx_P; /* its property, and whether its MINs are MAXs */
  bool mpx_max;
  bool ra_hold;      /* such a loop was printed: the output defines
                      * FAL_RA_HOLD (falcon/cuda.cuh fal_ra_mm) */
  bool region;       /* rendering a step of a planned CPU region: its
                      * threads are running (a reduction is their share) */
  WarpInfo *warp;    /* rendering a warp body (lower_warp.c), or NULL */
  bool loop_warp;    /* rendering a loop kernel of 32 x FAL_BLOCK/32 blocks
                      * (lower_plan.c loop_warp_form) */
  int warp_nbr;      /* inside that many neighbour loops of it */
  const Node *warp_cond; /* a condition to take from lane 0 */
} Ctx;

typedef struct EType {
  FalKind kind;
  const char *graph;
  const char *struct_name; /* FK_PROPVAL */
  const char *edge_var;    /* FK_POINT bound by a neighbour loop */
  bool edges;              /* FK_ITER: g.edges (else g.points) */
  const char *view;        /* FK_ELEM, FK_ITER over a view: its name */
} EType;

/* The name of what a foreach that writes only its own points (own) or
 * may write others' leaves for the exchange after it (FAL_EX_*,
 * falcon/graph.h), as the generated calls (host and device) pass it. */
static inline const char *ex_name(bool own)
{
  return own ? "FAL_EX_OWN" : "FAL_EX_MERGE";
}

/* ---- lower.c ----------------------------------------------------------- */

void copy_range(Ctx *c, uint32_t from, uint32_t to);
char *ctx_own(Ctx *c, char *s);
char *ctx_printf(Ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
EType expr_type(Ctx *c, const Node *e);
const char *gname(Ctx *c, const char *graph);
bool graph_on_gpu(const Ctx *c, const char *name);
const Sym *ident_sym(Ctx *c, const Node *n);
bool in_main(const Ctx *c);
/* --mpi --target=gpu: GPU ranks merge on their GPUs (lower.c) */
bool mpi_merge_on_gpu(Ctx *c);
void note_use(Ctx *c, const Sym *s, const Node *at);
void pragma_line(Ctx *c, const char *pragma);
void put_linkage(Ctx *c, const Node *n, const FuncInfo *f, bool is_main);
void putf(Ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void render(Ctx *c, const Node *n);
void render_children_of(Ctx *c, const Node *n);
char *render_str(Ctx *c, const Node *n);
void resync(Ctx *c, uint32_t offset);
void line_mark(Ctx *c, uint32_t offset);
Sym *sym_add(Ctx *c, const char *name, FalKind kind, const char *graph, const char *edge_var);
const Sym *sym_find(const Ctx *c, const char *name, size_t len);
bool sym_shadowed(const Ctx *c, const Sym *s);
void sym_pop(Ctx *c, int mark);
void add_capture(Ctx *c, const Sym *s, const char *ctype, CapKind what);
char *text_of(Ctx *c, const Node *n);
void put(Ctx *c, const char *s);

/* ---- lower_warp.c ------------------------------------------------------ */

bool call_is_pure(Ctx *c, const Node *call);
bool warp_body_fn(Ctx *c, FuncInfo *f);
bool warp_fn_info(Ctx *c, FuncInfo *f, WarpInfo *out);
bool warp_body_check(Ctx *c, const Node *foreach, const char *var, WarpInfo *out,
                     const char **why);
bool calls_warp_body(Ctx *c, const Node *n);
/* A warp body whose hubs may be split among several blocks. */
bool warp_split_check(Ctx *c, const Node *foreach, const WarpInfo *wi);
/* Rendering as a warp body (wi; NULL: as a thread runs it) until
 * warp_end gives back what warp_begin replaced. */
typedef struct WarpScope {
  WarpInfo *warp;
  int nbr;
} WarpScope;
WarpScope warp_begin(Ctx *c, WarpInfo *wi);
void warp_end(Ctx *c, WarpScope saved);
/* --explain's line for a parallel foreach whose elements (`what`:
 * "point", "element") may take a warp each, or why not. */
void warp_explain(Ctx *c, const Node *n, bool warp, const char *why, const char *what);
bool warp_lane0(const Ctx *c, const Node *stmt);
int warp_sums(Ctx *c, const Node *loop, const char **names, int max);

/* ---- lower_decl.c ------------------------------------------------------ */

void render_declaration(Ctx *c, const Node *n);
void render_gettype(Ctx *c, const Node *n);
void render_parameter(Ctx *c, const Node *n);
void report_unsupported(Ctx *c, const Node *n, const char *what);
const char *gpu_device_of(Ctx *c, const Node *d);
const char *bound_graph_of(Ctx *c, const Node *graph_name);

/* ---- lower_coll.c ------------------------------------------------------ */

bool host_code(const Ctx *c);
bool is_one_of(const char *s, const char *const *list); /* s is in the NULL-ended list */
bool merge_on_device(Ctx *c, const FuncInfo *f);
bool access_written(const Node *m, const Node **use);
const Sym *coll_sym(Ctx *c, const Node *e);
void render_coll_declaration(Ctx *c, const Node *n, const Node *type, FalKind kind);
void render_coll_parameter(Ctx *c, const Node *n, const Node *type, FalKind kind);
bool render_coll_call(Ctx *c, const Node *n, const Node *obj, const char *m);
bool render_coll_field(Ctx *c, const Node *n);
bool render_coll_subscript(Ctx *c, const Node *n);
bool render_coll_assignment(Ctx *c, const Node *n);
bool render_coll_address(Ctx *c, const Node *n);
bool render_foreach_coll(Ctx *c, const Node *n);
void ready_sets(Ctx *c);
void render_single_coll(Ctx *c, const Node *n, const Sym *s);
void coll_single_enter(Ctx *c, CollSingle *cs, CollSingle **saved, bool parallel,
                       const char *tid);
void coll_single_wrap(Ctx *c, CollSingle *cs, const char *body);
void coll_single_leave(Ctx *c, CollSingle *cs, CollSingle *saved);
void coll_single_params(const Ctx *c, StrBuf *params, StrBuf *args);
void coll_single_phases(Ctx *c, const CollSingle *cs, const char *count, const char *device);

/* ---- lower_view.c ------------------------------------------------------ */

/* `struct T (g)` (§3.6): an element of `view` (an index) when the program
 * has a view of struct T elements, else (view NULL) a struct value. */
typedef struct Bound {
  const char *graph, *sname;
  const Prop *view;
} Bound;
bool bound_struct_of(Ctx *c, const Node *bst, Bound *b);
char *render_elem_value(Ctx *c, const Node *e, const char *view);
void render_bound_declaration(Ctx *c, const Node *n, const Node *type);
void render_bound_parameter(Ctx *c, const Node *n, const Node *type);
bool render_elem_assignment(Ctx *c, const Node *n);

const Prop *view_prop(const Ctx *c, const char *name);
const Prop *view_count_prop(const Ctx *c, const char *field);
bool render_view_assignment(Ctx *c, const Node *n);
void emit_view_functions(Ctx *c);

/* ---- lower_expr.c ------------------------------------------------------ */

const char *prop_kind_name(PropKind k);
void render_assignment(Ctx *c, const Node *n);
bool render_host_graph_copy(Ctx *c, const Node *n);
void render_call(Ctx *c, const Node *n);
void render_field(Ctx *c, const Node *n);
void render_identifier(Ctx *c, const Node *n);
void render_subscript(Ctx *c, const Node *n);
void render_update(Ctx *c, const Node *n);

/* ---- lower_loop.c ------------------------------------------------------ */

void render_expression_statement(Ctx *c, const Node *n);
void render_foreach(Ctx *c, const Node *n);
bool mpi_rows_ok(Ctx *c, const Node *at, const char *graph, const char **why);
void render_if(Ctx *c, const Node *n);
void render_parallel_sections(Ctx *c, const Node *n);
void render_single(Ctx *c, const Node *n);
typedef struct KernelState {
  bool in_kernel, element, hd, single_points, single_edges;
  int kernel_mark;
  Capture *caps;
  int ncaps;
} KernelState;
KernelState kernel_enter(Ctx *c);
void kernel_leave(Ctx *c, const KernelState *k);
const char *kernel_name(Ctx *c, const Node *n, const char *what);
const char *topo_skip_code(Ctx *c, const char *g, const char *P, const char *T, const char *lo);
const char *topo_seen_expr(Ctx *c, const char *part, const char *dev, const char *n);
const char *rm_ready_expr(Ctx *c, const char *g);
void kernel_signature(Ctx *c, StrBuf *params, StrBuf *views, StrBuf *args,
                      StrBuf *pre, StrBuf *post);
void render_foreach_body(Ctx *c, const Node *n, bool parallel);
bool part_foreach_local(Ctx *c, const Node *n, bool *wrote_nbr);
const char *cpu_pull_scan(Ctx *c, const char *g, const char *T, const char *P, const char *K,
                          const char *v, const char *lo, const char *hi, const char *off,
                          const char *src, const char *on_set);

#endif /* FALCONC_LOWER_H */
