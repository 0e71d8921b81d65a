/* pass_column.c: takes fused groups, gives column groups: a FORWARD / BACKWARD nest and the
 * nests after it run J row by J row (rows in parallel, K inside), so a column's values stay in
 * cache across K, when every field the run writes is touched only at I and J offset 0 by it
 * (columns are then independent). The unfused form sweeps every level of the domain instead. */
#include "opt.h"

/* Whether units [a, b) of a block may run column by column. */
static bool columns_independent(Block *bl, int a, int b) {
    for (int i = a; i < b; i++)
        for (int x = 0; x < bl->u[i].nacc; x++) {
            if (!bl->u[i].acc[x].write)
                continue;
            int slot = bl->u[i].acc[x].slot;
            for (int j = a; j < b; j++) {
                Acc *c = fpo_unit_acc(&bl->u[j], slot);
                if (c && (c->lo[0] || c->hi[0] || c->lo[1] || c->hi[1]))
                    return false;
            }
        }
    return true;
}

void fpo_pass_column(Sched *s) {
    for (int k = 0; k < s->nblocks; k++) {
        Block *bl = &s->blocks[k];
        FGroup *g = NULL;
        int ng = 0;
        for (int i = 0; i < bl->ng; i++) {
            FGroup G = bl->g[i];
            if (G.fused || bl->u[G.first].par || !columns_independent(bl, G.first, G.first + 1)) {
                VPUSH(g, ng, G);
                continue;
            }
            /* A sequential nest: take the groups after it while columns stay independent. */
            G.column = true;
            while (i + 1 < bl->ng &&
                   columns_independent(bl, G.first, bl->g[i + 1].first + bl->g[i + 1].count)) {
                G.count += bl->g[i + 1].count;
                i++;
            }
            VPUSH(g, ng, G);
        }
        bl->g = g;
        bl->ng = ng;
    }
}
