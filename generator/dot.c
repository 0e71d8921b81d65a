/* dot.c: takes the optimized schedule, gives a Graphviz picture of it: one box per fused group
 * (K outermost), one node per loop nest labelled with its stencil and .fpo line, nests sharing
 * an I-J loop side by side, edges from the nest writing a field to the next nests reading it. */
#include "opt.h"

char *fpo_sched_dot(Sched *s) {
    static const char *store[] = {"array", "plane", "scalar", "strip"};
    Buf b = {0};
    buf_printf(&b, "digraph \"%s\" {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n",
               s->ir->name);
    for (int k = 0; k < s->nblocks; k++) {
        Block *bl = &s->blocks[k];
        for (int g = 0; g < bl->ng; g++) {
            FGroup *G = &bl->g[g];
            buf_printf(&b, "  subgraph cluster_%d_%d {\n    label=\"block %d group %d%s\";\n", k, g,
                       k, g, G->fused ? " (fused, K outermost)" : "");
            if (G->fused)
                buf_add(&b, "    style=filled; color=lightgrey;\n");
            for (int i = G->first; i < G->first + G->count; i++) {
                Unit *u = &bl->u[i];
                buf_printf(&b, "    n%d_%d [label=\"%s:%d\\ncomp %d iv %d\\nloop %d\"%s];\n", k, i,
                           u->st->name, u->stage->loc.line, u->comp + 1, u->iv + 1, u->loop,
                           u->par ? "" : ", shape=ellipse");
            }
            buf_add(&b, "  }\n");
        }
        /* Data flow: a write to the next read of the same slot. */
        for (int i = 0; i < bl->nu; i++)
            for (int a = 0; a < bl->u[i].nacc; a++) {
                Acc *w = &bl->u[i].acc[a];
                if (!w->write)
                    continue;
                for (int j = i + 1; j < bl->nu; j++) {
                    Acc *r = fpo_unit_acc(&bl->u[j], w->slot);
                    if (r && r->read)
                        buf_printf(&b, "  n%d_%d -> n%d_%d [label=\"%s (%s)\"];\n", k, i, k, j,
                                   s->slots[w->slot]->name, store[s->store[w->slot]]);
                    if (r && r->write)
                        break;
                }
            }
    }
    buf_add(&b, "}\n");
    return b.s;
}
