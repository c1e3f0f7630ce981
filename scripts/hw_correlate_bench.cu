// SPDX-License-Identifier: Apache-2.0
// Hardware-correlation benchmark (scripts/hw_correlate): library kernels as one ordinary CUDA
// program, each launched through a wrapper that stamps clock64() and %globaltimer at every CTA's
// start and end. The same binary runs on a real GPU and under `stacksim cuda`, so both sides
// measure the same PTX the same way. Prints one CSV row per case (--header: the header).
// Usage: hw_correlate_bench --header | hw_correlate_bench KERNEL SIZE
//   KERNEL: vecadd saxpy stream_copy matmul reduction pchase_small pchase_large
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// The library's kernels become device functions that the timed wrappers below call, inlined so
// that their __shared__ arrays are the wrapper kernel's own (stacksim does not allocate .shared
// declared inside a .func).
#pragma push_macro("__global__")
#undef __global__
#define __global__ __device__ __forceinline__
#include "workloads/kernels/matmul.cu"
#include "workloads/kernels/pchase.cu"
#include "workloads/kernels/reduction.cu"
#include "workloads/kernels/saxpy.cu"
#include "workloads/kernels/stream.cu"
#include "workloads/kernels/vecadd.cu"
#pragma pop_macro("__global__")

#define CHECK(call)                                                                          \
    do {                                                                                     \
        cudaError_t e_ = (call);                                                             \
        if (e_ != cudaSuccess) {                                                             \
            std::fprintf(stderr, "hw_correlate_bench: %s: %s\n", #call, cudaGetErrorString(e_)); \
            std::exit(1);                                                                    \
        }                                                                                    \
    } while (0)

/// Per CTA: clock64 at start and end, globaltimer (ns) at start and end.
struct CtaStamp {
    unsigned long long clk0, clk1, ns0, ns1;
};

__device__ unsigned long long global_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ bool cta_leader() { return threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0; }
__device__ unsigned cta_index() { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }

#define TIMED(body)                                   \
    const bool lead = cta_leader();                   \
    CtaStamp s{};                                     \
    if (lead) {                                       \
        s.ns0 = global_ns();                          \
        s.clk0 = clock64();                           \
    }                                                 \
    body;                                             \
    __syncthreads();                                  \
    if (lead) {                                       \
        s.clk1 = clock64();                           \
        s.ns1 = global_ns();                          \
        stamps[cta_index()] = s;                      \
    }

extern "C" __global__ void timed_vecadd(const float* a, const float* b, float* c, int n, CtaStamp* stamps) {
    TIMED(vecadd(a, b, c, n))
}
extern "C" __global__ void timed_saxpy(float a, const float* x, float* y, int n, CtaStamp* stamps) {
    TIMED(saxpy(a, x, y, n))
}
extern "C" __global__ void timed_stream_copy(const float4* a, float4* b, int n, CtaStamp* stamps) {
    TIMED(stream_copy(a, b, n))
}
extern "C" __global__ void timed_matmul(const float* A, const float* B, float* C, int n, CtaStamp* stamps) {
    TIMED(matmul(A, B, C, n))
}
extern "C" __global__ void timed_reduction(const unsigned* in, unsigned* out, int n, CtaStamp* stamps) {
    TIMED(reduction(in, out, n))
}
extern "C" __global__ void timed_pchase(const unsigned* next, unsigned* out, unsigned start, int steps,
                                        CtaStamp* stamps) {
    TIMED(pchase(next, out, start, steps))
}

namespace {

const char* kHeader =
    "gpu,sms,sm_clock_mhz,mem_clock_mhz,driver,runtime,kernel,size,grid,block,ctas,event_us,span_ns,"
    "cta_cycles_mean,cta_cycles_max,verified";

struct Launch {
    dim3 grid, block;
};

template <class T>
T* upload(const std::vector<T>& h) {
    T* d = nullptr;
    CHECK(cudaMalloc(&d, h.size() * sizeof(T) + 16));
    CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

template <class T>
std::vector<T> download(const T* d, size_t n) {
    std::vector<T> h(n);
    CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

unsigned ctas_of(const Launch& l) { return l.grid.x * l.grid.y * l.grid.z; }

}  // namespace

int main(int argc, char** argv) {
    if (argc == 2 && std::strcmp(argv[1], "--header") == 0) {
        std::printf("%s\n", kHeader);
        return 0;
    }
    if (argc != 3) {
        std::fprintf(stderr, "usage: hw_correlate_bench --header | hw_correlate_bench KERNEL SIZE\n");
        return 2;
    }
    const std::string kernel = argv[1];
    const int n = std::atoi(argv[2]);
    if (n <= 0) {
        std::fprintf(stderr, "hw_correlate_bench: SIZE must be positive\n");
        return 2;
    }
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int clock_khz = 0, mem_khz = 0, driver = 0, runtime = 0;
    CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0));
    CHECK(cudaDriverGetVersion(&driver));
    CHECK(cudaRuntimeGetVersion(&runtime));

    Launch l{};
    std::vector<void*> frees;
    bool verified = false;
    CtaStamp* stamps = nullptr;
    auto stamps_for = [&](const Launch& L) {
        CHECK(cudaMalloc(&stamps, ctas_of(L) * sizeof(CtaStamp)));
        CHECK(cudaMemset(stamps, 0, ctas_of(L) * sizeof(CtaStamp)));
    };
    // Each case: a warm-up launch, then the timed one (the last launch is the one compared).
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    float ms = 0;
    auto timed = [&](auto launch) {
        launch();
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaEventRecord(e0));
        launch();
        CHECK(cudaEventRecord(e1));
        CHECK(cudaGetLastError());
        CHECK(cudaEventSynchronize(e1));
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
    };
    if (kernel == "vecadd" || kernel == "saxpy") {
        std::vector<float> a(n), b(n);
        for (int i = 0; i < n; ++i) {
            a[i] = static_cast<float>(i % 13) * 0.5f;
            b[i] = static_cast<float>(i % 7) - 3.0f;
        }
        float *da = upload(a), *db = upload(b), *dc = nullptr;
        CHECK(cudaMalloc(&dc, n * sizeof(float)));
        l = {dim3((n + 255) / 256), dim3(256)};
        stamps_for(l);
        if (kernel == "vecadd") {
            timed([&] { timed_vecadd<<<l.grid, l.block>>>(da, db, dc, n, stamps); });
            const auto c = download(dc, n);
            verified = true;
            for (int i = 0; i < n; ++i) verified = verified && c[i] == a[i] + b[i];
        } else {
            timed([&] { timed_saxpy<<<l.grid, l.block>>>(2.0f, da, db, n, stamps); });
            const auto y = download(db, n);  // two launches: y = 4a + b
            verified = true;
            for (int i = 0; i < n; ++i) verified = verified && y[i] == 2.0f * a[i] + (2.0f * a[i] + b[i]);
        }
        frees = {da, db, dc};
    } else if (kernel == "stream_copy") {
        std::vector<float4> a(n);
        for (int i = 0; i < n; ++i) a[i] = make_float4(i, i + 1, i + 2, i + 3);
        float4 *da = upload(a), *db = nullptr;
        CHECK(cudaMalloc(&db, n * sizeof(float4)));
        l = {dim3((n + 255) / 256), dim3(256)};
        stamps_for(l);
        timed([&] { timed_stream_copy<<<l.grid, l.block>>>(da, db, n, stamps); });
        const auto b = download(db, n);
        verified = true;
        for (int i = 0; i < n; ++i) verified = verified && b[i].x == a[i].x && b[i].w == a[i].w;
        frees = {da, db};
    } else if (kernel == "matmul") {
        std::vector<float> a(size_t(n) * n), b(size_t(n) * n);
        for (size_t i = 0; i < a.size(); ++i) {
            a[i] = static_cast<float>(i % 5);
            b[i] = static_cast<float>(i % 3);
        }
        float *da = upload(a), *db = upload(b), *dc = nullptr;
        CHECK(cudaMalloc(&dc, a.size() * sizeof(float)));
        l = {dim3((n + 15) / 16, (n + 15) / 16), dim3(16, 16)};
        stamps_for(l);
        timed([&] { timed_matmul<<<l.grid, l.block>>>(da, db, dc, n, stamps); });
        const auto c = download(dc, a.size());
        verified = true;
        for (int r = 0; r < n; r += (n > 64 ? n / 16 : 1))  // sampled rows, every column
            for (int col = 0; col < n; ++col) {
                float acc = 0;
                for (int k = 0; k < n; ++k) acc += a[size_t(r) * n + k] * b[size_t(k) * n + col];
                verified = verified && c[size_t(r) * n + col] == acc;
            }
        frees = {da, db, dc};
    } else if (kernel == "reduction") {
        std::vector<unsigned> in(n);
        for (int i = 0; i < n; ++i) in[i] = static_cast<unsigned>(i % 10);
        unsigned *din = upload(in), *dout = nullptr;
        l = {dim3((n + 511) / 512), dim3(256)};
        CHECK(cudaMalloc(&dout, sizeof(unsigned)));
        CHECK(cudaMemset(dout, 0, sizeof(unsigned)));
        stamps_for(l);
        timed([&] { timed_reduction<<<l.grid, l.block>>>(din, dout, n, stamps); });
        unsigned want = 0;  // every CTA adds its sum into out[0]: twice the total after two launches
        for (unsigned v : in) want += v;
        verified = download(dout, 1)[0] == 2 * want;
        frees = {din, dout};
    } else if (kernel == "pchase_small" || kernel == "pchase_large") {
        // A chain over 16 KB (cache-resident after the warm-up) or 64 MB (beyond every L2), one
        // 128-byte line per step, in a fixed pseudo-random order; n steps.
        const size_t words = kernel == "pchase_small" ? 4096 : 16u << 20, stride = 32, lines = words / stride;
        std::vector<unsigned> next(words, 0), order(lines);
        for (size_t i = 0; i < lines; ++i) order[i] = static_cast<unsigned>(i);
        unsigned long long x = 12345;
        for (size_t i = lines - 1; i > 0; --i) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            std::swap(order[i], order[(x >> 33) % (i + 1)]);
        }
        for (size_t i = 0; i < lines; ++i) next[order[i] * stride] = order[(i + 1) % lines] * stride;
        unsigned *dnext = upload(next), *dout = nullptr;
        CHECK(cudaMalloc(&dout, sizeof(unsigned)));
        l = {dim3(1), dim3(1)};
        stamps_for(l);
        timed([&] { timed_pchase<<<l.grid, l.block>>>(dnext, dout, 0, n, stamps); });
        unsigned want = 0;
        for (int i = 0; i < n; ++i) want = next[want];
        verified = download(dout, 1)[0] == want;
        frees = {dnext, dout};
    } else {
        std::fprintf(stderr, "hw_correlate_bench: unknown kernel '%s'\n", kernel.c_str());
        return 2;
    }
    const auto st = download(stamps, ctas_of(l));
    double sum = 0;
    unsigned long long mx = 0, ns_lo = ~0ull, ns_hi = 0;
    for (const CtaStamp& s : st) {
        const unsigned long long c = s.clk1 - s.clk0;
        sum += static_cast<double>(c);
        mx = c > mx ? c : mx;
        ns_lo = s.ns0 < ns_lo ? s.ns0 : ns_lo;
        ns_hi = s.ns1 > ns_hi ? s.ns1 : ns_hi;
    }
    std::string name = prop.name;
    for (char& ch : name)
        if (ch == ',') ch = ' ';
    std::printf("%s,%d,%.0f,%.0f,%d,%d,%s,%d,%ux%ux%u,%ux%ux%u,%u,%.3f,%llu,%.1f,%llu,%d\n", name.c_str(),
                prop.multiProcessorCount, clock_khz / 1000.0, mem_khz / 1000.0, driver, runtime, kernel.c_str(), n,
                l.grid.x, l.grid.y, l.grid.z, l.block.x, l.block.y, l.block.z, ctas_of(l), ms * 1000.0,
                ns_hi - ns_lo, sum / st.size(), mx, verified ? 1 : 0);
    for (void* p : frees) CHECK(cudaFree(p));
    CHECK(cudaFree(stamps));
    return verified ? 0 : 1;
}
