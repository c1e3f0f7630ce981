// SPDX-License-Identifier: Apache-2.0
// pchase: one thread follows a chain of indices; each load depends on the previous one, so the
// time per step is the latency of the level of the memory hierarchy the chain lives in.
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3 -o pchase.ptx pchase.cu`.
extern "C" __global__ void pchase(const unsigned int* next, unsigned int* out, unsigned int start, int steps)
{
    unsigned int p = start;
    for (int i = 0; i < steps; ++i) p = next[p];
    out[0] = p;
}
