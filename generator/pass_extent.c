/* pass_extent.c: takes the schedule, gives whole-program extents of temporaries: a temporary is
 * `covered` when all its uses lie in one block, its first loop nest sets it with a plain
 * `x = e` over a box, and every later nest reads it only inside that box (so no value is
 * carried between blocks or runs, and it need not outlive the block). */
#include "opt.h"

static bool inside(DBound rlo, DBound rhi, DBound wlo, DBound whi) {
    return rlo.base == wlo.base && rhi.base == whi.base && rlo.off >= wlo.off &&
           rhi.off <= whi.off;
}

static bool covered(Sched *s, int slot) {
    Block *home = NULL;
    Unit *w = NULL;
    for (int b = 0; b < s->nblocks; b++)
        for (int k = 0; k < s->blocks[b].nu; k++) {
            Unit *u = &s->blocks[b].u[k];
            Acc *a = fpo_unit_acc(u, slot);
            if (!a)
                continue;
            if (home && home != &s->blocks[b])
                return false;
            home = &s->blocks[b];
            if (!a->kconst || a->ij_only)
                return false;
            if (!w) {
                /* The first nest writes it first, and reads only what it wrote. */
                if (!a->plain_first || !u->par)
                    return false;
                for (int d = 0; d < 3; d++)
                    if (a->lo[d] || a->hi[d])
                        return false;
                w = u;
                continue;
            }
            for (int d = 0; d < 3; d++)
                if (!inside((DBound){u->box.lo[d].base, u->box.lo[d].off + a->lo[d]},
                            (DBound){u->box.hi[d].base, u->box.hi[d].off + a->hi[d]},
                            w->box.lo[d], w->box.hi[d]))
                    return false;
        }
    return w != NULL;
}

void fpo_pass_extent(Sched *s) {
    for (int x = s->nfparams; x < s->nslots; x++)
        s->covered[x] = covered(s, x);
}
