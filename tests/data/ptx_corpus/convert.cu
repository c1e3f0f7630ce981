// Conversions: float/int in every rounding mode, double/float, reinterpretation, saturating
// narrowing, half-width integer types.
__global__ void f2i_modes(const float* x, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __float2int_rn(x[i]) + 3 * __float2int_rz(x[i]) + 5 * __float2int_rd(x[i]) + 7 * __float2int_ru(x[i]);
}
__global__ void i2f_modes(const int* x, float* out, const long long* l, double* dout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = __int2float_rn(x[i]) + __int2float_rz(x[i]) + __uint2float_rd((unsigned)x[i]) + __ll2float_rn(l[i]);
        dout[i] = __ll2double_rn(l[i]) + (double)(unsigned long long)l[i];
    }
}
__global__ void d2f_f2d(const double* d, float* f, double* back, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        f[i] = __double2float_rn(d[i]) + __double2float_rz(d[i]);
        back[i] = (double)f[i] + (double)__double2int_rn(d[i]) + (double)__double2ll_rz(d[i]) + (double)__double2uint_ru(fabs(d[i]));
    }
}
__global__ void reinterpret(const float* f, const double* d, unsigned* u, long long* l, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        u[i] = __float_as_uint(f[i]) ^ (unsigned)__float_as_int(-f[i]);
        l[i] = __double_as_longlong(d[i]) + __double2hiint(d[i]) + __double2loint(d[i]);
    }
}
__global__ void narrow_types(const int* x, signed char* c, short* s, unsigned char* uc, unsigned short* us, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = (signed char)x[i];
        s[i] = (short)(x[i] * 3);
        uc[i] = (unsigned char)min(max(x[i], 0), 255);
        us[i] = (unsigned short)(x[i] >> 4);
    }
}
__global__ void float_to_u8_sat(const float* x, unsigned char* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (unsigned char)__float2uint_rn(__saturatef(x[i]) * 255.f);
}
__global__ void int64_float(const long long* a, const unsigned long long* b, float* f, double* d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        f[i] = (float)a[i] + (float)b[i];
        d[i] = (double)a[i] - (double)b[i];
    }
}
