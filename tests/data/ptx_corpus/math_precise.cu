// The precise math library: its slow paths bring tables, local arrays and long code.
__global__ void precise_sincos(const float* x, float* s, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) sincosf(x[i], &s[i], &c[i]);
}
__global__ void precise_exp_log(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = expf(x[i]) + logf(x[i]) + log2f(x[i]) + log10f(x[i]) + exp2f(x[i]) + expm1f(x[i]) + log1pf(x[i]);
}
__global__ void precise_pow(const float* x, const float* y, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = powf(x[i], y[i]);
}
__global__ void precise_tanh_erf(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tanhf(x[i]) + erff(x[i]) + erfcf(x[i]) + atanf(x[i]) + atan2f(x[i], 2.f) + asinf(x[i] * 0.5f);
}
__global__ void precise_double(const double* x, double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = exp(x[i]) + log(x[i]) + sqrt(x[i]) + cbrt(x[i]);
}
__global__ void precise_double_trig(const double* x, double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = sin(x[i]) * cos(x[i]) + tan(x[i]);
}
__global__ void precise_sqrt_div(const float* x, const float* y, float* out, double* dout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = sqrtf(x[i]) / y[i] + hypotf(x[i], y[i]) + fmodf(x[i], y[i]);
        dout[i] = (double)x[i] / (double)y[i] + fmod((double)x[i], (double)y[i]);
    }
}
__global__ void gelu(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 0.5f * x[i] * (1.f + tanhf(0.7978845608f * (x[i] + 0.044715f * x[i] * x[i] * x[i])));
}
