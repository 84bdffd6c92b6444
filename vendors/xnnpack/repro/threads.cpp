// The xnnpack adapter's threads= knob, XNNPACK alone: every operator the
// adapter maps to, on the shapes certify's quick cases use most (and a few
// larger), run with no thread pool (the adapter's default), a pthreadpool
// of 1 thread and one of 2 threads, compared bit for bit. XNNPACK splits an
// operator among threads by whole tiles (rows and column blocks of fully
// connected, rows of softmax, blocks of elements), each computed by the
// same micro-kernel in the same order, so no bit should move.
// Usage: threads. Exit 0: every result is the same with 1 and 2 threads as
// without a pool (as expected); 1: one differs; 2: an XNNPACK error.
#include <pthreadpool.h>

#include <cstring>
#include <functional>
#include <memory>
#include <string>

#include "repro.hpp"

namespace {

// Normal(0, 1) values from a fixed seed, so every run sees the same data.
std::vector<float> normals(std::size_t n, std::uint32_t seed) {
    std::vector<float> v(n);
    std::uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
    const auto uniform = [&] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return (static_cast<double>(state >> 11) + 0.5) / 9007199254740992.0;
    };
    for (float& x : v)
        x = static_cast<float>(std::sqrt(-2 * std::log(uniform())) * std::cos(6.283185307179586 * uniform()));
    return v;
}

// One operator call writing `out_bytes` bytes, run on `pool` (nullptr: none).
using Call = std::function<void(pthreadpool_t pool, void* out)>;

struct Case {
    std::string name;
    std::size_t out_bytes;
    Call call;
};

Case fully_connected(std::size_t m, std::size_t k, std::size_t n) {
    auto a = std::make_shared<std::vector<float>>(repro::room(normals(m * k, 1)));
    auto b = std::make_shared<std::vector<float>>(normals(k * n, 2));
    return {"fully_connected " + std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n), m * n * 4,
            [=](pthreadpool_t pool, void* out) {
                xnn_operator_t op = nullptr;
                repro::check(xnn_create_fully_connected_nc_f32(k, n, k, n, b->data(), nullptr, -repro::kInf,
                                                               repro::kInf, XNN_FLAG_TRANSPOSE_WEIGHTS, &op),
                             "create fully connected");
                repro::check(xnn_setup_fully_connected_nc_f32(op, m, a->data(), static_cast<float*>(out), pool),
                             "setup fully connected");
                repro::check(xnn_run_operator(op, pool), "run");
                xnn_delete_operator(op);
            }};
}

Case softmax(std::size_t rows, std::size_t n) {
    auto x = std::make_shared<std::vector<float>>(repro::room(normals(rows * n, 3)));
    return {"softmax " + std::to_string(rows) + "x" + std::to_string(n), rows * n * 4,
            [=](pthreadpool_t pool, void* out) {
                xnn_operator_t op = nullptr;
                repro::check(xnn_create_softmax_nc_f32(n, n, n, 0, &op), "create softmax");
                repro::check(xnn_setup_softmax_nc_f32(op, rows, x->data(), static_cast<float*>(out), pool), "setup");
                repro::check(xnn_run_operator(op, pool), "run");
                xnn_delete_operator(op);
            }};
}

Case elementwise(const std::string& name, std::size_t n) {
    auto a = std::make_shared<std::vector<float>>(repro::room(normals(n, 4)));
    auto b = std::make_shared<std::vector<float>>(repro::room(normals(n, 5)));
    return {
        name + " " + std::to_string(n), n * 4, [=](pthreadpool_t pool, void* out) {
            xnn_operator_t op = nullptr;
            const std::size_t shape[1] = {n};
            float* y = static_cast<float*>(out);
            if (name == "sigmoid") {
                repro::check(xnn_create_sigmoid_nc_f32(n, n, n, 0, &op), "create sigmoid");
                repro::check(xnn_setup_sigmoid_nc_f32(op, 1, a->data(), y, pool), "setup");
            } else if (name == "add") {
                repro::check(xnn_create_add_nd_f32(-repro::kInf, repro::kInf, 0, &op), "create add");
                repro::check(xnn_setup_add_nd_f32(op, 1, shape, 1, shape, a->data(), b->data(), y, pool), "setup");
            } else if (name == "multiply") {
                repro::check(xnn_create_multiply_nd_f32(-repro::kInf, repro::kInf, 0, &op), "create multiply");
                repro::check(xnn_setup_multiply_nd_f32(op, 1, shape, 1, shape, a->data(), b->data(), y, pool), "setup");
            } else if (name == "maximum") {
                repro::check(xnn_create_maximum_nd_f32(0, &op), "create maximum");
                repro::check(xnn_setup_maximum_nd_f32(op, 1, shape, 1, shape, a->data(), b->data(), y, pool), "setup");
            } else {
                repro::check(xnn_create_convert_nc_f32_f16(n, n, n, 0, &op), "create convert");
                repro::check(xnn_setup_convert_nc_f32_f16(op, 1, a->data(), y, pool), "setup");
            }
            repro::check(xnn_run_operator(op, pool), "run");
            xnn_delete_operator(op);
        }};
}

}  // namespace

int main() {
    repro::init();
    const std::vector<Case> cases{
        fully_connected(1, 4096, 1),
        fully_connected(7, 1031, 33),
        fully_connected(64, 128, 512),
        fully_connected(255, 128, 512),
        fully_connected(128, 4096, 128),
        fully_connected(64, 64, 64),
        fully_connected(16, 65536, 16),
        softmax(128, 4096),
        softmax(1, 65537),
        softmax(7, 1031),
        elementwise("sigmoid", 65537),
        elementwise("add", 65537),
        elementwise("multiply", 65537),
        elementwise("maximum", 65537),
        elementwise("convert_f32_f16", 65537),
    };
    pthreadpool_t one = pthreadpool_create(1), two = pthreadpool_create(2);
    if (!one || !two) return 2;
    std::printf("pthreadpool threads: %zu and %zu\n", pthreadpool_get_threads_count(one),
                pthreadpool_get_threads_count(two));
    int differing = 0;
    for (const Case& c : cases) {
        std::vector<unsigned char> none(c.out_bytes), with_one(c.out_bytes), with_two(c.out_bytes);
        c.call(nullptr, none.data());
        c.call(one, with_one.data());
        c.call(two, with_two.data());
        const bool same = none == with_one && none == with_two;
        differing += !same;
        std::printf("  %-28s no pool / 1 thread / 2 threads: %s\n", c.name.c_str(), same ? "same bits" : "DIFFER");
    }
    pthreadpool_destroy(one);
    pthreadpool_destroy(two);
    std::printf("%s: %d of %zu calls change with the thread count (expected none)\n",
                differing == 0 ? "AS EXPECTED" : "UNEXPECTED", differing, cases.size());
    return differing == 0 ? 0 : 1;
}
