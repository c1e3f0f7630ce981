// SPDX-License-Identifier: Apache-2.0
// random_traffic: seeded random reads, writes and atomics over a large array. Each thread owns
// the words whose index is congruent to its id modulo the thread count and, for `rounds`
// rounds, reads a random word it owns, adds to it and writes it back (so later reads must see
// earlier writes), then atomically bumps a random shared counter.
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3 -o random_traffic.ptx random_traffic.cu`.
extern "C" __global__ void random_traffic(unsigned int* data, unsigned int* counters, unsigned int words_per_thread,
                                          unsigned int counter_count, unsigned int rounds, unsigned int seed)
{
    const unsigned int threads = gridDim.x * blockDim.x;
    const unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int state = seed ^ (tid * 2654435761u);
    for (unsigned int r = 0; r < rounds; ++r) {
        state = state * 1664525u + 1013904223u;
        const unsigned int slot = (state >> 8) % words_per_thread;
        const unsigned int index = slot * threads + tid;
        const unsigned int v = data[index];
        data[index] = v * 3u + r + 1u;
        atomicAdd(&counters[(state >> 4) % counter_count], v & 255u);
    }
}
