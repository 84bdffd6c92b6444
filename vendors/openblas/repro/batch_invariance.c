/* C-ORD-03 (batch invariance) on OpenBLAS, without KCS: the shared repro
 * (vendors/blas_common/repro/batch_invariance.h) over cblas_sgemm, called
 * as the adapter calls it (row-major, alpha 1, beta 0).
 *
 * KCS found the row's output changing with its position in the batch
 * (signature row-changes-with-position): with 7 rows, rows 0 and 3 differ
 * from the row alone and row 6 does not (FINDINGS.md). */
#include <cblas.h>

#include "batch_invariance.h"

static void gemm(int m, int n, const float* a, const float* b, float* c) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, DEPTH, 1.0f, a, DEPTH, b, n, 0.0f, c, n);
}

static void describe(void) {
    printf("OpenBLAS %s, core %s, %d threads\n", openblas_get_config(), openblas_get_corename(),
           openblas_get_num_threads());
}

int main(int argc, char** argv) {
    const struct BatchLibrary openblas = {"OpenBLAS", "openblas", 1, gemm, openblas_set_num_threads, describe};
    return batch_invariance(&openblas, argc, argv);
}
