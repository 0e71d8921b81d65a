/* pass_column.c: takes fused groups, gives column groups: a FORWARD / BACKWARD nest and the
 * nests after it run J row by J row (rows in parallel, K inside), so a column's values stay in
 * cache across K, when every field the run writes is touched only at I and J offset 0 by it
 * (columns are then independent). The unfused form sweeps every level of the domain instead. */
#include "opt.h"

static bool at_column(Acc *a) { return !a->lo[0] && !a->hi[0] && !a->lo[1] && !a->hi[1]; }

/* Add units [a, b) of a block to the run r (the units from the run's first on); whether they
 * may all run column by column: no slot one of them writes is touched off its own column by
 * another (only the slots they touch can have changed). */
static bool columns_independent(NestRun *r, Block *bl, int a, int b) {
    for (int i = a; i < b; i++)
        fpo_run_add(r, &bl->u[i]);
    for (int i = a; i < b; i++)
        for (int x = 0; x < bl->u[i].nacc; x++) {
            unsigned m = r->seen[bl->u[i].acc[x].slot];
            if ((m & NR_WRITTEN) && (m & NR_NOT_OK))
                return false;
        }
    return true;
}

void fpo_pass_column(Sched *s) {
    NestRun r = fpo_run_new(s, at_column);
    for (int k = 0; k < s->nblocks; k++) {
        Block *bl = &s->blocks[k];
        FGroup *g = NULL;
        int ng = 0;
        for (int i = 0; i < bl->ng; i++) {
            FGroup G = bl->g[i];
            fpo_run_clear(&r);
            if (G.fused || bl->u[G.first].par ||
                !columns_independent(&r, bl, G.first, G.first + 1)) {
                VPUSH(g, ng, G);
                continue;
            }
            /* A sequential nest: take the groups after it while columns stay independent. */
            G.column = true;
            int end = G.first + 1;   /* the run holds units [G.first, end) */
            while (i + 1 < bl->ng &&
                   columns_independent(&r, bl, end, bl->g[i + 1].first + bl->g[i + 1].count)) {
                end = bl->g[i + 1].first + bl->g[i + 1].count;
                G.count += bl->g[i + 1].count;
                i++;
            }
            VPUSH(g, ng, G);
        }
        bl->g = g;
        bl->ng = ng;
    }
}
