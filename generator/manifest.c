/* manifest.c: takes a program's IR and its build, gives the manifest (what was built, as JSON:
 * embedded in the program and installed next to it) and the one-line build report; and reads
 * back which variant sources an earlier manifest's build wrote. */
#include "fpo.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a, 64 bits. */
static uint64_t fnv(uint64_t h, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

char *fpo_source_hash(Ir *ir) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < ir->ninputs; i++) {
        const char *shown = fpo_shown_path(ir->inputs[i]);   /* as the manifest names it */
        h = fnv(h, shown, strlen(shown) + 1);
        char *text = NULL;
        for (FpoFile *s = fpo_files(); s && !text; s = s->next)   /* as it was read */
            if (s->text && !strcmp(s->path, ir->inputs[i]))
                text = s->text;
        FILE *f = text || fpo_no_disk ? NULL : fopen(ir->inputs[i], "rb");
        if (f) {
            text = fpo_read_stream(f);
            fclose(f);
        }
        if (!text)
            return fpo_strdup("unknown (a source could not be read)");
        h = fnv(h, text, strlen(text) + 1);
    }
    for (int i = 0; i < ir->ndefines; i++)
        h = fnv(h, ir->defines[i], strlen(ir->defines[i]) + 1);
    return fpo_fmt("fnv1a64:%016llx", (unsigned long long)h);
}

static json_t *strings(char **s, int n) {
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_string(s[i]));
    return a;
}

/* The input paths as the outputs write them (--prefix-map). */
static json_t *paths(char **s, int n) {
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_string(fpo_shown_path(s[i])));
    return a;
}

char *fpo_manifest(Ir *ir, const Build *b) {
    json_t *classes = json_object(), *variants = json_array();
    for (int i = 0; i < b->nclasses; i++)
        json_object_set_new(classes, fpo_class_name(b->classes[i]),
                            json_string(fpo_class_name(b->variants[b->variant_of[i]])));
    for (int i = 0; i < b->nvariants; i++)
        json_array_append_new(variants, json_string(fpo_class_name(b->variants[i])));
    json_t *root = json_pack(
        "{si ss ss ss s:o s:o s:o s:o s:o s:o s:{si si} s:o}", "fpo_manifest", 1, "program",
        ir->name, "generator", fpo_fmt("fpo-gen %s", b->version), "source_hash",
        fpo_source_hash(ir), "inputs", paths(ir->inputs, ir->ninputs), "defines",
        strings(ir->defines, ir->ndefines), "backends",
        strings(b->backends, b->nbackends), "layouts", strings(b->layouts, b->nlayouts),
        "classes", classes, "variants", variants, "halo", "width", b->halo, "statements",
        b->nhalo, "specialisation", json_object());
    char *s = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(root);
    char *r = fpo_fmt("%s\n", s);
    free(s);
    return r;
}

char *fpo_report(Ir *ir, const Build *b) {
    return fpo_fmt("%s: %d class%s, %d distinct variant%s", ir->name, b->nclasses,
                   b->nclasses == 1 ? "" : "es", b->nvariants, b->nvariants == 1 ? "" : "s");
}

char **fpo_manifest_sources(const char *text, const char *name, int *n) {
    *n = 0;
    json_t *m = json_loads(text, 0, NULL);
    json_t *program = json_object_get(m, "program"), *variants = json_object_get(m, "variants");
    json_t *backends = json_object_get(m, "backends");
    char **out = NULL;
    if (json_is_integer(json_object_get(m, "fpo_manifest")) && json_is_string(program) &&
        !strcmp(json_string_value(program), name) && json_is_array(variants)) {
        bool cuda = false;
        size_t i;
        json_t *v;
        json_array_foreach(backends, i, v) cuda = cuda || (json_is_string(v) &&
                                                            !strcmp(json_string_value(v), "cuda"));
        out = fpo_new(sizeof(char *) * (2 * json_array_size(variants) + 1));
        json_array_foreach(variants, i, v) {
            const char *c = json_string_value(v);
            if (!c || !*c || strchr(c, '/') || strchr(c, '.'))   /* (a variant's name only) */
                continue;
            out[(*n)++] = fpo_fmt("%s.%s.c", name, c);
            if (cuda)
                out[(*n)++] = fpo_fmt("%s.%s.cu", name, c);
        }
    }
    json_decref(m);
    return out;
}
