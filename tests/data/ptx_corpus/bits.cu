// Bit manipulation intrinsics: popc, clz, ffs, brev, byte_perm, funnel shifts, bit-field
// extract/insert written in C, SAD, Morton codes, CRC32.
__global__ void bit_counts(const unsigned* x, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __popc(x[i]) + 32 * __clz(x[i]) + 1024 * __ffs(x[i]);
}
__global__ void bit_reverse_perm(const unsigned* x, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __brev(x[i]) ^ __byte_perm(x[i], x[(i + 1) % n], 0x5140) ^ __byte_perm(x[i], 0, 0x0123);
}
__global__ void funnel(const unsigned* lo, const unsigned* hi, const unsigned* s, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __funnelshift_l(lo[i], hi[i], s[i]) + __funnelshift_rc(lo[i], hi[i], s[i]);
}
__global__ void bitfield(const unsigned* x, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned f = (x[i] >> 5) & 0x3ff;
        out[i] = (x[i] & ~(0xffu << 8)) | ((f & 0xff) << 8);
    }
}
__global__ void sad_kernel(const unsigned* a, const unsigned* b, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __sad((int)a[i], (int)b[i], 0u) + __usad(a[i], b[i], 7u) + __vabsdiffu4(a[i], b[i]);
}
__device__ __forceinline__ unsigned spread(unsigned x) {
    x &= 0x3ff;
    x = (x | (x << 16)) & 0x030000FF;
    x = (x | (x << 8)) & 0x0300F00F;
    x = (x | (x << 4)) & 0x030C30C3;
    x = (x | (x << 2)) & 0x09249249;
    return x;
}
__global__ void morton3d(const float3* p, unsigned* code, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = (unsigned)(fminf(fmaxf(p[i].x, 0.f), 1.f) * 1023.f);
        unsigned y = (unsigned)(fminf(fmaxf(p[i].y, 0.f), 1.f) * 1023.f);
        unsigned z = (unsigned)(fminf(fmaxf(p[i].z, 0.f), 1.f) * 1023.f);
        code[i] = spread(x) * 4 + spread(y) * 2 + spread(z);
    }
}
__global__ void crc32_words(const unsigned* data, unsigned* out, int words_per_thread, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    unsigned crc = 0xffffffffu;
    for (int w = 0; w < words_per_thread; ++w) {
        crc ^= data[t * words_per_thread + w];
        for (int b = 0; b < 32; ++b) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    out[t] = ~crc;
}
__global__ void simd_video(const unsigned* a, const unsigned* b, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __vadd4(a[i], b[i]) ^ __vmaxu4(a[i], b[i]) ^ __vsub2(a[i], b[i]) ^ __vcmpeq4(a[i], b[i]);
}
