// SPDX-License-Identifier: Apache-2.0
// kmeans: Rodinia KMEANS, the GPU half of Lloyd's algorithm: invert_mapping transposes the
// point-major features to feature-major once; kmeansPoint assigns every point to its nearest
// centre each iteration (Rodinia's texture/constant fetches are plain global loads here).
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3` (see regen_ptx.sh).
// Plain CUDA C only: no calls, no local memory, no warp intrinsics.

// Block 256, grid ceil(npoints/256): output[f][p] = input[p][f].
extern "C" __global__ void invert_mapping(const float* input, float* output, int npoints, int nfeatures)
{
    int point_id = threadIdx.x + blockDim.x * blockIdx.x;
    if (point_id < npoints) {
        for (int i = 0; i < nfeatures; i++)
            output[point_id + npoints * i] = input[point_id * nfeatures + i];
    }
}

// Block 256, grid ceil(npoints/256): membership[p] = argmin_c sum_f (features[f][p] - clusters[c][f])^2
// (the first centre wins ties).
extern "C" __global__ void kmeansPoint(const float* features, int nfeatures, int npoints,
                                       int nclusters, int* membership, const float* clusters)
{
    const unsigned int block_id = gridDim.x * blockIdx.y + blockIdx.x;
    const unsigned int point_id = block_id * blockDim.x * blockDim.y + threadIdx.x;
    int index = -1;
    if (point_id < npoints) {
        float min_dist = 3.402823466e+38f;
        for (int i = 0; i < nclusters; i++) {
            int cluster_base_index = i * nfeatures;
            float ans = 0.0f;
            for (int j = 0; j < nfeatures; j++) {
                int addr = point_id + j * npoints;
                float diff = features[addr] - clusters[cluster_base_index + j];
                ans += diff * diff;
            }
            float dist = ans;
            if (dist < min_dist) {
                min_dist = dist;
                index = i;
            }
        }
        membership[point_id] = index;
    }
}
