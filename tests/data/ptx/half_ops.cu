// Test kernel: half precision through cuda_fp16.h / cuda_bf16.h (compiled with -arch=sm_80 so
// bf16 arithmetic is native). Each thread reads two f16 pairs and two bf16 pairs and writes
// twelve 16-bit results and four 32-bit ones.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

extern "C" __global__ void half_ops(const __half2* a, const __half2* b, const __nv_bfloat162* c,
                                    const __nv_bfloat162* d, const float* f, unsigned short* out16,
                                    unsigned* out32) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const __half2 x = a[t], y = b[t];
    const __nv_bfloat162 u = c[t], v = d[t];
    unsigned short* o = out16 + 12 * t;
    const __half xl = __low2half(x), yl = __low2half(y);
    o[0] = __half_as_ushort(__hadd(xl, yl));
    o[1] = __half_as_ushort(__hsub(xl, yl));
    o[2] = __half_as_ushort(__hmul(xl, yl));
    o[3] = __half_as_ushort(__hfma(xl, yl, __high2half(x)));
    o[4] = __half_as_ushort(__hmax(xl, yl));
    o[5] = __half_as_ushort(__hmin_nan(xl, yl));
    o[6] = __half_as_ushort(__hlt(xl, yl) ? __hneg(xl) : __habs(yl));
    o[7] = __half_as_ushort(__float2half_rz(f[t]));
    o[8] = __half_as_ushort(__float2half_rd(f[t]));
    o[9] = __half_as_ushort(__float2half_ru(f[t]));
    o[10] = __bfloat16_as_ushort(__hfma(__low2bfloat16(u), __low2bfloat16(v), __high2bfloat16(u)));
    o[11] = __bfloat16_as_ushort(__float2bfloat16_rn(f[t]));
    const __half2 p = __hfma2(x, y, __halves2half2(xl, yl));
    out32[4 * t + 0] = *reinterpret_cast<const unsigned*>(&p);
    const __nv_bfloat162 q = __hmul2(u, v);
    out32[4 * t + 1] = *reinterpret_cast<const unsigned*>(&q);
    out32[4 * t + 2] = __float_as_uint(__half2float(xl) + __low2float(y) * __bfloat162float(__high2bfloat16(v)));
    out32[4 * t + 3] = __hgt2_mask(x, y) ^ (__half2int_rn(xl) << 8) ^ __float_as_uint(__high2float(x));
}
