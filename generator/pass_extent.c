/* pass_extent.c: takes the schedule, gives whole-program extents of temporaries: a temporary is
 * `covered` when all its uses lie in one block, its first loop nest sets it with a plain
 * `x = e` over a box, and every later nest reads it only inside that box (so no value is
 * carried between blocks or runs, and it need not outlive the block); a stencil's own
 * temporary is checked call by call, since each call of the stencil starts it anew (its calls
 * may then lie in several blocks). Then a PARALLEL nest that
 * writes only covered temporaries computes only the points later nests read of them. */
#include "opt.h"

static bool covered(Sched *s, int slot) {
    Block *home = NULL;
    Unit *w = NULL;
    for (int n = 0; n < s->nusers[slot]; n++) {
        int b = s->users[slot][n].block;
        Unit *u = &s->blocks[b].u[s->users[slot][n].unit];
        Acc *a = fpo_unit_acc(u, slot);
        if (home && home != &s->blocks[b] && !fpo_call_local(s, slot))
            return false;   /* (a call lies in one block: a new block is a new call) */
        home = &s->blocks[b];
        if (!a->kconst || a->ij_only)
            return false;
        if (!w || (fpo_call_local(s, slot) && u->stage != w->stage)) {
            /* The first nest (of each call, for a stencil's temporary) writes it first,
             * and reads only what it wrote. */
            if (!a->plain_first || !u->par)
                return false;
            for (int d = 0; d < 3; d++)
                if (a->lo[d] || a->hi[d])
                    return false;
            w = u;
            continue;
        }
        for (int d = 0; d < 3; d++)
            if (!fpo_dbound_inside(
                    (DBound){u->box.lo[d].base, u->box.lo[d].off + a->lo[d]},
                    (DBound){u->box.hi[d].base, u->box.hi[d].off + a->hi[d]}, w->box.lo[d],
                    w->box.hi[d]))
                return false;
    }
    return w != NULL;
}

/* Widen `box` (valid: whether it holds anything yet) by [lo, hi) on axis d; false when the
 * bases differ (no symbolic order). */
static bool widen(SBox *box, bool *valid, int d, DBound lo, DBound hi) {
    if (!valid[d]) {
        box->lo[d] = lo, box->hi[d] = hi, valid[d] = true;
        return true;
    }
    if (lo.base != box->lo[d].base || hi.base != box->hi[d].base)
        return false;
    if (lo.off < box->lo[d].off)
        box->lo[d].off = lo.off;
    if (hi.off > box->hi[d].off)
        box->hi[d].off = hi.off;
    return true;
}

/* The points of nest w's I-J box that later nests of its block read of what it writes. */
static void trim(Sched *s, int k, int w) {
    Block *bl = &s->blocks[k];
    Unit *u = &bl->u[w];
    if (!u->par || u->grp < 0)
        return;
    for (int a = 0; a < u->nacc; a++)
        if (u->acc[a].write && (u->acc[a].slot < s->nfparams || !s->covered[u->acc[a].slot]))
            return;
    SBox need = u->box;
    bool valid[2] = {false, false};
    for (int a = 0; a < u->nacc; a++) {
        if (!u->acc[a].write)
            continue;
        int x = u->acc[a].slot;
        for (int n = fpo_users_after(s, x, k, w); n < s->nusers[x] && s->users[x][n].block == k;
             n++) {
            int r = s->users[x][n].unit;
            Acc *c = fpo_unit_acc(&bl->u[r], x);
            if (c && fpo_call_local(s, u->acc[a].slot) && bl->u[r].stage != u->stage)
                break;   /* a later call's value of the stencil's temporary */
            if (!c || !c->read)
                continue;
            for (int d = 0; d < 2; d++)
                if (!widen(&need, valid, d,
                           (DBound){bl->u[r].box.lo[d].base, bl->u[r].box.lo[d].off + c->lo[d]},
                           (DBound){bl->u[r].box.hi[d].base, bl->u[r].box.hi[d].off + c->hi[d]}))
                    return;
        }
    }
    /* Nothing read (dead code stays as written), or bases unlike the nest's own: keep it. */
    for (int d = 0; d < 2; d++)
        if (!valid[d] || need.lo[d].base != u->box.lo[d].base ||
            need.hi[d].base != u->box.hi[d].base || need.lo[d].off < u->box.lo[d].off ||
            need.hi[d].off > u->box.hi[d].off)
            return;
    for (int d = 0; d < 2; d++)
        u->box.lo[d] = need.lo[d], u->box.hi[d] = need.hi[d];
}

void fpo_pass_extent(Sched *s) {
    for (int x = s->nfparams; x < s->nslots; x++)
        s->covered[x] = covered(s, x);
    for (int k = 0; k < s->nblocks; k++)
        for (int w = 0; w < s->blocks[k].nu; w++)
            trim(s, k, w);
}
