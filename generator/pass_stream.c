/* pass_stream.c: takes the final groups (after kcache), gives per fused or column group the
 * arrays whose rows it writes with streaming stores (FGroup.stream): arrays the group writes
 * and does not read, each written by one top-level `x = e` at offset 0 of one nest and nowhere
 * else. Such a row is computed into a buffer and then written past the caches (emit_fused.c),
 * so the lines it overwrites are not first read from memory; open decides per array whether
 * it is large enough for that to pay (fpo_stream_worth). */
#include "opt.h"

#include <string.h>

/* Writes of `slot` in statements n: top-level plain `x = e` at offset 0 (*plain), and any
 * other (*other: compound, offset, variable K, or inside an if or a region). */
static void count_writes(Sched *s, Unit *u, Node *n, int slot, bool top, int *plain,
                         int *other) {
    for (; n; n = n->next) {
        if (n->kind == ND_ASSIGN) {
            if (fpo_call_slot(s, u, n->lhs->var) != slot)
                continue;
            bool p = top && !strcmp(n->op, "=") && n->lhs->kmode == KM_CONST &&
                     !n->lhs->off[0] && !n->lhs->off[1] && !n->lhs->off[2];
            ++*(p ? plain : other);
            continue;
        }
        count_writes(s, u, n->then, slot, false, plain, other);
        count_writes(s, u, n->els, slot, false, plain, other);
        count_writes(s, u, n->body, slot, false, plain, other);
    }
}

static bool streamable(Sched *s, int k, FGroup *G, int x) {
    Var *v = s->slots[x];
    if (s->store[x] != SK_ARRAY || v->ax != AX_IJK)   /* a row per level: J and K strides */
        return false;
    int writers = 0, plain = 0, other = 0, e0, e1;
    fpo_group_users(s, k, G, x, &e0, &e1);   /* the group's nests touching x */
    for (int e = e0; e < e1; e++) {
        Unit *u = &s->blocks[k].u[s->users[x][e].unit];
        Acc *a = fpo_unit_acc(u, x);
        if (a->read || !a->write || a->woff)
            return false;
        writers++;
        count_writes(s, u, u->st->comps[u->comp].ivs[u->iv].body, x, true, &plain, &other);
    }
    return writers == 1 && plain == 1 && !other;
}

void fpo_pass_stream(Sched *s) {
    for (int k = 0; k < s->nblocks; k++) {
        Block *bl = &s->blocks[k];
        for (int g = 0; g < bl->ng; g++) {
            FGroup *G = &bl->g[g];
            /* their outer loops take a level or a block of rows: a fence each (emit_fused.c) */
            if (!(G->fused || G->column) || G->join || (g && bl->g[g - 1].join))
                continue;
            int nx, *xs = fpo_nests_slots(s, bl, G->first, G->count, &nx);
            for (int e = 0; e < nx; e++) {
                int x = xs[e];
                if (streamable(s, k, G, x)) {
                    if (!G->stream)
                        G->stream = fpo_new(sizeof(bool) * (size_t)s->nslots);
                    G->stream[x] = true;
                }
            }
        }
    }
}
