/* alloc.c: the generator's memory: an arena freed at once, zeroed blocks freed one by one, and
 * growable text buffers. */
#include "fpo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Block {
    struct Block *next;
    max_align_t data[];
} Block;

static Block *arena;

#if defined(__SANITIZE_ADDRESS__)
#define FPO_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FPO_ASAN 1
#endif
#endif

static Block *new_block(size_t bytes) {
    Block *b = calloc(1, sizeof(Block) + bytes);
    if (!b) {
        fputs("fpo-gen: out of memory\n", stderr);
        exit(2);
    }
    b->next = arena;
    arena = b;
    return b;
}

#ifndef FPO_ASAN
/* Small allocations are carved from chunks of CHUNK bytes (a 10 MB file of one-character
 * tokens made one calloc per token: twice the memory and time). Under AddressSanitizer every
 * allocation keeps its own block, so that overflows between them are caught. */
enum { CHUNK = 64 << 10, SMALL = 1 << 10 };
static char *bump, *bump_end;
#endif

void *fpo_new(size_t bytes) {
#ifndef FPO_ASAN
    size_t need = (bytes + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    if (bytes && need <= SMALL) {
        if ((size_t)(bump_end - bump) < need) {
            Block *b = new_block(CHUNK);
            bump = (char *)b->data;
            bump_end = bump + CHUNK;
        }
        void *p = bump;
        bump += need;
        return p;   /* zeroed: chunks come from calloc and are never reused */
    }
#endif
    return new_block(bytes)->data;
}

void *fpo_heap_new(size_t bytes) {
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p) {
        fputs("fpo-gen: out of memory\n", stderr);
        exit(2);
    }
    return p;
}

void fpo_arena_free(void) {
    while (arena) {
        Block *next = arena->next;
        free(arena);
        arena = next;
    }
#ifndef FPO_ASAN
    bump = bump_end = NULL;
#endif
}

char *fpo_strndup(const char *s, size_t n) {
    char *p = fpo_new(n + 1);
    memcpy(p, s, n);
    return p;
}

char *fpo_strdup(const char *s) { return fpo_strndup(s, strlen(s)); }

static char *vfmt(const char *fmt, va_list ap, int *len) {
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *p = fpo_new((size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    *len = n;
    return p;
}

char *fpo_fmt(const char *fmt, ...) {
    va_list ap;
    int n;
    va_start(ap, fmt);
    char *p = vfmt(fmt, ap, &n);
    va_end(ap);
    return p;
}

/* Arena arrays grow by doubling from 4: capacity changes when n is 0 or a power of 2 >= 4. */
void *fpo_vgrow(void *arr, int n, size_t elem) {
    if (n != 0 && (n < 4 || (n & (n - 1))))
        return arr;
    size_t cap = n == 0 ? 4 : (size_t)n * 2;
    void *p = fpo_new(cap * elem);
    if (n)
        memcpy(p, arr, (size_t)n * elem);
    return p;
}

void buf_addn(Buf *b, const char *s, size_t n) {
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (b->len + n + 1 > cap)
            cap *= 2;
        char *p = fpo_new(cap);
        if (b->len)
            memcpy(p, b->s, b->len);
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

void buf_add(Buf *b, const char *s) { buf_addn(b, s, strlen(s)); }

void buf_printf(Buf *b, const char *fmt, ...) {
    va_list ap;
    int n;
    va_start(ap, fmt);
    char *p = vfmt(fmt, ap, &n);
    va_end(ap);
    buf_addn(b, p, (size_t)n);
}

/* ---- string maps: open addressing, FNV-1a, doubling at half full ---- */

static size_t str_hash(const char *s) {
    size_t h = (size_t)0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * (size_t)0x100000001b3ull;
    return h;
}

static size_t slot_of(const StrMap *m, const char *key) {
    size_t i = str_hash(key) & (m->cap - 1);
    while (m->keys[i] && strcmp(m->keys[i], key))
        i = (i + 1) & (m->cap - 1);
    return i;
}

void *strmap_get(const StrMap *m, const char *key) {
    if (!m->cap)
        return NULL;
    size_t i = slot_of(m, key);
    return m->keys[i] ? m->vals[i] : NULL;
}

void strmap_put(StrMap *m, const char *key, void *val) {
    if (2 * (m->n + 1) > m->cap) {
        StrMap g = {0};
        g.cap = m->cap ? m->cap * 2 : 16;
        g.keys = fpo_new(g.cap * sizeof *g.keys);
        g.vals = fpo_new(g.cap * sizeof *g.vals);
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i]) {
                size_t j = slot_of(&g, m->keys[i]);
                g.keys[j] = m->keys[i];
                g.vals[j] = m->vals[i];
                g.n++;
            }
        *m = g;
    }
    size_t i = slot_of(m, key);
    if (!m->keys[i]) {
        m->keys[i] = (char *)key;
        m->n++;
    }
    m->vals[i] = val;
}
