// SPDX-License-Identifier: Apache-2.0
// divergence: nested divergent branches and a data-dependent loop, per thread.
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3 -o divergence.ptx divergence.cu`
// (see regen_ptx.sh). Plain CUDA C only: no calls, no local memory, no warp intrinsics.

// Lanes split on x odd/even, odd lanes split again on x%4, and the x%4==1 lanes run a loop
// whose trip count comes from the input value (with a further branch inside the loop).
extern "C" __global__ void divergence(const int* in, int* out, int n)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= n) return;
    unsigned int v = (unsigned int)in[x];
    unsigned int r;
    if (x % 2) {
        if (x % 4 == 1) {
            r = v;
            unsigned int trips = v % 11;
            for (unsigned int k = 0; k < trips; ++k) {
                if (r & 4) r = r * 3u + k;
                else r = (r >> 1) ^ (v + k);
            }
        } else {
            r = v * 5u - (unsigned int)x;
            if (r & 1) r += 7u;
        }
    } else {
        if (v % 3 == 0) {
            r = v / 3u;
            if (r & 2) r ^= 0x5au;
        } else {
            r = v + (unsigned int)x * 2u;
        }
    }
    out[x] = (int)r;
}
