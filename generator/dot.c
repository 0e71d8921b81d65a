/* dot.c: takes the optimized schedule, gives a Graphviz picture of it: one box per group (how
 * it runs: K outermost, rows in a pipeline, joined), one node per loop nest labelled with its
 * stencil, .fpo line and I-J loop (and lag), edges from the nest writing a field to the next
 * nests reading it, labelled with the field's storage (and ring); a nest running inside the
 * sweep before it (pass_kcache) says so. */
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
            const char *how = G->join ? " (fused, joined with the next group, rows outermost)"
                              : G->lag ? " (fused, K outermost, rows in a pipeline)"
                              : G->fused ? " (fused, K outermost)"
                              : G->column ? " (by columns, J rows outermost)" : "";
            buf_printf(&b, "  subgraph cluster_%d_%d {\n    label=\"block %d group %d%s\";\n", k, g,
                       k, g, how);
            if (G->fused)
                buf_add(&b, "    style=filled; color=lightgrey;\n");
            for (int i = G->first; i < G->first + G->count; i++) {
                Unit *u = &bl->u[i];
                buf_printf(&b, "    n%d_%d [label=\"%s:%d\\ncomp %d iv %d\\nloop %d%s%s\"%s];\n", k,
                           i, u->st->name, u->stage->loc.line, u->comp + 1, u->iv + 1, u->loop,
                           G->lag ? fpo_fmt(", %d rows behind", G->lag[u->loop]) : "",
                           fpo_nest_host(G, i - G->first) >= 0 ? "\\ninside the sweep" : "",
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
                                   s->slots[w->slot]->name,
                                   s->ring[w->slot]    ? fpo_fmt("%s, ring of %d rows",
                                                                 store[s->store[w->slot]],
                                                                 s->ring[w->slot])
                                   : s->kring[w->slot] ? fpo_fmt("%s, ring of %d levels",
                                                                 store[s->store[w->slot]],
                                                                 s->kring[w->slot])
                                                       : store[s->store[w->slot]]);
                    if (r && r->write && r->plain_first)
                        break;   /* overwritten whole (a write in a region keeps the rest) */
                }
            }
    }
    buf_add(&b, "}\n");
    return b.s;
}
