/* em_test.h: the check macro of the example model's tests: a failed check prints where and
 * why and counts; main returns the count. */
#ifndef EM_TEST_H
#define EM_TEST_H
#include <stdio.h>

static int em_failures;
#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (!(cond)) {                                                     \
            em_failures++;                                                 \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                  \
            fputc('\n', stderr);                                           \
        }                                                                  \
    } while (0)
#endif
