// SPDX-License-Identifier: Apache-2.0
// nn: convolutional neural network for handwritten digits (GPGPU-Sim ISPASS-2009 suite NN):
// four layers, one launch each, blockIdx.y = the image.
//   layer 1: 29x29 image -> 6 maps of 13x13 (5x5 kernels, stride 2), block 13x13, grid 6 x N
//   layer 2: 6 maps -> 50 maps of 5x5 (5x5x6 kernels, stride 2), block 5x5, grid 50 x N
//   layer 3: 1250 -> 100, fully connected, one thread per neuron, grid 100 x N
//   layer 4: 100 -> 10, fully connected, one thread per neuron, grid 10 x N
// Every neuron is 1.7159 tanh(2/3 x) of its bias plus its weighted inputs.
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3` (see regen_ptx.sh).
// Plain CUDA C only: no calls, no local memory, no warp intrinsics. The kernel templates
// (constant memory in the original) are computed; the original's double constants are floats.

#define ACTIVATE(x) (1.7159f * tanhf(0.66666667f * (x)))

extern "C" __global__ void executeFirstLayer(const float* layer1_neurons, const float* layer1_weights,
                                             float* layer2_neurons)
{
    int blockID = blockIdx.x;
    int pixelX = threadIdx.x;
    int pixelY = threadIdx.y;
    int weightBegin = blockID * 26;
    int windowX = pixelX * 2;
    int windowY = pixelY * 2;
    float result = layer1_weights[weightBegin];
    ++weightBegin;
    for (int r = 0; r < 5; ++r)      // kernelTemplate[i] = 29 r + c for i = 5 r + c
        for (int c = 0; c < 5; ++c)
            result += layer1_neurons[(windowY * 29 + windowX + 29 * r + c) + (29 * 29 * blockIdx.y)] *
                      layer1_weights[weightBegin + 5 * r + c];
    layer2_neurons[(13 * 13 * blockID + pixelY * 13 + pixelX) + (13 * 13 * 6 * blockIdx.y)] = ACTIVATE(result);
}

extern "C" __global__ void executeSecondLayer(const float* layer2_neurons, const float* layer2_weights,
                                              float* layer3_neurons)
{
    int blockID = blockIdx.x;
    int pixelX = threadIdx.x;
    int pixelY = threadIdx.y;
    int weightBegin = blockID * 26 * 6;
    int windowX = pixelX * 2;
    int windowY = pixelY * 2;
    float result = layer2_weights[weightBegin];
    ++weightBegin;
    const float* in = layer2_neurons + windowX + 13 * windowY + 13 * 13 * 6 * blockIdx.y;
    for (int r = 0; r < 5; ++r)      // kernelTemplate2[i] = 13 r + c for i = 5 r + c
        for (int c = 0; c < 5; ++c)
            for (int map = 0; map < 6; ++map)
                result += in[169 * map + 13 * r + c] * layer2_weights[weightBegin + (5 * r + c) * 6 + map];
    layer3_neurons[(5 * 5 * blockID + pixelY * 5 + pixelX) + (1250 * blockIdx.y)] = ACTIVATE(result);
}

extern "C" __global__ void executeThirdLayer(const float* layer3_neurons, const float* layer3_weights,
                                             float* layer4_neurons)
{
    int blockID = blockIdx.x;
    int weightBegin = blockID * 1251;
    float result = layer3_weights[weightBegin];
    ++weightBegin;
    for (int i = 0; i < 1250; ++i)
        result += layer3_neurons[i + (1250 * blockIdx.y)] * layer3_weights[weightBegin + i];
    layer4_neurons[blockID + (100 * blockIdx.y)] = ACTIVATE(result);
}

extern "C" __global__ void executeFourthLayer(const float* layer4_neurons, const float* layer4_weights,
                                              float* layer5_neurons)
{
    int blockID = blockIdx.x;
    int weightBegin = blockID * 101;
    float result = layer4_weights[weightBegin];
    ++weightBegin;
    for (int i = 0; i < 100; ++i)
        result += layer4_neurons[i + (100 * blockIdx.y)] * layer4_weights[weightBegin + i];
    layer5_neurons[blockID + (10 * blockIdx.y)] = ACTIVATE(result);
}
