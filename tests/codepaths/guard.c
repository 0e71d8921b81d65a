/* guard.c: the run guard of a program built for a 2 x 2 layout only (guard.fpo, LAYOUTS 2x2):
 * opening refuses a class not built, a back end not built, a field too small, each with a
 * message naming the difference and the CMake option; a forced variant runs; the manifest
 * says what was built. No MPI: domains are written by hand. */
#include "guarded.h"
#include "west_only.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(c)                                                                               \
    do {                                                                                       \
        if (!(c)) {                                                                            \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c);              \
            failures++;                                                                        \
        }                                                                                      \
    } while (0)

#define CHECK_MSG(err, text)                                                                   \
    do {                                                                                       \
        if (!strstr((err).msg, (text))) {                                                      \
            fprintf(stderr, "%s:%d: message lacks '%s': %s\n", __FILE__, __LINE__, (text),    \
                    (err).msg);                                                                \
            failures++;                                                                        \
        }                                                                                      \
    } while (0)

enum { N = 12, NL = 6, NZ = 2, H = 1 };

static double q[(NL + 2 * H) * (NL + 2 * H) * NZ], out[(NL + 2 * H) * (NL + 2 * H) * NZ];

static guarded_fields fields(int h) {
    return (guarded_fields){
        .q = fpo_field_3d(q, FPO_F64, -h, NL + h, -h, NL + h, 0, NZ),
        .out = fpo_field_3d(out, FPO_F64, -H, NL + H, -H, NL + H, 0, NZ)};
}

static double at(const double *a, int i, int j, int k) {
    return a[((size_t)k * (NL + 2 * H) + (size_t)(j + H)) * (NL + 2 * H) + (size_t)(i + H)];
}

/* A rank of a 2 x 2 layout: the one at tile position (isub, jsub). */
static fpo_domain rank_2x2(int isub, int jsub) {
    return (fpo_domain){.nx = NL, .ny = NL, .nz = NZ, .i0 = isub * NL, .j0 = jsub * NL,
                        .tile_nx = N, .tile_ny = N, .tile = 0};
}

