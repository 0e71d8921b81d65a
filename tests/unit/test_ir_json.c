/* test_ir_json.c: the IR JSON round trip on the programs named on the command line: JSON read
 * back and written again is the same text, and the C emitted from the IR read back is the
 * same as the C emitted from the .fpo files. */
#include "check.h"

static const char *first_diff(const char *a, const char *b) {
    int line = 1;
    for (; *a && *a == *b; a++, b++)
        if (*a == '\n')
            line++;
    return fpo_fmt("line %d: '%.40s' vs '%.40s'", line, a, b);
}

int main(int argc, char **argv) {
    if (argc % 2 == 0) {
        fprintf(stderr, "usage: test_ir_json FILE.fpo PROGRAM...\n");
        return 2;
    }
    fpo_quiet = false;
    for (int i = 1; i + 1 < argc; i += 2) {
        Lowered l = {argv[i], argv[i + 1], check_lower(argv[i], argv[i + 1])};
        if (!l.ir) {
            check_failures++;
            continue;
        }
        char *json = fpo_ir_to_json(l.ir);
        Ir *back = fpo_ir_from_json(json, "ir.json");
        if (!back) {
            fprintf(stderr, "%s: reading the IR back: %s\n", argv[i], fpo_errmsg);
            check_failures++;
            continue;
        }
        char *again = fpo_ir_to_json(back);
        if (strcmp(json, again)) {
            fprintf(stderr, "%s: JSON differs after the round trip at %s\n", argv[i],
                    first_diff(json, again));
            check_failures++;
        }
        Build b1 = {.version = "test", .halo = 3}, b2 = b1;
        CHECK(fpo_layout_classes(&b1, "1x1") && fpo_layout_classes(&b1, "any"));
        CHECK(fpo_layout_classes(&b2, "1x1") && fpo_layout_classes(&b2, "any"));
        int n1, n2;
        Output *c1 = fpo_emit_c(l.ir, &b1, &n1), *c2 = fpo_emit_c(back, &b2, &n2);
        CHECK(n1 == n2);
        for (int k = 0; k < n1 && k < n2; k++)
            if (strcmp(c1[k].text, c2[k].text)) {
                fprintf(stderr, "%s: %s differs when emitted from the IR read back, at %s\n",
                        argv[i], c1[k].name, first_diff(c1[k].text, c2[k].text));
                check_failures++;
            }
        CHECK(strstr(json, "\"fpo_ir\": 1") != NULL);
        printf("%s (%s): %zu bytes of IR, %zu + %zu bytes of C, round trip exact\n", argv[i],
               argv[i + 1], strlen(json), strlen(c1[0].text), strlen(c1[1].text));
    }
    /* Malformed IR is refused with a message. */
    CHECK(fpo_ir_from_json("{\"fpo_ir\": 2}", "x.json") == NULL);
    CHECK(strstr(fpo_errmsg, "version 1") != NULL);
    CHECK(fpo_ir_from_json("{", "x.json") == NULL);
    CHECK(fpo_ir_from_json("{\"fpo_ir\": 1, \"inputs\": [], \"program\": \"p\", \"loc\": [-1, 0, 0],"
                           " \"params\": [], \"temporaries\": [], \"scalars\": [],"
                           " \"stencils\": [], \"body\": [{\"kind\": \"stages\", \"loc\": [-1, 0, 0],"
                           " \"stages\": [{\"stencil\": \"nope\", \"loc\": [-1, 0, 0]}]}]}", "x.json") == NULL);
    CHECK_STR(fpo_errmsg, "unknown stencil 'nope'");
    return check_done("test_ir_json");
}
