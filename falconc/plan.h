/*
 * plan.h: the loop planner (plan.c) and what it hands to the emitter
 * (lower_plan.c).  docs/optimiser.md describes the stage: what it reads,
 * what it decides, the shapes printed.
 */
#ifndef FALCONC_PLAN_H
#define FALCONC_PLAN_H

#include "lower.h"

typedef enum PlanKind {
  PLAN_HOST,   /* lowered statement by statement (today's lowering) */
  PLAN_DEVICE, /* CUDA: one cooperative kernel runs the whole loop */
  PLAN_REGION  /* CPU: one OpenMP parallel region runs the whole loop */
} PlanKind;

typedef enum StepKind {
  STEP_COND,   /* the loop condition, read at the top of every round */
  STEP_PHASE,  /* a parallel foreach over g.points / g.edges */
  STEP_SCALAR  /* scalar bookkeeping: more = 0, rounds++, if (!x) break; */
} StepKind;

/* One object a step touches: a property (by name), a GPU scalar, or a
 * shared host variable (CPU target).  `own`: every access went through
 * the phase's own element. */
typedef struct Access {
  char *name;
  bool read, write, own;
  const char *graph; /* own: the graph of the phase (pending sets, plan.c) */
  bool wown;         /* every write went through the element */
  bool wnear;        /* ... through the element or an out-neighbour of it */
  bool deep;         /* some access is inside a function the step calls */
  bool lead;         /* (pending accesses, CUDA) only leader steps made it */
  bool copy;         /* a parts plan's step that every thread runs reads
                      * graph property G.P[0] from its copy of the last
                      * exchange's values (LoopPlan.gp_copy): no memory
                      * access, so no conflict */
} Access;

typedef struct Step {
  StepKind kind;
  const Node *stmt;    /* the statement (STEP_COND: the condition) */
  const char *graph;   /* STEP_PHASE: the graph iterated */
  bool edges;          /* STEP_PHASE over g.edges */
  const char *coll;    /* STEP_PHASE (CUDA) over the elements of this
                        * Collection (plan.c plan_coll_phase), or NULL */
  bool heavy;          /* STEP_PHASE: has a neighbour loop (CPU: dynamic,
                        * or edge-balanced when it has no filter) */
  bool nbr_out;        /* STEP_PHASE: a neighbour loop walks out-edges */
  bool opaque;         /* STEP_SCALAR (CPU): calls a C function: conflicts
                        * with everything */
  bool writes;         /* STEP_SCALAR: writes a shared object */
  bool writes_host;    /* CUDA: writes the threads' copy of a host variable */
  bool leader;         /* STEP_SCALAR: run by one thread */
  bool brk;            /* STEP_SCALAR: holds a break (the only jump a
                        * step may hold) */
  bool redux;          /* STEP_SCALAR (CPU): a reduction (§4.4), every
                        * thread its share of the elements */
  bool sync_before;    /* a barrier before this step */
  bool fuse_prev;      /* STEP_PHASE: one loop with the previous phase */
  bool part_own;       /* STEP_PHASE of a parts plan: writes only its own
                        * points (no merge: ghosts are refreshed) */
  /* Frontiers (CPU, LoopPlan.frontier): the flag list the phase visits
   * (filter: index into LoopPlan.flags, or -1), a shuffle phase (visits
   * the union of the lists of shuffle_mask), and the flags it writes
   * through its element (wown_mask) or its out-neighbours (wnbr_mask). */
  int filter;
  bool shuffle;
  unsigned shuffle_mask, wown_mask, wnbr_mask;
  /* A shuffle's statements in order: flags[shx[k]] = shy[k] < 0 ? 0 :
   * flags[shy[k]] (nshuf -1: more than fit). */
  int nshuf;
  signed char shx[16], shy[16];
  Access *acc;
  int nacc;
  /* CUDA: the host variables the step names (at its own level), each
   * with hmode bit 1 read, bit 2 written (plan.c leader_steps). */
  char **hvar;
  unsigned char *hmode;
  int nhvar;
} Step;

