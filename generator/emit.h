/* emit.h: the C emitters' shared layer below emit_c.c's program (emit_stmt.c): the state of
 * emission, and the C text of statements, regions and stencils in that state. emit_fused.c
 * and emit_cuda.c take the same layer through opt.h's fpo_c_* functions. */
#ifndef FPO_EMIT_H
#define FPO_EMIT_H

#include "opt.h"

typedef struct Emit {
    Ir *ir;
    Buf *b;
    Decl *st;      /* the stencil being emitted, NULL in run */
    int indent;
    unsigned known, edges;   /* the variant's class: tile edges known (EDGE_*), and which of
                              * those the rank touches; unknown edges are tested at run time */
    Sched *sched;            /* fused: blocks of stages come from emit_fused.c */
    unsigned where;          /* where in a split loop the points being emitted run (opt.h:
                              * FPO_DROP_*, FPO_ROW_*, FPO_ONE_AT_A_TIME) */
    FpoBlockFn *block;       /* run's blocks of stencil calls come from another back end
                              * (emit_cuda.c), NULL: from here or emit_fused.c */
    void *block_arg;
    const char *stream;      /* that back end's stream: fields are device memory, corner fills
                              * are queued there, host callbacks wait for it; NULL: the host */
    KReads *kreads;          /* a CUDA kernel's reads checked by --instrument bounds (opt.h) */
    Buf *fns;                /* file scope before run: the functions run calls for a fused
                              * group's I-J loops (emit_fused.c); NULL: every loop inline */
} Emit;

void fpo_c_ind(Emit *e);                    /* e's indentation */
void fpo_c_line(Emit *e, Loc loc);          /* a #line back to the .fpo source */
void fpo_c_emit(Emit *e, Node *n);          /* an expression */
bool fpo_c_held(Emit *e, Node *n);          /* whether region n holds anywhere in e's class */
void fpo_c_reach(Node *n, int64_t r[4]);    /* the regions' reach from the tile's edges, grown */
/* stencil s's C function (static void stencil_NAME), loops from its groups si */
void fpo_c_stencil(Emit *e, Decl *s, StencilInfo *si);

#endif
