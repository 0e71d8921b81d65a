/* pass_shrink.c: takes covered temporaries (pass_extent) and the groups, gives their storage:
 * a temporary used only within one fused group at K offset 0 (a stencil's own temporary:
 * within one fused group per call) becomes a plane per thread (one level at a time), one used
 * only at the current point of one I-J loop a scalar, and one used only in one column group at
 * I and J offset 0, every level read having been written before in the same run, a strip per
 * thread (one J row of every level). */
#include "opt.h"


static StoreKind shrink(Sched *s, int slot) {
    if (!s->covered[slot])
        return SK_ARRAY;
    int block = -1, group = -1, loop = -1;
    Node *stage = NULL;
    bool scalar = true;
    for (int n = 0; n < s->nusers[slot]; n++) {   /* the nests touching it, in order */
        int k = s->users[slot][n].block, i = s->users[slot][n].unit;
        Block *b = &s->blocks[k];
        int g = fpo_group_of(b, i);
        Acc *a = fpo_unit_acc(&b->u[i], slot);
        if (!b->g[g].fused || a->lo[2] || a->hi[2] || !a->kconst)
            return SK_ARRAY;
        bool same = block == k && group == g;
        /* one fused group; a stencil's own temporary: one per call */
        if (group >= 0 && !same && !(fpo_call_local(s, slot) && b->u[i].stage != stage))
            return SK_ARRAY;
        if (loop >= 0 && (!same || loop != b->u[i].loop))
            scalar = false;
        for (int d = 0; d < 2; d++)
            if (a->lo[d] || a->hi[d])
                scalar = false;
        block = k, group = g, stage = b->u[i].stage;
        loop = b->u[i].loop;
    }
    return scalar ? SK_SCALAR : SK_PLANE;
}

enum { STRIP_NZ_MAX = 64, STRIP_OFF_MAX = 16 };

/* Whether, at this nz, every level the group's nests read of `slot` was written before (in the
 * order a column runs them: nest by nest, each over its K range in its order); the nests
 * touching it are us[0..nus), acc their accesses to it. */
static bool levels_written(Unit **us, Acc **acc, int nus, int64_t nz) {
    int64_t base = STRIP_OFF_MAX * 2;
    bool w[STRIP_NZ_MAX + 4 * STRIP_OFF_MAX] = {false};   /* nz <= STRIP_NZ_MAX */
    for (int e = 0; e < nus; e++) {
        Unit *u = us[e];
        Acc *a = acc[e];
        int64_t kb = fpo_dbound_at(u->box.lo[2], nz), ke = fpo_dbound_at(u->box.hi[2], nz);
        bool down = !u->par && u->st->comps[u->comp].order == ORD_BACKWARD;
        for (int64_t n = 0; n < ke - kb; n++) {
            int64_t k = down ? ke - 1 - n : kb + n;
            for (int late = 0; late < 2; late++) {
                if (late && a->wplain) {
                    if (k + base < 0 || k + base >= nz + 4 * STRIP_OFF_MAX)
                        return false;
                    w[k + base] = true;
                }
                bool on = late ? a->late : a->early;
                int64_t *r = late ? a->lk : a->ek;
                for (int64_t dk = r[0]; on && dk <= r[1]; dk++)
                    if (k + dk + base < 0 || k + dk + base >= nz + 4 * STRIP_OFF_MAX ||
                        !w[k + dk + base])
                        return false;
            }
        }
    }
    return true;
}

static bool same_ij(SBox *a, SBox *b) {
    for (int d = 0; d < 2; d++)
        if (!fpo_dbound_eq(a->lo[d], b->lo[d]) || !fpo_dbound_eq(a->hi[d], b->hi[d]))
            return false;
    return true;
}

/* The smallest nz from which `slot` can be a strip (STRIP_NZ_MAX + 1: never). */
static int strip_from(Sched *s, int slot, FpoMemo *memo) {
    int home = -1;
    FGroup *G = NULL;
    Unit *first = NULL;
    for (int n = 0; n < s->nusers[slot]; n++) {   /* the nests touching it, in order */
        int k = s->users[slot][n].block, i = s->users[slot][n].unit;
        int g = fpo_group_of(&s->blocks[k], i);
        Unit *u = &s->blocks[k].u[i];
        Acc *a = fpo_unit_acc(u, slot);
        if (G && G != &s->blocks[k].g[g])
            return STRIP_NZ_MAX + 1;
        home = k, G = &s->blocks[k].g[g];
        if (!G->column || !a->kconst || a->ij_only || a->lo[0] || a->hi[0] || a->lo[1] ||
            a->hi[1] || a->lo[2] < -STRIP_OFF_MAX || a->hi[2] > STRIP_OFF_MAX)
            return STRIP_NZ_MAX + 1;
        for (int d = 0; d < 3; d++)
            if (u->box.lo[d].off < -STRIP_OFF_MAX || u->box.lo[d].off > STRIP_OFF_MAX ||
                u->box.hi[d].off < -STRIP_OFF_MAX || u->box.hi[d].off > STRIP_OFF_MAX)
                return STRIP_NZ_MAX + 1;
        if (first && !same_ij(&first->box, &u->box))
            return STRIP_NZ_MAX + 1;
        first = first ? first : u;
    }
    if (!G)
        return STRIP_NZ_MAX + 1;
    /* Bounds are nz or 0 plus small offsets: what holds at nz = 64 holds above. */
    int e0, e1;
    fpo_group_users(s, home, G, slot, &e0, &e1);   /* the group's nests touching it */
    Unit **us = fpo_new(sizeof(Unit *) * (size_t)(e1 - e0 + 1));
    Acc **acc = fpo_new(sizeof(Acc *) * (size_t)(e1 - e0 + 1));
    for (int e = e0; e < e1; e++) {
        us[e - e0] = &s->blocks[home].u[s->users[slot][e].unit];
        acc[e - e0] = fpo_unit_acc(us[e - e0], slot);
    }
    fpo_memo_start(memo, "strip ");
    for (int e = 0; e < e1 - e0; e++)
        fpo_memo_nest(memo, us[e], acc[e]);
    int known = fpo_memo_get(memo);
    if (known >= 0)
        return known;
    int from = STRIP_NZ_MAX + 1;
    for (int nz = STRIP_NZ_MAX; nz >= 1 && levels_written(us, acc, e1 - e0, nz); nz--)
        from = nz;
    return fpo_memo_put(memo, from);
}

void fpo_pass_shrink(Sched *s) {
    FpoMemo memo = {0};
    for (int x = s->nfparams; x < s->nslots; x++) {
        s->store[x] = shrink(s, x);
        if (s->store[x] != SK_ARRAY)
            continue;
        s->strip_nz[x] = strip_from(s, x, &memo);
        if (s->strip_nz[x] <= STRIP_NZ_MAX)
            s->store[x] = SK_STRIP;
    }
}
