/* fuzz_fpo.c: libFuzzer target over the whole generator: one input is one .fpo source, given
 * from memory (imports find nothing on disk); it runs the front end, the IR's JSON and back,
 * the unfused and fused optimizer and a fused form with every --instrument check, each
 * through the C and CUDA emitters, and the fused form's kernels once more in a shape of the
 * --cuda-* options drawn from the input (fpo_generate_memory), writing nothing. Any crash, sanitizer
 * report, leak or time-out is a finding; an input error is the expected outcome of most
 * inputs. docs/robustness.md says how to build and run it. */
#include "fpo.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static FILE *sink;
    if (!sink && getenv("FPO_FUZZ_VERBOSE") == NULL)
        sink = fopen("/dev/null", "w");
    fpo_set_diagnostics(sink);
    /* A geometric inlining stops at 1,000,000 nodes in fpo-gen: 4 s and 1.4 GB here, under the
     * sanitizers, too near the time-out and the memory limit. The same code refuses it at
     * 100,000. */
    fpo_max_ir_nodes = 100000;
    Output *out;
    int nout;
    int rc = fpo_generate_memory("/fuzz/input.fpo", (const char *)data, size, &out, &nout);
    fpo_arena_free();
    if (rc == 3) {
        fputs("fuzz_fpo: the IR's JSON did not read back the same\n", stderr);
        abort();
    }
    return 0;
}
