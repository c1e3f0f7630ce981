// Atomics of every width, type and scope, including atomicCAS loops on doubles and 16-bit CAS.
#include <cstdint>

__global__ void atomic_add_types(int* i32, unsigned* u32, unsigned long long* u64, float* f32, double* f64) {
    atomicAdd(i32, 1);
    atomicAdd(u32, threadIdx.x);
    atomicAdd(u64, 1ull << 33);
    atomicAdd(f32, 0.5f);
    atomicAdd(f64, 0.25);
}

__global__ void atomic_minmax(int* imin, int* imax, unsigned* umin, unsigned* umax, long long* lmin,
                              unsigned long long* ulmax, const int* v) {
    int x = v[blockIdx.x * blockDim.x + threadIdx.x];
    atomicMin(imin, x);
    atomicMax(imax, x);
    atomicMin(umin, (unsigned)x);
    atomicMax(umax, (unsigned)x);
    atomicMin(lmin, (long long)x * 3);
    atomicMax(ulmax, (unsigned long long)x << 20);
}

__global__ void atomic_bitwise(unsigned* a, unsigned* o, unsigned* x, unsigned long long* a64,
                               unsigned long long* o64, unsigned long long* x64) {
    unsigned bit = 1u << (threadIdx.x & 31);
    atomicAnd(a, ~bit);
    atomicOr(o, bit);
    atomicXor(x, bit);
    atomicAnd(a64, ~(1ull << (threadIdx.x & 63)));
    atomicOr(o64, 1ull << (threadIdx.x & 63));
    atomicXor(x64, 1ull << (threadIdx.x & 63));
}

__global__ void atomic_exch_incdec(int* e, unsigned long long* e64, float* ef, unsigned* inc, unsigned* dec, int* sub,
                                   int* old_out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    old_out[i] = atomicExch(e, i);
    atomicExch(e64, (unsigned long long)i);
    atomicExch(ef, (float)i);
    atomicInc(inc, 100u);
    atomicDec(dec, 100u);
    atomicSub(sub, 3);
}

__device__ double atomic_max_double(double* addr, double v) {
    unsigned long long* p = (unsigned long long*)addr;
    unsigned long long old = *p, assumed;
    do {
        assumed = old;
        if (__longlong_as_double(assumed) >= v) break;
        old = atomicCAS(p, assumed, __double_as_longlong(v));
    } while (assumed != old);
    return __longlong_as_double(old);
}

__device__ double atomic_mul_double(double* addr, double v) {
    unsigned long long* p = (unsigned long long*)addr;
    unsigned long long old = *p, assumed;
    do {
        assumed = old;
        old = atomicCAS(p, assumed, __double_as_longlong(v * __longlong_as_double(assumed)));
    } while (assumed != old);
    return __longlong_as_double(old);
}

__device__ float atomic_min_float(float* addr, float v) {
    int* p = (int*)addr;
    int old = *p, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) <= v) break;
        old = atomicCAS(p, assumed, __float_as_int(v));
    } while (assumed != old);
    return __int_as_float(old);
}

__global__ void cas_loops(double* dmax, double* dmul, float* fmin, const double* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomic_max_double(dmax, in[i]);
    atomic_mul_double(dmul, 1.0 + in[i] * 1e-6);
    atomic_min_float(fmin, (float)in[i]);
}

__global__ void cas16(unsigned short* p, unsigned short* out) {
    unsigned short old = *p, assumed;
    do {
        assumed = old;
        old = atomicCAS(p, assumed, (unsigned short)(assumed + 1));
    } while (old != assumed);
    out[blockIdx.x * blockDim.x + threadIdx.x] = old;
}

__global__ void atomic_scopes(int* blk, int* sys, unsigned long long* blk64, float* fsys, double* dblk) {
    atomicAdd_block(blk, 1);
    atomicAdd_system(sys, 1);
    atomicMax_block(blk + 1, (int)threadIdx.x);
    atomicCAS_block(blk + 2, 0, 1);
    atomicExch_system(sys + 1, (int)threadIdx.x);
    atomicAdd_block(blk64, 2ull);
    atomicAdd_system(fsys, 1.0f);
    atomicAdd_block(dblk, 1.0);
    atomicOr_system((unsigned*)sys + 2, 1u << (threadIdx.x & 31));
}

__global__ void shared_atomics(const int* keys, int* hist, int n) {
    __shared__ int local[64];
    __shared__ unsigned long long wide[8];
    __shared__ float fs[8];
    if (threadIdx.x < 64) local[threadIdx.x] = 0;
    if (threadIdx.x < 8) { wide[threadIdx.x] = 0; fs[threadIdx.x] = 0.f; }
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        atomicAdd(&local[keys[i] & 63], 1);
        atomicAdd(&wide[keys[i] & 7], (unsigned long long)keys[i]);
        atomicAdd(&fs[keys[i] & 7], 1.0f);
        atomicMax(&local[(keys[i] >> 6) & 63], keys[i]);
    }
    __syncthreads();
    if (threadIdx.x < 64) atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
    if (threadIdx.x < 8) atomicAdd((unsigned long long*)&hist[64 + 2 * threadIdx.x], wide[threadIdx.x] + (unsigned long long)fs[threadIdx.x]);
}

__global__ void ticket_lock(int* lock, int* counter, int* out) {
    if (threadIdx.x == 0) {
        while (atomicCAS(lock, 0, 1) != 0) {}
        __threadfence();
        int c = *counter;
        *counter = c + 1;
        out[blockIdx.x] = c;
        __threadfence();
        atomicExch(lock, 0);
    }
}

__global__ void red_no_return(unsigned* a, unsigned long long* b, float* c) {
    atomicAdd(a, 1u);
    atomicAdd(b, 1ull);
    atomicAdd(c, 1.f);
}
