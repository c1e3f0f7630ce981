// Test kernel: special registers (%smid %nsmid %warpid %nwarpid %gridid %dynamic_smem_size
// %total_smem_size %globaltimer %clock64) and __nanosleep. Thread 0 of each CTA writes eight
// 64-bit words: smid, nsmid, nwarpid, dynamic smem, total smem, globaltimer and clock64
// across the sleep, and the warp id of the last warp.
extern "C" __global__ void specials(unsigned long long* out, unsigned sleep_ns) {
    extern __shared__ int dyn[];
    __shared__ int stat[64];
    if (threadIdx.x < 64) stat[threadIdx.x] = threadIdx.x;
    dyn[threadIdx.x] = 2 * threadIdx.x;
    __syncthreads();
    unsigned long long* o = out + 8 * blockIdx.x;
    if (threadIdx.x == 0) {
        unsigned smid, nsmid, nwarpid, dsm, tsm;
        unsigned long long g0, g1;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
        asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
        asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(nwarpid));
        asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dsm));
        asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(tsm));
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
        const long long c0 = clock64();
        __nanosleep(sleep_ns);
        const long long c1 = clock64();
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
        o[0] = smid;
        o[1] = nsmid;
        o[2] = nwarpid;
        o[3] = dsm + stat[5] + dyn[7] - 5 - 14;
        o[4] = tsm;
        o[5] = g1 - g0;
        o[6] = c1 - c0;
    }
    if (threadIdx.x == blockDim.x - 1) {
        unsigned warpid;
        asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
        o[7] = warpid;
    }
}