typedef struct LoopPlan {
  PlanKind kind;
  const Node *loop;
  char why[256];       /* PLAN_HOST: why the loop stays on the host */
  Step *steps;         /* steps[0] is the condition */
  int nsteps;
  const char *graph;   /* PLAN_DEVICE: the graph whose GPU runs the loop */
  char **written;      /* PLAN_DEVICE: host variables the loop writes */
  int nwritten;
  bool frontier;       /* PLAN_REGION: phases visit flag lists, not all points */
  char fwhy[256];      /* PLAN_REGION without frontier: why */
  char *flags[32];     /* frontier: the tracked flag properties */
  int nflags;
  /* PLAN_REGION, a topology-driven loop (plan.c topo_rule): its one phase
   * visits only the points whose `topo` property changed in the round
   * before (all of them in the first round). */
  char *topo;
  bool topo_max;       /* topo's phase raises P by MAX (else lowers by MIN) */
  char twhy[256];      /* why not, when the loop has one unfiltered phase */
  /* PLAN_REGION, a level-synchronous loop (plan.c level_rule): its one
   * phase, filtered by (t.level == lev), visits the points set to lev + 1
   * in the round before; level: the property, lev: the host variable. */
  char *level, *lev;
  char lwhy[256];      /* why not, when the filter is (t.P == v) */
  /* PLAN_REGION, level-synchronous, and the phase is exactly a push of
   * v + 1 into out-neighbours (plan.c pull_rule): a round may run in pull
   * form, each unset point looking for a parent among its in-neighbours.
   * pull_k: the neighbour filter's value (n.P == K), or NULL for none;
   * pull_flag: MIN's flag, or NULL. */
  bool pull;
  char *pull_k, *pull_flag;
  bool pull_flag_gp; /* pull_flag names a graph property of sgraph: G.F[0] */
  bool pull_flag_dev; /* pull_flag names a GPU scalar (`int <GPU> F`) */
  char pwhy[256];      /* why not, when the loop is level-synchronous */
  /* PLAN_DEVICE: the flag the kernel keeps in three slots (plan.c
   * rot_rule), or NULL. */
  char *rot;
  /* PLAN_DEVICE: the loop uses Collections (docs/optimiser.md "Collection
   * rounds on the device"): launched only while each is a plain one on
   * the loop's GPU (falcon/cuda.cuh fal_gc_loop_ok), its stores
   * re-read by the host after the kernel. */
  bool colls;
  const char *cgraph;  /* the graph of those Collections' points */
  /* PLAN_DEVICE over a partitioned graph (docs/optimiser.md "Partitioned
   * loops on the devices"): a kernel per part, the border exchange after
   * each phase inside them.  pgraph: the partitioned graph its phases
   * visit (set before the walk, so that steps may name its graph
   * properties); parts: the plan is that one. */
  const char *pgraph;
  bool parts;
  /* --target=cpu without --mpi: the partitioned graph the phases visit,
   * whose parts share the host graph's arrays (docs/lowering.md
   * "Partitioned graphs (§7)", no GPU part), so the loop plans as over
   * an unpartitioned graph; its steps may name its graph properties
   * (`G.P[0]`, shared objects) and call G.updatePartition() (nothing to
   * do).  NULL otherwise. */
  const char *sgraph;
  /* parts: the steps that every thread runs read the graph properties
   * from each thread's copy of the values the last exchange combined
   * (plan.c gp_copy_rule), so a leader step's write of one after them
   * needs no barrier at the top of the round. */
  bool gp_copy;
  /* gp_copy, and no barrier among the steps between two phases: those
   * steps run between the exchange's two barriers, so that no grid
   * barrier starts a phase (lower_plan.c parts_early_body). */
  bool gp_early;
  /* parts with topo (plan.c parts_own_rule): each part's kernel may run
   * its own rounds, its MINs on other parts' points going to their owners
   * (lower_plan.c parts_own_body), and the loop ends when no part has
   * work; own_flag is the graph property F whose F[0] == 0 ends it; owhy:
   * why not. */
  bool own_rounds;
  char *own_flag;
  char owhy[256];
  /* --mpi --target=cpu, topo (plan.c rank_window_rule): a fixpoint loop,
   * so each round a host rank's heap stops at a window that the ranks
   * share (lower_loop.c render_local_fixpoint); wwhy: why not. */
  bool rank_window;
  char wwhy[256];
  /* ... and where P is of an integer type (a heap key is never NaN),
   * after the first round a rank's heap alone visits the points that
   * changed, without the sweep: wflag is then the graph property F whose
   * F[0] the rank sets while its heap keeps points for later rounds
   * (NULL: a sweep every round) */
  char *wflag;
  /* parts, not topo (plan.c parts_sync_rule): a level-synchronous loop
   * (its phase may read a round counter and neighbours' P) whose MINs on
   * P go to the owners and to every ghost of the point, so that a round
   * takes one barrier between the parts and no exchange (lower_plan.c
   * parts_rs_body); sync_P is P, sync_flag the F whose F[0] == 0 ends the
   * loop; swhy: why not. */
  char *sync_P;
  char *sync_flag;
  bool sync_max;  /* its MINs are MAXs */
  char swhy[256];
  /* --mpi --target=gpu, own_rounds or sync_P: the ranks of one machine may
   * run the loop as the single process's kernels, one a rank, reaching
   * each other's GPU memory over CUDA IPC (lower_plan.c emit_mpi_loop;
   * docs/lowering.md "Ranks on one machine run the single process's
   * kernels"); the host's rounds stay the fallback. */
  bool mpx;
} LoopPlan;

/* Plans a `while` statement of host code.  Always fills `p` (PLAN_HOST
 * with a reason when the loop cannot be planned); returns p->kind. */
PlanKind plan_loop(Ctx *c, const Node *loop, LoopPlan *p);
/* falconc --explain: prints the plan on standard error. */
void plan_explain(const Ctx *c, const LoopPlan *p);
void plan_free(LoopPlan *p);
const char *plan_kind_name(PlanKind k);

/* CUDA target, before lowering: marks the MIN/MAX calls that load their
 * target first (Node.read_first; docs/optimiser.md "MIN and MAX that read
 * first"); --explain prints each point loop's choice. */
void plan_read_first(Ctx *c, const Node *root);
/* CUDA, not --mpi: marks the MIN/MAX calls on a point property in the
 * foreach loops over a partitioned graph's points (and in the element
 * functions they call) as Node.remote, whose GPU form sends a point
 * another part owns to its owner while a topology-driven loop's kernels
 * run (docs/optimiser.md "Cut edges that write their owner"). */
void plan_remote(Ctx *c, const Node *root);

/* lower_plan.c: prints a planned loop (PLAN_DEVICE or PLAN_REGION). */
void emit_planned_loop(Ctx *c, const LoopPlan *p);
void emit_mpi_loop(Ctx *c, const LoopPlan *p);

#endif /* FALCONC_PLAN_H */
