// Fast math intrinsics (SFU approximations) and single-precision arithmetic with explicit
// rounding; compiled without -use_fast_math, intrinsics called explicitly.
__global__ void fast_trig(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __sinf(x[i]) + __cosf(x[i]) * __tanf(x[i] * 0.1f);
}

__global__ void fast_exp_log(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __expf(x[i]) + __logf(x[i] + 1.f) + __log2f(x[i] + 2.f) + __exp10f(x[i] * 0.01f) + __powf(x[i], 1.5f);
}

__global__ void fast_div(const float* a, const float* b, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __fdividef(a[i], b[i]) + __frcp_rn(b[i]) + rsqrtf(b[i]) + __fsqrt_rn(a[i]);
}

__global__ void rounding_intrinsics(const float* a, const float* b, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = __fadd_rz(a[i], b[i]) + __fmul_ru(a[i], b[i]) + __fmaf_rd(a[i], b[i], 1.f) + __fdiv_rn(a[i], b[i]) +
                 __fsub_rn(a[i], b[i]) + __saturatef(a[i]);
}

__global__ void double_rounding(const double* a, const double* b, double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __dadd_rz(a[i], b[i]) + __dmul_ru(a[i], b[i]) + __fma_rd(a[i], b[i], 1.0) + __ddiv_rn(a[i], b[i]) + __dsqrt_rn(fabs(a[i]));
}

__global__ void sigmoid_fast(const float* x, float* y, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = __fdividef(1.f, 1.f + __expf(-x[i]));
}

__global__ void fminmax_abs(const float* a, const float* b, float* out, const double* da, double* dout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = fminf(a[i], b[i]) * fmaxf(a[i], b[i]) + fabsf(a[i]) + copysignf(1.f, b[i]) + floorf(a[i]) + ceilf(b[i]) + truncf(a[i]) + rintf(b[i]);
        dout[i] = fmin(da[i], 1.0) + fmax(da[i], -1.0) + fabs(da[i]) + floor(da[i]) + ceil(da[i]) + trunc(da[i]) + rint(da[i]);
    }
}
