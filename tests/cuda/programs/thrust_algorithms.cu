// SPDX-License-Identifier: Apache-2.0
// A Thrust program (the CUDA toolkit's own template library, CUB underneath): radix sort,
// reduction, inclusive scan, a transform with a functor and count_if on device_vectors, each
// checked against the CPU.
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <algorithm>
#include <cstdio>
#include <vector>

struct Saxpy {
    float a;
    __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

struct IsOdd {
    __host__ __device__ bool operator()(int v) const { return (v & 1) != 0; }
};

static int failed(const char* what, int i) {
    std::printf("FAILED: %s at %d\n", what, i);
    return 1;
}

int main() {
    const int n = 10000;
    std::vector<int> h(n);
    for (int i = 0; i < n; ++i) h[i] = (i * 7919) % 10007 - 5000;
    thrust::device_vector<int> d(h.begin(), h.end());

    thrust::sort(d.begin(), d.end());
    std::vector<int> sorted = h;
    std::sort(sorted.begin(), sorted.end());
    thrust::host_vector<int> s = d;
    for (int i = 0; i < n; ++i)
        if (s[i] != sorted[i]) return failed("sort", i);

    const long long sum = thrust::reduce(d.begin(), d.end(), 0LL);
    long long want = 0;
    for (int v : h) want += v;
    if (sum != want) return failed("reduce", 0);

    thrust::device_vector<int> scanned(n);
    thrust::inclusive_scan(d.begin(), d.end(), scanned.begin());
    thrust::host_vector<int> hs = scanned;
    int acc = 0;
    for (int i = 0; i < n; ++i) {
        acc += sorted[i];
        if (hs[i] != acc) return failed("inclusive_scan", i);
    }

    const int odd = static_cast<int>(thrust::count_if(d.begin(), d.end(), IsOdd()));
    if (odd != static_cast<int>(std::count_if(h.begin(), h.end(), [](int v) { return (v & 1) != 0; })))
        return failed("count_if", 0);

    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i % 13) * 0.5f;
        y[i] = static_cast<float>(i % 7) - 3.0f;
    }
    thrust::device_vector<float> dx(x.begin(), x.end()), dy(y.begin(), y.end()), dz(n);
    thrust::transform(dx.begin(), dx.end(), dy.begin(), dz.begin(), Saxpy{2.0f});
    thrust::host_vector<float> z = dz;
    for (int i = 0; i < n; ++i)  // small integers and halves: exact in float, fused or not
        if (z[i] != 2.0f * x[i] + y[i]) return failed("transform", i);

    std::printf("PASSED thrust_algorithms\n");
    return 0;
}
