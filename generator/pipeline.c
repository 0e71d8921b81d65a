/* pipeline.c: takes the IR and which passes are on, gives the optimized schedule: runs
 * corners (on the IR, before the schedule is made), extent, fuse, column, merge, shrink, rows,
 * join (off unless enabled), kcache, stream, prefetch, width, pool in that order; writes the
 * schedule as JSON after any pass (the IR JSON of ir_json.c with a "schedule" key added, which
 * --from-ir ignores). */
#include "opt.h"

#include <string.h>

const char *const fpo_pass_names[PASS_COUNT] = {"corners", "extent", "fuse",   "column",
                                                 "merge",   "shrink", "rows",   "join",
                                                 "kcache",  "stream", "prefetch", "width", "pool"};
const bool fpo_pass_default[PASS_COUNT] = {true, true, true,  true, true, true,
                                           true, false, true, true, true, true, true};

static void (*const pass_fns[PASS_COUNT])(Sched *) = {
    NULL,           fpo_pass_extent, fpo_pass_fuse,  fpo_pass_column, fpo_pass_merge,
    fpo_pass_shrink, fpo_pass_rows,  fpo_pass_join,  fpo_pass_kcache, fpo_pass_stream,
    fpo_pass_prefetch, fpo_pass_width, fpo_pass_pool};

int fpo_pass_find(const char *name) {
    for (int p = 0; p < PASS_COUNT; p++)
        if (!strcmp(fpo_pass_names[p], name))
            return p;
    return -1;
}

static const char *store_names[] = {"array", "plane", "scalar", "strip"};

static void json_dbound(Buf *b, DBound d) {
    static const char *base[] = {"0", "nx", "ny", "nz"};
    buf_printf(b, "[\"%s\", %lld]", base[d.base], (long long)d.off);
}

char *fpo_sched_json(Sched *s) {
    Buf b = {0};
    buf_printf(&b, "{\"mode\": \"%s\", \"vectors\": \"%s\", \"passes\": {",
               s->fused ? "fused" : "unfused", s->narrow ? "narrow" : "full");
    for (int p = 0; p < PASS_COUNT; p++)
        buf_printf(&b, "%s\"%s\": %s", p ? ", " : "", fpo_pass_names[p], s->on[p] ? "true" : "false");
    buf_add(&b, "},\n    \"temporaries\": [");
    for (int x = s->nfparams; x < s->nslots; x++)
        buf_printf(&b, "%s\n      {\"slot\": %d, \"name\": \"%s\", \"storage\": \"%s\", "
                       "\"covered\": %s, \"shares\": %d, \"ring\": %d, \"kring\": %d}",
                   x > s->nfparams ? "," : "", x, s->slots[x]->name, store_names[s->store[x]],
                   s->covered[x] ? "true" : "false", s->share[x], s->ring[x], s->kring[x]);
    buf_add(&b, "],\n    \"blocks\": [");
    for (int k = 0; k < s->nblocks; k++) {
        Block *bl = &s->blocks[k];
        buf_printf(&b, "%s\n      {\"groups\": [", k ? "," : "");
        for (int g = 0; g < bl->ng; g++) {
            buf_printf(&b, "%s\n        {\"fused\": %s, \"column\": %s, \"joined\": %s, "
                           "\"stream\": [",
                       g ? "," : "", bl->g[g].fused ? "true" : "false",
                       bl->g[g].column ? "true" : "false", bl->g[g].join ? "true" : "false");
            int nx = 0, *xs = NULL;   /* (a group streams and fetches slots it touches) */
            if (bl->g[g].stream || bl->g[g].fetch)
                xs = fpo_nests_slots(s, bl, bl->g[g].first, bl->g[g].count, &nx);
            for (int e = 0, n = 0; bl->g[g].stream && e < nx; e++)
                if (bl->g[g].stream[xs[e]])
                    buf_printf(&b, "%s\"%s\"", n++ ? ", " : "", s->slots[xs[e]]->name);
            buf_add(&b, "], \"prefetch\": [");
            for (int e = 0, n = 0; bl->g[g].fetch && e < nx; e++)
                if (bl->g[g].fetch[xs[e]].on)
                    buf_printf(&b, "%s\"%s\"", n++ ? ", " : "", s->slots[xs[e]]->name);
            buf_add(&b, "], \"nests\": [");
            for (int i = bl->g[g].first; i < bl->g[g].first + bl->g[g].count; i++) {
                Unit *u = &bl->u[i];
                buf_printf(&b, "%s\n          {\"stencil\": \"%s\", \"line\": %d, "
                               "\"computation\": %d, \"interval\": %d, \"group\": %d, "
                               "\"loop\": %d, \"lag\": %d, \"inside\": %s, \"box\": [",
                           i > bl->g[g].first ? "," : "", u->st->name, u->stage->loc.line,
                           u->comp, u->iv, u->grp, u->loop,
                           bl->g[g].lag ? bl->g[g].lag[u->loop] : 0,
                           fpo_nest_host(&bl->g[g], i - bl->g[g].first) >= 0 ? "true" : "false");
                for (int d = 0; d < 3; d++) {
                    buf_add(&b, d ? ", [" : "[");
                    json_dbound(&b, u->box.lo[d]);
                    buf_add(&b, ", ");
                    json_dbound(&b, u->box.hi[d]);
                    buf_add(&b, "]");
                }
                buf_add(&b, "], \"reads\": [");
                int n = 0;
                for (int a = 0; a < u->nacc; a++)
                    if (u->acc[a].read)
                        buf_printf(&b, "%s\"%s\"", n++ ? ", " : "", s->slots[u->acc[a].slot]->name);
                buf_add(&b, "], \"writes\": [");
                n = 0;
                for (int a = 0; a < u->nacc; a++)
                    if (u->acc[a].write)
                        buf_printf(&b, "%s\"%s\"", n++ ? ", " : "", s->slots[u->acc[a].slot]->name);
                buf_add(&b, "]}");
            }
            buf_add(&b, "]}");
        }
        buf_add(&b, "]}");
    }
    buf_add(&b, "]}");
    return b.s;
}

/* The IR JSON with the schedule added as its last key. */
static char *dump(Sched *s) {
    char *ir = fpo_ir_to_json(s->ir);
    size_t n = strlen(ir);
    while (n && ir[n - 1] != '}')
        n--;
    Buf b = {0};
    buf_addn(&b, ir, n ? n - 1 : 0);
    while (b.len && (b.s[b.len - 1] == '\n' || b.s[b.len - 1] == ' '))
        b.s[--b.len] = 0;
    buf_add(&b, ",\n  \"schedule\": ");
    buf_add(&b, fpo_sched_json(s));
    buf_add(&b, "\n}\n");
    return b.s;
}

Sched *fpo_optimize(Ir *ir, Pipeline *pl) {
    bool on[PASS_COUNT];
    for (int p = 0; p < PASS_COUNT; p++)
        on[p] = pl->fused && (fpo_pass_default[p] ? !pl->off[p] : pl->en[p]);
    if (on[PASS_CORNERS])
        fpo_pass_corners(ir, pl->halo);
    Sched *s = fpo_sched_new(ir, pl->fused);
    s->ins = pl->ins;
    memcpy(s->on, on, sizeof on);
    fpo_check_domains(s);
    for (int p = 0; p < PASS_COUNT; p++) {
        if (s->on[p] && pass_fns[p])
            pass_fns[p](s);
        if (pl->dump_after == p)
            pl->dump = dump(s);
    }
    return s;
}