int main(void) {
    for (size_t x = 0; x < sizeof q / sizeof *q; x++)
        q[x] = 1.0;
    guarded_fields f = fields(H);
    guarded *p = NULL;
    fpo_error err;

    /* Each rank of a 2 x 2 layout opens its own variant and applies its edges' regions. */
    static const char *names[2][2] = {{"sw", "nw"}, {"se", "ne"}};
    for (int jsub = 0; jsub < 2; jsub++)
        for (int isub = 0; isub < 2; isub++) {
            fpo_domain d = rank_2x2(isub, jsub);
            CHECK(guarded_open(&p, &d, &f, &err) == FPO_OK);
            CHECK(p && !strcmp(guarded_variant(p), names[isub][jsub]));
            CHECK(guarded_run(p, 3.0, &err) == FPO_OK);
            double corner = at(out, isub ? NL - 1 : 0, jsub ? NL - 1 : 0, 1);
            CHECK(corner == 3.0 + (isub ? 2.0 : 1.0) + (jsub ? 8.0 : 4.0));
            CHECK(at(out, isub ? 0 : NL - 1, 2, 0) == 3.0);   /* off every tile edge */
            guarded_close(p);
        }

    /* A 1 x 1 layout (a rank touching all four edges) was not built. */
    fpo_domain whole = {.nx = N, .ny = N, .nz = NZ, .tile_nx = N, .tile_ny = N};
    CHECK(guarded_open(&p, &whole, &f, &err) == FPO_EMISMATCH && p == NULL);
    CHECK_MSG(err, "guarded: this rank is of edge class 'all'");
    CHECK_MSG(err, "the build has the classes sw, se, nw, ne");
    CHECK_MSG(err, "fpo_add_program(guarded ... LAYOUTS 1x1)");
    printf("refused: %s\n", err.msg);

    /* Nor the interior rank of a 3 x 3 layout. */
    fpo_domain mid = {.nx = 4, .ny = 4, .nz = NZ, .i0 = 4, .j0 = 4, .tile_nx = N, .tile_ny = N};
    CHECK(guarded_open(&p, &mid, &f, &err) == FPO_EMISMATCH);
    CHECK_MSG(err, "edge class 'interior'");
    CHECK_MSG(err, "LAYOUTS 3x3");

    /* A rank of one point of a 2 x 2 tile, of class se, reads the west column, where the west
     * regions hold but its variant leaves them out: refused, since 'all', which tests every
     * region, was not built (regions.fpo's tiny tiles run 'all' instead). */
    fpo_domain tiny = {.nx = 1, .ny = 1, .nz = NZ, .i0 = 1, .j0 = 0, .tile_nx = 2, .tile_ny = 2};
    CHECK(guarded_open(&p, &tiny, &f, &err) == FPO_EMISMATCH && p == NULL);
    CHECK_MSG(err, "regions of tile edges beyond it hold (edges w;");
    CHECK_MSG(err, "variant 'se' leaves out");
    printf("refused: %s\n", err.msg);

    /* A back end that was not built. */
    fpo_domain sw = rank_2x2(0, 0);
    fpo_options opt = {.backend = "cuda"};
    CHECK(guarded_open_with(&p, &sw, &f, &opt, &err) == FPO_EMISMATCH);
    CHECK_MSG(err, "back end 'cuda' was not built (built: c)");
    CHECK_MSG(err, "fpo_add_program(guarded ... BACKENDS c cuda)");
    printf("refused: %s\n", err.msg);
    opt.backend = "c";
    CHECK(guarded_open_with(&p, &sw, &f, &opt, &err) == FPO_OK);
    guarded_close(p);

    /* A field without the halo the program reads. */
    guarded_fields small = fields(0);
    CHECK(guarded_open(&p, &sw, &small, &err) == FPO_ESHAPE);
    CHECK_MSG(err, "allocate a halo of at least 1");
    printf("refused: %s\n", err.msg);

    /* A forced variant: the north-east one on the south-west rank runs no region (its regions
     * are the north and east edges, which this rank does not hold; the south-west ones are
     * pruned from it). */
    opt = (fpo_options){.variant = "ne"};
    CHECK(guarded_open_with(&p, &sw, &f, &opt, &err) == FPO_OK);
    CHECK(p && !strcmp(guarded_variant(p), "ne"));
    CHECK(guarded_run(p, 3.0, &err) == FPO_OK);
    CHECK(at(out, 0, 0, 0) == 3.0);
    guarded_close(p);
    opt.variant = "interior";
    CHECK(guarded_open_with(&p, &sw, &f, &opt, &err) == FPO_EMISMATCH);
    CHECK_MSG(err, "no variant 'interior' to force (built: sw, se, nw, ne)");

    /* The manifest says what was built. */
    const char *m = guarded_manifest();
    CHECK(strstr(m, "\"program\": \"guarded\"") != NULL);
    CHECK(strstr(m, "\"layouts\": [\n  \"2x2\"\n ]") != NULL);
    CHECK(strstr(m, "\"source_hash\": \"fnv1a64:") != NULL);
    CHECK(strstr(m, "\"backends\": [\n  \"c\"\n ]") != NULL);
    CHECK(strstr(m, "\"ne\": \"ne\"") != NULL);

    /* A stencil pruning empties keeps its arguments: the west variant writes `edge` at
     * i = 0 only, the interior variant (whose `west` is empty) leaves it alone, and both take
     * the same arguments in the same order (they are compiled into one library). */
    static double wq[NL * NL], wout[NL * NL], wedge[NL * NL];
    for (int x = 0; x < NL * NL; x++)
        wq[x] = x, wedge[x] = -1.0;
    west_only_fields wf = {.q = fpo_field_3d(wq, FPO_F64, 0, NL, 0, NL, 0, 1),
                           .out = fpo_field_3d(wout, FPO_F64, 0, NL, 0, NL, 0, 1),
                           .edge = fpo_field_3d(wedge, FPO_F64, 0, NL, 0, NL, 0, 1)};
    fpo_domain west_rank = {.nx = NL, .ny = NL, .nz = 1, .i0 = 0, .j0 = NL, .tile_nx = 3 * NL,
                            .tile_ny = 3 * NL};
    fpo_domain inner_rank = west_rank;
    inner_rank.i0 = NL;
    west_only *w;
    CHECK(west_only_open(&w, &inner_rank, &wf, &err) == FPO_OK);
    CHECK(!strcmp(west_only_variant(w), "interior"));
    CHECK(west_only_run(w, 2.0, &err) == FPO_OK);
    CHECK(wedge[0] == -1.0 && wout[7] == 14.0);
    west_only_close(w);
    CHECK(west_only_open(&w, &west_rank, &wf, &err) == FPO_OK);
    CHECK(!strcmp(west_only_variant(w), "w"));
    CHECK(west_only_run(w, 2.0, &err) == FPO_OK);
    CHECK(wedge[NL] == 2.0 * NL && wedge[NL + 1] == -1.0 && wout[7] == 14.0);
    west_only_close(w);

    printf("guard: %s\n", failures ? "FAILED" : "every refusal, forced variant and manifest check passed");
    return failures != 0;
}
