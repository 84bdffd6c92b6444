// The two floors an exhaustive sweep cannot go below (tools/bench-sweeps
// prints each sweep as a multiple of the larger):
//   device: the adapter, loaded in this process through its C ABI, computes
//           the function over every input of the sweep's domain in the
//           sweep's chunks (write, run, read), nothing checked;
//   oracle: kcs::ref decides the correctly rounded result of every input of
//           the domain on every core (the batch oracle of C-CMP-01; the RNE
//           conversion for a cast), no device.
// The domain is the sweep's: every finite f32 pattern for the unary
// functions, all 2^32 patterns for the casts.
//
//   bench_sweep_floor ADAPTER_LIBRARY SWEEP [KEY=VALUE ...]
//     SWEEP: exp log tanh erf gelu sigmoid rsqrt cast-f16 cast-bf16
//     KEY=VALUE: the adapter's open() options
// Prints "device_s N" and "oracle_s N", one per line. Exit 2 on a usage error.
#include <kcs/adapter.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "kcs/reference/formats.hpp"
#include "kcs/reference/unary_functions.hpp"
#include "loaded_adapter.hpp"

namespace {

constexpr std::uint64_t kChunk = std::uint64_t{1} << 22;  // the sweep's default chunk (exhaustive_sweep.hpp)
constexpr std::size_t kOracleBlock = 4096;                // the sweep's oracle batch

struct Sweep {
    std::optional<kcs::ref::UnaryFunction> function;  // none: a cast
    kcs_dtype output = KCS_DTYPE_F32;
    std::string name;
};

// The domain as ranges of patterns [first, last): finite f32 of both signs,
// or every pattern for a cast.
std::vector<std::pair<std::uint64_t, std::uint64_t>> domain(const Sweep& s) {
    if (!s.function) return {{0, std::uint64_t{1} << 32}};
    return {{0, 0x7F800000u}, {0x80000000u, 0xFF800000u}};
}

// Calls f(first_pattern, count) over the domain in pieces of at most `piece`.
template <typename F>
void for_pieces(const Sweep& s, std::uint64_t piece, F&& f) {
    for (const auto& [first, last] : domain(s))
        for (std::uint64_t p = first; p < last; p += piece) f(p, std::min(piece, last - p));
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

kcs_tensor vector_tensor(kcs_buffer buffer, kcs_dtype dtype, std::int64_t count) {
    kcs_tensor t{};
    t.buffer = buffer;
    t.dtype = dtype;
    t.rank = 1;
    t.shape[0] = count;
    t.strides[0] = 1;
    return t;
}

double device_floor(kcs::device::bench::LoadedAdapter& adapter, const Sweep& s) {
    const std::uint64_t out_bytes = s.output == KCS_DTYPE_F32 ? 4 : 2;
    const kcs_buffer in = adapter.alloc(kChunk * 4), out = adapter.alloc(kChunk * out_bytes);
    std::vector<std::uint32_t> x(kChunk);
    std::vector<std::byte> y(kChunk * out_bytes);
    const std::string function = s.function ? s.name : std::string();
    const auto start = std::chrono::steady_clock::now();
    for_pieces(s, kChunk, [&](std::uint64_t first, std::uint64_t count) {
        for (std::uint64_t k = 0; k < count; ++k) x[k] = static_cast<std::uint32_t>(first + k);
        adapter.write(in, x.data(), count * 4);
        const kcs_tensor input = vector_tensor(in, KCS_DTYPE_F32, static_cast<std::int64_t>(count));
        const kcs_tensor output = vector_tensor(out, s.output, static_cast<std::int64_t>(count));
        kcs_op op{};
        op.struct_size = sizeof op;
        op.name = s.function ? "unary" : "cast";
        op.function = s.function ? function.c_str() : nullptr;
        op.input_count = 1;
        op.inputs = &input;
        op.output_count = 1;
        op.outputs = &output;
        op.attribute_size = sizeof(kcs_attribute);
        op.tensor_size = sizeof(kcs_tensor);
        adapter.run(op);
        adapter.read(out, y.data(), count * out_bytes);
    });
    return seconds_since(start);
}

double oracle_floor(const Sweep& s) {
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::pair<std::uint64_t, std::uint64_t>> pieces;  // (first pattern, count), dealt to the threads in turn
    for_pieces(s, kChunk, [&](std::uint64_t first, std::uint64_t count) { pieces.emplace_back(first, count); });
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    std::vector<std::uint64_t> sink(threads, 0);  // keeps the results live
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            std::uint32_t x[kOracleBlock], y[kOracleBlock];
            for (std::size_t c = t; c < pieces.size(); c += threads) {
                const std::uint64_t end = pieces[c].first + pieces[c].second;
                for (std::uint64_t p = pieces[c].first; p < end; p += kOracleBlock) {
                    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(kOracleBlock, end - p));
                    for (std::size_t k = 0; k < n; ++k) x[k] = static_cast<std::uint32_t>(p + k);
                    if (s.function) {
                        kcs::ref::correctly_rounded_batch(*s.function, kcs::ref::Format::f32, std::span(x, n), std::span(y, n));
                    } else {  // the batch conversion the sweep's judge uses
                        float wide[kOracleBlock];
                        std::uint16_t narrow[kOracleBlock];
                        for (std::size_t k = 0; k < n; ++k) wide[k] = std::bit_cast<float>(x[k]);
                        if (s.output == KCS_DTYPE_F16) kcs::ref::f32_to_f16(wide, narrow, n);
                        else kcs::ref::f32_to_bf16(wide, narrow, n);
                        for (std::size_t k = 0; k < n; ++k) y[k] = narrow[k];
                    }
                    sink[t] += y[n - 1];
                }
            }
        });
    for (auto& thread : pool) thread.join();
    const double took = seconds_since(start);
    std::uint64_t all = 0;
    for (const auto v : sink) all += v;
    std::fprintf(stderr, "oracle checksum %llu\n", static_cast<unsigned long long>(all));
    return took;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: bench_sweep_floor ADAPTER_LIBRARY SWEEP [KEY=VALUE ...]\n"
                     "  SWEEP: exp log tanh erf gelu sigmoid rsqrt cast-f16 cast-bf16\n";
        return 2;
    }
    Sweep sweep;
    sweep.name = argv[2];
    if (sweep.name == "cast-f16" || sweep.name == "cast-bf16") {
        sweep.output = sweep.name == "cast-f16" ? KCS_DTYPE_F16 : KCS_DTYPE_BF16;
    } else if (const auto f = kcs::ref::parse_unary_function(sweep.name)) {
        sweep.function = f;
    } else {
        std::cerr << "bench_sweep_floor: unknown sweep '" << sweep.name << "'\n";
        return 2;
    }
    try {
        kcs::device::bench::LoadedAdapter adapter(argv[1], std::vector<std::string>(argv + 3, argv + argc));
        std::cout << "device_s " << device_floor(adapter, sweep) << "\n" << std::flush;
        std::cout << "oracle_s " << oracle_floor(sweep) << "\n";
    } catch (const std::exception& e) {
        std::cerr << "bench_sweep_floor: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
