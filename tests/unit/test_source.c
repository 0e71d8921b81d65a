/* test_source.c: source.c and generate.c: sources registered from memory (a NUL byte inside
 * them is an error at its place, not their end), the error's source line cut to a window
 * around the column, the whole pipeline on an in-memory source, and paths as --prefix-map
 * writes them. */
#include "check.h"

/* Run fpo_generate_memory on `text` (len bytes), diagnostics into a buffer; its status. */
static int run(const char *text, size_t len, char *diag, size_t cap) {
    FILE *f = fmemopen(diag, cap, "w");
    fpo_set_diagnostics(f);
    Output *out;
    int nout;
    int rc = fpo_generate_memory("/mem/t.fpo", text, len, &out, &nout);
    fpo_set_diagnostics(NULL);
    fclose(f);
    return rc;
}

static const char *valid =
    "stencil s(q: field<f64>, r: field<f64>) {\n"
    "    computation(PARALLEL) { r = -(-q); }\n"
    "}\n"
    "program p(q: field<f64>, r: field<f64>) { s(q, r); }\n";

int main(void) {
    static char diag[1 << 16];

    /* The pipeline in memory: success, and an error with its place. */
    CHECK_INT(run(valid, strlen(valid), diag, sizeof diag), 0);
    fpo_arena_free();
    CHECK_INT(run("program p() { x = 1 }", 21, diag, sizeof diag), 1);
    CHECK(strstr(diag, "/mem/t.fpo:1:21: error: expected ';'") == diag);
    fpo_arena_free();

    /* A NUL byte inside the text is refused where it is. */
    CHECK_INT(run("program p() {\n  \0 }", 19, diag, sizeof diag), 1);
    CHECK(strstr(diag, "/mem/t.fpo:2:3: error: a NUL byte is not allowed") == diag);
    fpo_arena_free();

    /* Imports find nothing on disk. */
    const char *imp = "import \"/etc/other.fpo\";\n";
    CHECK_INT(run(imp, strlen(imp), diag, sizeof diag), 1);
    CHECK(strstr(diag, "/mem/t.fpo:1:8: error: cannot open '/etc/other.fpo'") == diag);
    fpo_arena_free();
    imp = "import \"/etc/hostname\";\n";
    CHECK_INT(run(imp, strlen(imp), diag, sizeof diag), 1);
    CHECK(strstr(diag, "/mem/t.fpo:1:8: error: an import names a .fpo file") == diag);
    fpo_arena_free();

    /* An error at the end of a 100,000-column line: the line is cut to a window, the caret
     * stays under the column. */
    size_t n = 100000;
    char *line = malloc(n + 64);
    strcpy(line, "program p() { x = 1");
    size_t at = strlen(line);
    memset(line + at, ' ', n);
    strcpy(line + at + n, "$ }");
    CHECK_INT(run(line, strlen(line), diag, sizeof diag), 1);
    CHECK(strlen(diag) < 600);
    char *l1 = strchr(diag, '\n'), *l2 = l1 ? strchr(l1 + 1, '\n') : NULL,
         *l3 = l2 ? strchr(l2 + 1, '\n') : NULL;
    CHECK(l1 && l2 && l3 && !l3[1]);
    if (l1 && l2 && l3) {
        CHECK(!strncmp(l1 + 1, "...", 3));          /* the shown line starts cut */
        CHECK(!strncmp(l2 - 3, "$ }", 3));        /* ... and ends at the line's end */
        char *dollar = memchr(l1 + 1, '$', (size_t)(l2 - l1));
        char *caret = memchr(l2 + 1, '^', (size_t)(l3 - l2));
        CHECK(dollar && caret && dollar - (l1 + 1) == caret - (l2 + 1));
    }
    free(line);
    fpo_arena_free();

    /* --prefix-map: a plain prefix replaced, the last matching map winning (a build folder
     * inside the sources); other paths and no file as they are. */
    fpo_add_prefix_map("/src/proj/", "");
    fpo_add_prefix_map("/src/proj/build/", "");
    fpo_add_prefix_map("/other", "/o");
    CHECK(!strcmp(fpo_shown_path("/src/proj/model/step.fpo"), "model/step.fpo"));
    CHECK(!strcmp(fpo_shown_path("/src/proj/build/gen/g.fpo"), "gen/g.fpo"));
    CHECK(!strcmp(fpo_shown_path("/other/x.fpo"), "/o/x.fpo"));
    CHECK(!strcmp(fpo_shown_path("/src/projx/a.fpo"), "/src/projx/a.fpo"));
    CHECK(!strcmp(fpo_loc_path((Loc){0}), "?"));

    if (check_failures)
        fprintf(stderr, "test_source: %d checks failed\n", check_failures);
    return check_failures != 0;
}
