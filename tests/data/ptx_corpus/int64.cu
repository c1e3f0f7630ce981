// 64-bit integer arithmetic: multiply-high, division, shifts, bit counts, hashing, 128-bit
// products from 64-bit halves.
#include <cstdint>

__global__ void mul_div64(const long long* a, const long long* b, long long* q, long long* r, unsigned long long* hi, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        long long d = b[i] ? b[i] : 1;
        q[i] = a[i] / d;
        r[i] = a[i] % d;
        hi[i] = __umul64hi((unsigned long long)a[i], (unsigned long long)b[i]) + (unsigned long long)__mul64hi(a[i], b[i]);
    }
}

__global__ void udiv64(const unsigned long long* a, const unsigned long long* b, unsigned long long* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] / (b[i] | 1) + a[i] % 1000000007ull;
}

__global__ void bits64(const unsigned long long* a, int* out, unsigned long long* rev, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = __popcll(a[i]) + 64 * __clzll(a[i]) + 4096 * __ffsll(a[i]);
        rev[i] = __brevll(a[i]);
    }
}

__device__ __forceinline__ uint64_t splitmix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

__global__ void hash64(uint64_t* out, uint64_t seed, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = splitmix64(seed + i);
}

__global__ void xorshift_rng(uint64_t* state, float* out, int n, int steps) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint64_t s = state[i];
    float acc = 0.f;
    for (int k = 0; k < steps; ++k) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        acc += (s >> 40) * (1.0f / 16777216.0f);
    }
    state[i] = s;
    out[i] = acc;
}

__global__ void wide_mul(const unsigned* a, const unsigned* b, unsigned long long* out, long long* sout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = (unsigned long long)a[i] * b[i];
        sout[i] = (long long)(int)a[i] * (int)b[i] + __mulhi((int)a[i], (int)b[i]) + __umulhi(a[i], b[i]);
    }
}

__global__ void mul128(const uint64_t* a, const uint64_t* b, uint64_t* lo, uint64_t* hi, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        lo[i] = a[i] * b[i];
        hi[i] = __umul64hi(a[i], b[i]);
    }
}

__global__ void shifts64(const long long* a, const int* s, long long* out, unsigned long long* uout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = (a[i] >> (s[i] & 63)) + (a[i] << (s[i] & 31));
        uout[i] = ((unsigned long long)a[i] >> (s[i] & 63)) | ((unsigned long long)a[i] << ((64 - s[i]) & 63));
    }
}

__global__ void gcd64(const unsigned long long* a, const unsigned long long* b, unsigned long long* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned long long x = a[i], y = b[i];
        while (y) { unsigned long long t = x % y; x = y; y = t; }
        out[i] = x;
    }
}
