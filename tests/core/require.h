/* Cheap assertions for hot loops: Check's ck_assert_* write a checkpoint
 * to the runner on every call (one syscall each), which dominates loops
 * over hundreds of thousands of addresses. These only cost a branch. */
#ifndef LPM_TEST_REQUIRE_H
#define LPM_TEST_REQUIRE_H

#include <check.h>

#define REQUIRE(c)                                                  \
    do {                                                            \
        if (!(c))                                                   \
            ck_abort_msg("%s:%d: failed: %s", __FILE__, __LINE__, #c); \
    } while (0)
#define REQUIRE_MSG(c, ...)         \
    do {                            \
        if (!(c))                   \
            ck_abort_msg(__VA_ARGS__); \
    } while (0)

#endif
