// SPDX-License-Identifier: Apache-2.0
// backprop: Rodinia BACKPROP, one training step of a 16-hidden-unit layer: the forward
// kernel forms per-block partial sums of input x weight (shared-memory tree), the host
// finishes the layers, then the adjust kernel updates the input weights with momentum.
// Differences from Rodinia: the tree uses a doubling loop instead of __log2f/__powf, and
// ETA/MOMENTUM are float literals.
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3` (see regen_ptx.sh).
// Plain CUDA C only: no calls, no local memory, no warp intrinsics.

#define BP_WIDTH 16
#define BP_HEIGHT 16
#define BP_ETA 0.3f
#define BP_MOMENTUM 0.3f

// Block (16,16), grid (1, in/16). Overwrites the block's weights with the reduction tree
// (as Rodinia does) and writes hidden_partial_sum[by*hid + ty].
extern "C" __global__ void bpnn_layerforward(const float* input_cuda, float* input_hidden_cuda,
                                             float* hidden_partial_sum, int in, int hid)
{
    int by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int index = (hid + 1) * BP_HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_in = BP_HEIGHT * by + ty + 1;
    __shared__ float input_node[BP_HEIGHT];
    __shared__ float weight_matrix[BP_HEIGHT][BP_WIDTH];
    if (tx == 0) input_node[ty] = input_cuda[index_in];
    __syncthreads();
    weight_matrix[ty][tx] = input_hidden_cuda[index];
    __syncthreads();
    weight_matrix[ty][tx] = weight_matrix[ty][tx] * input_node[ty];
    __syncthreads();
    for (int power_two = 2; power_two <= BP_HEIGHT; power_two *= 2) {
        if (ty % power_two == 0)
            weight_matrix[ty][tx] = weight_matrix[ty][tx] + weight_matrix[ty + power_two / 2][tx];
        __syncthreads();
    }
    input_hidden_cuda[index] = weight_matrix[ty][tx];
    __syncthreads();
    if (tx == 0) hidden_partial_sum[by * hid + ty] = weight_matrix[tx][ty];
}

// Block (16,16), grid (1, in/16): w += ETA*delta*ly + MOMENTUM*oldw for every weight.
extern "C" __global__ void bpnn_adjust_weights(const float* delta, int hid, const float* ly,
                                               int in, float* w, float* oldw)
{
    int by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int index = (hid + 1) * BP_HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_y = BP_HEIGHT * by + ty + 1;
    int index_x = tx + 1;
    w[index] += ((BP_ETA * delta[index_x] * ly[index_y]) + (BP_MOMENTUM * oldw[index]));
    oldw[index] = ((BP_ETA * delta[index_x] * ly[index_y]) + (BP_MOMENTUM * oldw[index]));
    __syncthreads();
    if (ty == 0 && by == 0) {
        w[index_x] += ((BP_ETA * delta[index_x]) + (BP_MOMENTUM * oldw[index_x]));
        oldw[index_x] = ((BP_ETA * delta[index_x]) + (BP_MOMENTUM * oldw[index_x]));
    }
}
