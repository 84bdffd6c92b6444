/* The C-ORD-03 (batch invariance) repro of a BLAS library, without KCS:
 * one row a of A (1 x K) times B (K x N) by the library's sgemm alone
 * (M = 1), then as row p of an M x K matrix A whose other rows are other
 * N(0,1) values, for the batch sizes and positions of the quick C-ORD-03
 * case (v1/C-ORD-03/matmul/f32xf32-f32/batch-sizes-sweep: K = N = 128,
 * row-major, alpha 1, beta 0, as the adapters call it). Each output row is
 * compared bit for bit with the row alone. The data are not KCS's (its
 * generator is its own) but are drawn the same way: N(0,1) for a, B and
 * the other rows. Each library's repro (vendors/NAME/repro/) supplies its
 * sgemm and calls batch_invariance() from main(); the file is C and also
 * compiles as C++ (the oneDNN repro includes it).
 *
 * Usage: batch_invariance [--threads T] [--n N] [--scan]
 *   --threads T  the library's thread count first (default: its own)
 *   --n N        columns of B and C (default 128; the pool of the case has 512)
 *   --scan       also print, for every M from 1 to 64, which rows of the
 *                batch differ from their row alone
 * Exit 0: the behaviour KCS reported is seen; 1: it is not (the library no
 * longer behaves as its FINDINGS.md says); 2: a usage error or a row alone
 * that differs between two calls. */
#ifndef KCS_BLAS_BATCH_INVARIANCE_H
#define KCS_BLAS_BATCH_INVARIANCE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a library's repro supplies. */
struct BatchLibrary {
    const char* name;     /* "OpenBLAS" */
    const char* adapter;  /* its KCS adapter and vendors/ folder: "openblas" */
    int follows_position; /* KCS's FAIL: the change follows the row's position (1) or only the batch size (0) */
    /* C = A B for m rows of A (m x K), B (K x n), row-major, alpha 1, beta 0. */
    void (*gemm)(int m, int n, const float* a, const float* b, float* c);
    void (*set_threads)(int threads);
    void (*describe)(void); /* prints the library, its kernel choice and thread count */
};

enum { DEPTH = 128 }; /* K, the reduction length (blis.h takes the name K) */

/* splitmix64 and Box-Muller: N(0,1) values, reproducible from a seed. */
static uint64_t next_u64(uint64_t* s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static void fill_normal(float* x, size_t n, uint64_t seed) {
    for (size_t i = 0; i < n; ++i) {
        const double u1 = ((next_u64(&seed) >> 11) + 1.0) / 9007199254740993.0;
        const double u2 = (next_u64(&seed) >> 11) / 9007199254740992.0;
        x[i] = (float)(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
    }
}

static uint32_t bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* Elements of row `row` of c (n wide) that differ from ref in their bits;
 * the first one in *first. */
static int differing(const float* c, const float* ref, int n, int* first) {
    int count = 0;
    *first = -1;
    for (int j = 0; j < n; ++j)
        if (bits(c[j]) != bits(ref[j]) && count++ == 0) *first = j;
    return count;
}

/* Runs the repro over `lib`; main() returns what this returns. */
static int batch_invariance(const struct BatchLibrary* lib, int argc, char** argv) {
    void (*const gemm)(int, int, const float*, const float*, float*) = lib->gemm;
    int n = 128, scan = 0;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--threads") && i + 1 < argc) lib->set_threads(atoi(argv[++i]));
        else if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--scan")) scan = 1;
        else {
            fprintf(stderr, "usage: %s [--threads T] [--n N] [--scan]\n", argv[0]);
            return 2;
        }
    }
    if (n < 1) return 2;
    lib->describe();
    printf("K = %d, N = %d\n", DEPTH, n);

    enum { MAX_M = 1024 };
    /* The casts let a C++ repro (oneDNN's) include this file too. */
    float* b = (float*)malloc(sizeof(float) * DEPTH * n);
    float* a = (float*)malloc(sizeof(float) * MAX_M * DEPTH);
    float* row = (float*)malloc(sizeof(float) * DEPTH);
    float* alone = (float*)malloc(sizeof(float) * n);
    float* again = (float*)malloc(sizeof(float) * n);
    float* c = (float*)malloc(sizeof(float) * MAX_M * n);
    if (!b || !a || !row || !alone || !again || !c) return 2;
    fill_normal(row, DEPTH, 1);
    fill_normal(b, (size_t)DEPTH * n, 2);

    /* The row alone, twice: the reference, if it agrees with itself. */
    gemm(1, n, row, b, alone);
    gemm(1, n, row, b, again);
    int first;
    if (differing(again, alone, n, &first)) {
        printf("the row alone gives two outputs: no reference\n");
        return 2;
    }

    static const int sizes[] = {1, 2, 7, 64, 255, 1024};
    int changed = 0, follows_position = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; ++s) {
        const int m = sizes[s];
        const int positions[3] = {0, m / 2, m - 1};
        int counts[3];
        for (int q = 0; q < 3; ++q) {
            const int p = positions[q];
            fill_normal(a, (size_t)m * DEPTH, 3);  /* the other rows */
            memcpy(a + (size_t)p * DEPTH, row, sizeof(float) * DEPTH);
            gemm(m, n, a, b, c);
            counts[q] = differing(c + (size_t)p * n, alone, n, &first);
            printf("M = %4d, row at %4d: %3d of %d elements differ from the row alone", m, p, counts[q], n);
            if (counts[q])
                printf(" (e.g. column %d: alone 0x%08x, in the batch 0x%08x)", first, bits(alone[first]),
                       bits(c[(size_t)p * n + first]));
            printf("\n");
            changed |= counts[q] != 0;
            follows_position |= counts[q] != counts[0];
        }
    }

    if (scan) {
        /* Which rows of an M-row batch differ from their own value alone. */
        printf("rows of each batch that differ from their value alone ('x'), M = 1..64:\n");
        fill_normal(a, (size_t)64 * DEPTH, 3);
        float* each = (float*)malloc(sizeof(float) * 64 * n);
        for (int i = 0; i < 64; ++i) gemm(1, n, a + (size_t)i * DEPTH, b, each + (size_t)i * n);
        for (int m = 1; m <= 64; ++m) {
            gemm(m, n, a, b, c);
            printf("M = %2d: ", m);
            for (int i = 0; i < m; ++i) putchar(differing(c + (size_t)i * n, each + (size_t)i * n, n, &first) ? 'x' : '.');
            printf("\n");
        }
        free(each);
    }

    free(b), free(a), free(row), free(alone), free(again), free(c);
    /* KCS's signature: the change follows the row's position in the batch
     * (row-changes-with-position) or is the same at every position
     * (row-changes-with-batch). */
    const int seen = changed && follows_position == lib->follows_position;
    const char* signature = lib->follows_position ? "row-changes-with-position" : "row-changes-with-batch";
    if (seen) {
        printf("SEEN: the row's output changes with the batch%s, as KCS's C-ORD-03 FAIL (%s) says\n",
               lib->follows_position ? " and its position in it" : " size, the same at every position", signature);
        return 0;
    }
    printf("NOT SEEN: %s; %s no longer behaves as vendors/%s/FINDINGS.md says (%s): rerun "
           "`kcs certify --adapter %s --op matmul` and revisit FINDINGS.md and claims.yaml (batch_invariant)\n",
           !changed ? "every row equals the row alone"
                    : (follows_position ? "the row's change follows its position" : "the row changes, but not with its position"),
           lib->name, lib->adapter, signature, lib->adapter);
    return 1;
}

#endif
