// Test kernel: warp intrinsics over a partial warp (lanes 0-26 of each warp run): __activemask,
// __match_any_sync/__match_all_sync, __reduce_*_sync (sm_80: compiled with -arch=sm_80),
// %lanemask_*, warpSize and bmsk. Twelve words per thread.
extern "C" __global__ void warp_intrinsics(const unsigned* in, unsigned* out) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned v = in[t];
    unsigned* o = out + 12 * t;
    if ((threadIdx.x & 31) < 27) {
        const unsigned m = __activemask();
        o[0] = m;
        o[1] = __match_any_sync(m, v & 7);
        int pred = 0;
        o[2] = __match_all_sync(m, v >> 30, &pred);
        o[3] = pred;
        o[4] = __reduce_add_sync(m, v);
        o[5] = __reduce_min_sync(m, (int)v);
        o[6] = __reduce_max_sync(m, v);
        o[7] = __reduce_xor_sync(m, v) ^ __reduce_or_sync(m, v & 0xF0) ^ __reduce_and_sync(m, v | 0xF);
        unsigned eq, lt, le, gt, ge;
        asm("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
        asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
        asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
        asm("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
        asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
        o[8] = lt;
        o[9] = (eq ^ le) | (gt & ~ge);
        o[10] = warpSize * 1000 + __popc(ge);
        unsigned b;
        asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(b) : "r"(v & 63), "r"((v >> 6) & 63));
        unsigned c;
        asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(c) : "r"(v >> 12), "r"(v >> 20));
        o[11] = b ^ (c << 1);
    }
}
