/* alloc.c: the generator's memory: an arena freed at once, a scratch stack released back to
 * marks, zeroed blocks freed one by one, and growable text buffers. */
#include "fpo.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Block {
    struct Block *next;
    max_align_t data[];
} Block;

/* A text buffer's storage: a heap block that grows in place (realloc), on a list of its own
 * that the arena frees with its blocks. A buffer grown in the arena would leave each smaller
 * copy behind: with the last copy's slack, four times the text. */
typedef struct Text {
    struct Text *prev, *next;
    max_align_t data[];
} Text;

static Text *texts;

#if defined(__SANITIZE_ADDRESS__)
#define FPO_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FPO_ASAN 1
#endif
#endif

/* Blocks freed together, small allocations carved from chunks of CHUNK bytes (a 10 MB file of
 * one-character tokens made one calloc per token: twice the memory and time). Under
 * AddressSanitizer every allocation keeps its own block, so that overflows between them are
 * caught. Two of them: the arena (freed at once) and the scratch stack (released back to a
 * mark, its room used again: `reused` zeroes what it hands out). */
enum { CHUNK = 64 << 10, SMALL = 1 << 10 };
typedef struct Pool {
    Block *blocks;
    char *bump, *end;
    bool reused;
} Pool;

static Pool arena, scratch = {NULL, NULL, NULL, true};

static Block *new_block(Pool *p, size_t bytes) {
    Block *b = calloc(1, sizeof(Block) + bytes);
    if (!b) {
        fputs("fpo-gen: out of memory\n", stderr);
        exit(2);
    }
    b->next = p->blocks;
    p->blocks = b;
    return b;
}

static void *pool_new(Pool *p, size_t bytes) {
#ifndef FPO_ASAN
    size_t need = (bytes + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    if (bytes && need <= SMALL) {
        if ((size_t)(p->end - p->bump) < need) {
            p->bump = (char *)new_block(p, CHUNK)->data;
            p->end = p->bump + CHUNK;
        }
        void *q = p->bump;
        p->bump += need;
        return p->reused ? memset(q, 0, need) : q;   /* (fresh chunks come from calloc) */
    }
#endif
    return new_block(p, bytes)->data;
}

/* Free p's blocks back to `to` (NULL: all), its chunk's room back to bump .. end. */
static void pool_release(Pool *p, Block *to, char *bump, char *end) {
    while (p->blocks != to) {
        Block *next = p->blocks->next;
        free(p->blocks);
        p->blocks = next;
    }
    p->bump = bump, p->end = end;
}

void *fpo_new(size_t bytes) { return pool_new(&arena, bytes); }

void *fpo_scratch_new(size_t bytes) { return pool_new(&scratch, bytes); }

FpoMark fpo_scratch_mark(void) { return (FpoMark){scratch.blocks, scratch.bump, scratch.end}; }

void fpo_scratch_release(FpoMark m) { pool_release(&scratch, m.block, m.bump, m.end); }

void *fpo_heap_new(size_t bytes) {
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p) {
        fputs("fpo-gen: out of memory\n", stderr);
        exit(2);
    }
    return p;
}

void fpo_arena_free(void) {
    pool_release(&scratch, NULL, NULL, NULL);
    while (texts) {
        Text *next = texts->next;
        free(texts);
        texts = next;
    }
    pool_release(&arena, NULL, NULL, NULL);
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

/* The storage of a buffer's text s, off the list (while realloc may move it, or to free it). */
static Text *text_unlink(char *s) {
    Text *t = (Text *)(void *)(s - offsetof(Text, data));
    if (t->prev)
        t->prev->next = t->next;
    else
        texts = t->next;
    if (t->next)
        t->next->prev = t->prev;
    return t;
}

/* t, of cap bytes of text (realloc's NULL: out of memory), back on the list, as b's storage. */
static void text_link(Buf *b, Text *t, size_t cap) {
    if (!t) {
        fputs("fpo-gen: out of memory\n", stderr);
        exit(2);
    }
    t->prev = NULL;
    t->next = texts;
    if (texts)
        texts->prev = t;
    texts = t;
    b->s = (char *)t->data;
    b->cap = cap;
}

/* b's block made cap bytes of text (and moved) by realloc. */
static void text_resize(Buf *b, size_t cap) {
    text_link(b, realloc(b->s ? text_unlink(b->s) : NULL, sizeof(Text) + cap), cap);
}

/* Room for n more bytes and a NUL in b: its block grown by doubling. */
static void buf_room(Buf *b, size_t n) {
    if (b->len + n + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (b->len + n + 1 > cap)
        cap *= 2;
    text_resize(b, cap);
}

void buf_reserve(Buf *b, size_t n) {
    if (b->len + n + 1 > b->cap)
        text_resize(b, b->len + n + 1);
}

void fpo_text_free(char *s) {
    if (s)
        free(text_unlink(s));
}

void buf_free(Buf *b) {
    fpo_text_free(b->s);
    *b = (Buf){0};
}

char *buf_fit(Buf *b) {
    buf_add(b, "");
    if (b->cap > b->len + 1) {
        Text *t = text_unlink(b->s), *fit = realloc(t, sizeof(Text) + b->len + 1);
        if (fit)
            text_link(b, fit, b->len + 1);
        else   /* (kept as it was) */
            text_link(b, t, b->cap);
    }
    return b->s;
}

void buf_addn(Buf *b, const char *s, size_t n) {
    buf_room(b, n);
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

void buf_add(Buf *b, const char *s) { buf_addn(b, s, strlen(s)); }

void buf_printf(Buf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    size_t room = b->cap > b->len ? b->cap - b->len : 0;
    int n = vsnprintf(room ? b->s + b->len : NULL, room, fmt, ap);
    va_end(ap);
    if ((size_t)n >= room) {   /* it did not fit: grow, and print again */
        buf_room(b, (size_t)n);
        va_start(ap, fmt);
        vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    b->len += (size_t)n;
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
