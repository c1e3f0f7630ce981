// SPDX-License-Identifier: Apache-2.0
// scan: work-efficient (Blelloch) exclusive prefix sum of uint32 values, as in the CUDA SDK
// scanLargeArray / GPU Gems 3 ch. 39: every block scans 2*256 elements in shared memory
// (up-sweep, down-sweep, padded against bank conflicts) and emits its total; the totals
// are scanned the same way and uniform_add adds them back.
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3` (see regen_ptx.sh).
// Plain CUDA C only: no calls, no local memory, no warp intrinsics.

#define SCAN_BLOCK 256
#define SCAN_ELEMS (2 * SCAN_BLOCK)
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(i) ((i) >> LOG_NUM_BANKS)

// Block 256, grid ceil(n/512): out = exclusive scan of each 512-element chunk of in (padded
// with zeros); sums[block] = the chunk's total.
extern "C" __global__ void prescan(const unsigned* in, unsigned* out, unsigned* sums, int n)
{
    __shared__ unsigned temp[SCAN_ELEMS + SCAN_ELEMS / 32];
    int tid = threadIdx.x;
    int base = blockIdx.x * SCAN_ELEMS;
    int ai = tid, bi = tid + SCAN_BLOCK;
    int bank_a = CONFLICT_FREE_OFFSET(ai), bank_b = CONFLICT_FREE_OFFSET(bi);
    temp[ai + bank_a] = base + ai < n ? in[base + ai] : 0u;
    temp[bi + bank_b] = base + bi < n ? in[base + bi] : 0u;
    int offset = 1;
    for (int d = SCAN_BLOCK; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            int a = offset * (2 * tid + 1) - 1;
            int b = offset * (2 * tid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            temp[b] += temp[a];
        }
        offset *= 2;
    }
    if (tid == 0) {
        int last = SCAN_ELEMS - 1 + CONFLICT_FREE_OFFSET(SCAN_ELEMS - 1);
        sums[blockIdx.x] = temp[last];
        temp[last] = 0;
    }
    for (int d = 1; d < SCAN_ELEMS; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int a = offset * (2 * tid + 1) - 1;
            int b = offset * (2 * tid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            unsigned t = temp[a];
            temp[a] = temp[b];
            temp[b] += t;
        }
    }
    __syncthreads();
    if (base + ai < n) out[base + ai] = temp[ai + bank_a];
    if (base + bi < n) out[base + bi] = temp[bi + bank_b];
}

// Block 256, grid ceil(n/512): adds the scanned total of the chunks before each chunk.
extern "C" __global__ void uniform_add(unsigned* data, const unsigned* incr, int n)
{
    __shared__ unsigned uni;
    if (threadIdx.x == 0) uni = incr[blockIdx.x];
    __syncthreads();
    int i = blockIdx.x * SCAN_ELEMS + threadIdx.x;
    if (i < n) data[i] += uni;
    if (i + SCAN_BLOCK < n) data[i + SCAN_BLOCK] += uni;
}
