/* pass_width.c: takes the final groups, gives the vector width run prefers (Sched.narrow):
 * half-width (256-bit) when the program has row pipelines and every one is heavy on arithmetic
 * (fpo_group_intensity >= FPO_HEAVY), the build's own width otherwise. The run function is then
 * compiled for 256-bit vectors where the build would use 512-bit ones (GCC on AVX-512,
 * FPO_NARROW_ in templates/program_impl.h.in; a no-op elsewhere): a pipeline's rows are short
 * (a few dozen points), so a full vector leaves long remainders on every row of every loop, and
 * a machine that runs 512-bit vectors as two halves gains nothing from them on arithmetic (on a
 * Zen 4 the transport step inside a tile ran 15-20 % faster at 256 bits), where a pipeline
 * light on arithmetic moves memory faster with full vectors (the chain, 4-9 %). GCC's own
 * tuning for Intel's AVX-512 cores prefers 256 bits already, so there it changes nothing (on
 * one such Xeon full vectors were 2-5 % faster for both programs: docs/measurements.md). */
#include "opt.h"

void fpo_pass_width(Sched *s) {
    int heavy = 0, light = 0;
    for (int k = 0; k < s->nblocks; k++)
        for (int g = 0; g < s->blocks[k].ng; g++) {
            FGroup *G = &s->blocks[k].g[g];
            if (!G->fused || !G->lag)
                continue;
            if (fpo_group_intensity(s, &s->blocks[k], G) >= FPO_HEAVY)
                heavy++;
            else
                light++;
        }
    s->narrow = heavy && !light;
}
