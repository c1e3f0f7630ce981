// Test kernel: float/double math, transcendental functions and conversions.
extern "C" __global__ void float_math(const float* x, float* y, double* d, int* iout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    float r = sqrtf(fabsf(v)) + __frsqrt_rn(v * v + 1.0f) + __expf(v) + __logf(fabsf(v) + 1.0f)
            + __sinf(v) * __cosf(v) + 1.0f / (v + 3.0f) + fminf(v, 2.0f) + fmaxf(v, -2.0f);
    y[i] = r;
    double dv = (double)v;
    d[i] = dv * dv / 3.0 + (double)i;
    iout[i] = (int)r + __float2int_rn(v) + (int)rintf(v * 2.5f) + (int)(unsigned char)(i * 7);
}
