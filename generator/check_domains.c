/* check_domains.c: takes the schedule as built (before any pass), gives warnings: a program
 * temporary read at points that no call of the program writes. Those points hold zeros (or
 * what an earlier run left there): almost always the writing call's domain is too small. */
#include "opt.h"

/* The union of bounds along one axis; `ok` false once two bounds have different bases (no
 * symbolic order between them). */
typedef struct Span {
    bool any, ok;
    DBound lo, hi;
} Span;

static void widen(Span *s, DBound lo, DBound hi) {
    if (!s->any) {
        *s = (Span){true, true, lo, hi};
        return;
    }
    if (!s->ok || lo.base != s->lo.base || hi.base != s->hi.base) {
        s->ok = false;
        return;
    }
    if (lo.off < s->lo.off)
        s->lo.off = lo.off;
    if (hi.off > s->hi.off)
        s->hi.off = hi.off;
}

static const char *range(DBound lo, DBound hi) {
    return fpo_fmt("%s .. %s", fpo_dbound_text(lo), fpo_dbound_text(hi));
}

void fpo_check_domains(Sched *s) {
    static const char axis[] = {'i', 'j'};
    for (int x = s->nfparams; x < s->nfparams + s->ir->ntemps; x++) {
        if (s->outside[x])   /* (halos, anything) */
            continue;
        Span w[2] = {{0}, {0}};
        for (int k = 0; k < s->nblocks; k++)
            for (int i = 0; i < s->blocks[k].nu; i++) {
                Unit *u = &s->blocks[k].u[i];
                Acc *a = fpo_unit_acc(u, x);
                if (!a || !a->write)
                    continue;
                SBox p = fpo_unit_points(u);
                for (int d = 0; d < 2; d++)
                    widen(&w[d], p.lo[d], p.hi[d]);
            }
        for (int k = 0; k < s->nblocks; k++)
            for (int i = 0; i < s->blocks[k].nu; i++) {
                Unit *u = &s->blocks[k].u[i];
                Acc *a = fpo_unit_acc(u, x);
                if (!a || !a->read || (i && s->blocks[k].u[i - 1].stage == u->stage &&
                                       fpo_unit_acc(&s->blocks[k].u[i - 1], x)))
                    continue;   /* (one warning per call) */
                SBox p = fpo_unit_points(u);
                for (int d = 0; d < 2; d++) {
                    DBound lo = {p.lo[d].base, p.lo[d].off + a->lo[d]};
                    DBound hi = {p.hi[d].base, p.hi[d].off + a->hi[d]};
                    if (!w[d].any || !w[d].ok || lo.base != w[d].lo.base ||
                        hi.base != w[d].hi.base ||
                        (lo.off >= w[d].lo.off && hi.off <= w[d].hi.off))
                        continue;
                    fpo_warning_at(u->stage->loc,
                                   "'%s' is read at %c = %s, but the program's calls write it "
                                   "only at %c = %s: the other points read zeros (widen the "
                                   "domain of the call that writes it)",
                                   s->slots[x]->name, axis[d], range(lo, hi), axis[d],
                                   range(w[d].lo, w[d].hi));
                    break;
                }
            }
    }
}
