/* pass_fuse.c: takes the schedule, gives fused groups: consecutive PARALLEL loop nests of one
 * block run with K outermost (level by level) when every field two of them share, and one of
 * them writes, is 3D and touched only at K offset 0 by both (so only same-level values flow). */
#include "opt.h"

static bool level_local(Acc *a) { return a->kconst && !a->ij_only && !a->lo[2] && !a->hi[2]; }

void fpo_pass_fuse(Sched *s) {
    /* v runs level by level after the group's nests unless a field one writes and another
     * touches is touched other than at the level by either */
    NestRun run = fpo_run_new(s, level_local);
    for (int k = 0; k < s->nblocks; k++) {
        Block *b = &s->blocks[k];
        FGroup *g = NULL;
        int ng = 0;
        for (int i = 0; i < b->nu; i++) {
            Unit *v = &b->u[i];
            FGroup *last = ng ? &g[ng - 1] : NULL;
            if (last && last->fused && v->par && !fpo_run_conflicts(&run, v)) {
                v->loop = last->count++;   /* its own I-J loop until pass_merge */
                fpo_run_add(&run, v);
                continue;
            }
            FGroup n = {.first = i, .count = 1, .fused = v->par};
            VPUSH(g, ng, n);
            fpo_run_clear(&run);
            fpo_run_add(&run, v);
        }
        b->g = g;
        b->ng = ng;
    }
}
