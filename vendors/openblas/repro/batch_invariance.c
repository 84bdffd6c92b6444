/* C-ORD-03 (batch invariance) on OpenBLAS, without KCS: one row a of A
 * (1 x K) times B (K x N) by cblas_sgemm alone (M = 1), then as row p of
 * an M x K matrix A whose other rows are other N(0,1) values, for the
 * batch sizes and positions of the quick C-ORD-03 case
 * (v1/C-ORD-03/matmul/f32xf32-f32/batch-sizes-sweep: K = N = 128,
 * row-major, alpha 1, beta 0, as the adapter calls it). Each output row
 * is compared bit for bit with the row alone.
 *
 * KCS found the row's output changing with its position in the batch
 * (signature row-changes-with-position): with 7 rows, rows 0 and 3 differ
 * from the row alone and row 6 does not. The data here are not KCS's (its
 * generator is its own) but are drawn the same way: N(0,1) for a, B and the
 * other rows.
 *
 * Usage: batch_invariance [--threads T] [--n N] [--scan]
 *   --threads T  openblas_set_num_threads(T) first (default: OpenBLAS's own)
 *   --n N        columns of B and C (default 128; the pool of the case has 512)
 *   --scan       also print, for every M from 1 to 64, which rows of the
 *                batch differ from their row alone
 * Exit 0: the behaviour KCS reported is seen (some row changes, and with
 * the batch size fixed the change depends on the row's position);
 * 1: it is not (every row equal, or the change no longer follows the
 * position): the library no longer behaves as FINDINGS.md says;
 * 2: a usage error or a row alone that differs between two calls. */
#include <cblas.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K = 128 };

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

/* C = A B for M rows of A (row-major), as the adapter calls cblas_sgemm. */
static void gemm(int m, int n, const float* a, const float* b, float* c) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, K, 1.0f, a, K, b, n, 0.0f, c, n);
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

int main(int argc, char** argv) {
    int n = 128, scan = 0;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--threads") && i + 1 < argc) openblas_set_num_threads(atoi(argv[++i]));
        else if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--scan")) scan = 1;
        else {
            fprintf(stderr, "usage: %s [--threads T] [--n N] [--scan]\n", argv[0]);
            return 2;
        }
    }
    if (n < 1) return 2;
    printf("OpenBLAS %s, core %s, %d threads; K = %d, N = %d\n", openblas_get_config(), openblas_get_corename(),
           openblas_get_num_threads(), K, n);

    enum { MAX_M = 1024 };
    float* b = malloc(sizeof(float) * K * n);
    float* a = malloc(sizeof(float) * MAX_M * K);
    float* row = malloc(sizeof(float) * K);
    float* alone = malloc(sizeof(float) * n);
    float* again = malloc(sizeof(float) * n);
    float* c = malloc(sizeof(float) * MAX_M * n);
    if (!b || !a || !row || !alone || !again || !c) return 2;
    fill_normal(row, K, 1);
    fill_normal(b, (size_t)K * n, 2);

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
            fill_normal(a, (size_t)m * K, 3);  /* the other rows */
            memcpy(a + (size_t)p * K, row, sizeof(float) * K);
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
        fill_normal(a, (size_t)64 * K, 3);
        float* each = malloc(sizeof(float) * 64 * n);
        for (int i = 0; i < 64; ++i) gemm(1, n, a + (size_t)i * K, b, each + (size_t)i * n);
        for (int m = 1; m <= 64; ++m) {
            gemm(m, n, a, b, c);
            printf("M = %2d: ", m);
            for (int i = 0; i < m; ++i) putchar(differing(c + (size_t)i * n, each + (size_t)i * n, n, &first) ? 'x' : '.');
            printf("\n");
        }
        free(each);
    }

    free(b), free(a), free(row), free(alone), free(again), free(c);
    if (changed && follows_position) {
        printf("SEEN: the row's output changes with the batch and its position in it, as KCS's C-ORD-03 FAIL "
               "(row-changes-with-position) says\n");
        return 0;
    }
    printf("NOT SEEN: %s; OpenBLAS no longer behaves as vendors/openblas/FINDINGS.md says: rerun "
           "`kcs certify --adapter openblas --op matmul` and revisit FINDINGS.md and claims.yaml (batch_invariant)\n",
           changed ? "the row changes, but not with its position" : "every row equals the row alone");
    return 1;
}
