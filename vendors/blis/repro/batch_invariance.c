/* C-ORD-03 (batch invariance) on BLIS, without KCS: the shared repro
 * (vendors/blas_common/repro/batch_invariance.h) over bli_sgemm, called
 * with row-major strides, alpha 1 and beta 0 as the adapter calls
 * bli_sgemm_ex.
 *
 * KCS found the row's output changing with the batch size alone
 * (signature row-changes-with-batch): equal to the row alone with 2 and 7
 * rows, different at every position with 64, 255 and 1024 (FINDINGS.md). */
#include <blis.h>

#include "batch_invariance.h"

static void gemm(int m, int n, const float* a, const float* b, float* c) {
    float one = 1.0f, zero = 0.0f;
    bli_sgemm(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, m, n, DEPTH, &one, (float*)a, DEPTH, 1, (float*)b, n, 1, &zero, c,
              n, 1);
}

static void set_threads(int threads) { bli_thread_set_num_threads(threads); }

static void describe(void) {
    /* BLIS answers -1 threads when neither BLIS_NUM_THREADS nor OMP_NUM_THREADS is set: it then runs one. */
    const long threads = (long)bli_thread_get_num_threads();
    printf("BLIS %s, arch %s, %ld threads\n", bli_info_get_version_str(), bli_arch_string(bli_arch_query_id()),
           threads > 0 ? threads : 1L);
}

int main(int argc, char** argv) {
    const struct BatchLibrary blis = {"BLIS", "blis", 0, gemm, set_threads, describe};
    return batch_invariance(&blis, argc, argv);
}
