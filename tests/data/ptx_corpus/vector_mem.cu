// Vector loads and stores, read-only loads (__ldg), cache-hinted loads and stores.
#include <cstdint>

__global__ void copy_float4(const float4* __restrict__ in, float4* __restrict__ out, int n4) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 v = in[i];
        v.x *= 2.f; v.y *= 2.f; v.z *= 2.f; v.w *= 2.f;
        out[i] = v;
    }
}

__global__ void copy_int4_ldg(const int4* __restrict__ in, int4* out, int n4) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        int4 v = __ldg(&in[i]);
        out[i] = make_int4(v.w, v.z, v.y, v.x);
    }
}

__global__ void double2_axpy(const double2* x, double2* y, double a, int n2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2) {
        double2 xv = __ldg(&x[i]), yv = y[i];
        yv.x += a * xv.x;
        yv.y += a * xv.y;
        y[i] = yv;
    }
}

__global__ void ldg_scalar(const float* __restrict__ a, const int* __restrict__ idx, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __ldg(&a[__ldg(&idx[i])]) + __ldg(&a[i]);
}

__global__ void streaming_hints(const float* a, float* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = __ldcs(&a[i]) + __ldcg(&a[(i + 1) % n]) + __ldca(&a[(i + 2) % n]) + __ldlu(&a[(i + 3) % n]);
        __stcs(&b[i], v);
        __stwt(&b[(i + 1) % n], v * 0.5f);
        __stcg(&b[(i + 2) % n], v * 0.25f);
    }
}

__global__ void uchar4_brighten(const uchar4* in, uchar4* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        uchar4 p = in[i];
        out[i] = make_uchar4(min(p.x + 20, 255), min(p.y + 20, 255), min(p.z + 20, 255), p.w);
    }
}

__global__ void short2_sum(const short2* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        short2 v = in[i];
        out[i] = v.x + v.y;
    }
}

__global__ void float2_complex_mul(const float2* a, const float2* b, float2* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float2 x = a[i], y = b[i];
        c[i] = make_float2(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);
    }
}

__global__ void volatile_poll(volatile int* flag, int* out) {
    if (threadIdx.x == 0) {
        int spins = 0;
        while (*flag == 0 && spins < 1000) ++spins;
        out[blockIdx.x] = spins;
    }
}
