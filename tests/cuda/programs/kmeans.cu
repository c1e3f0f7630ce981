// SPDX-License-Identifier: Apache-2.0
// kmeans-like clustering: assignment kernel with the centroids in __constant__ memory and a
// parameter struct passed by value, per-cluster sums with atomicAdd, a few iterations with the
// centroid update on the host; checked against the CPU (assignments exact).
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#define NFEAT 4
#define NCLUST 5
#define MAXCLUST 16

__constant__ float c_clusters[MAXCLUST * NFEAT];

struct KmeansParams {
    int npoints;
    int nfeatures;
    int nclusters;
    float scale;
};

#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)
template <typename T> void check(T result, char const *const func, const char *const file, int const line) {
    if (result) {
        fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\" \n", file, line, static_cast<unsigned int>(result),
                cudaGetErrorName(result), func);
        exit(EXIT_FAILURE);
    }
}

__global__ void assign_points(const float *__restrict__ features, int *membership, float *sums, int *counts,
                              KmeansParams p) {
    int pid = blockDim.x * blockIdx.x + threadIdx.x;
    if (pid >= p.npoints) return;
    int index = 0;
    float min_dist = 3.402823466e+38f;
    for (int c = 0; c < p.nclusters; c++) {
        float dist = 0;
        for (int f = 0; f < p.nfeatures; f++) {
            float d = features[pid * p.nfeatures + f] * p.scale - c_clusters[c * p.nfeatures + f];
            dist += d * d;
        }
        if (dist < min_dist) {
            min_dist = dist;
            index = c;
        }
    }
    membership[pid] = index;
    atomicAdd(&counts[index], 1);
    for (int f = 0; f < p.nfeatures; f++) atomicAdd(&sums[index * p.nfeatures + f], features[pid * p.nfeatures + f] * p.scale);
}

int main() {
    const int npoints = 2000, iters = 3;
    std::vector<float> feat(npoints * NFEAT);
    srand(3);
    for (auto &v : feat) v = (rand() % 10000) / 100.0f;
    std::vector<float> clusters(NCLUST * NFEAT);
    for (int c = 0; c < NCLUST; c++)
        for (int f = 0; f < NFEAT; f++) clusters[c * NFEAT + f] = feat[(c * 37) * NFEAT + f];

    float *d_feat, *d_sums;
    int *d_member, *d_counts;
    checkCudaErrors(cudaMalloc(&d_feat, feat.size() * sizeof(float)));
    checkCudaErrors(cudaMalloc(&d_member, npoints * sizeof(int)));
    checkCudaErrors(cudaMalloc(&d_sums, NCLUST * NFEAT * sizeof(float)));
    checkCudaErrors(cudaMalloc(&d_counts, NCLUST * sizeof(int)));
    checkCudaErrors(cudaMemcpy(d_feat, feat.data(), feat.size() * sizeof(float), cudaMemcpyHostToDevice));

    KmeansParams p = {npoints, NFEAT, NCLUST, 1.0f};
    std::vector<int> member(npoints), cpu_member(npoints);
    std::vector<float> cpu_clusters = clusters;
    int bad = 0;
    for (int it = 0; it < iters; it++) {
        checkCudaErrors(cudaMemcpyToSymbol(c_clusters, clusters.data(), clusters.size() * sizeof(float)));
        checkCudaErrors(cudaMemset(d_sums, 0, NCLUST * NFEAT * sizeof(float)));
        checkCudaErrors(cudaMemset(d_counts, 0, NCLUST * sizeof(int)));
        assign_points<<<(npoints + 127) / 128, 128>>>(d_feat, d_member, d_sums, d_counts, p);
        checkCudaErrors(cudaGetLastError());
        std::vector<float> sums(NCLUST * NFEAT);
        std::vector<int> counts(NCLUST);
        checkCudaErrors(cudaMemcpy(member.data(), d_member, npoints * sizeof(int), cudaMemcpyDeviceToHost));
        checkCudaErrors(cudaMemcpy(sums.data(), d_sums, sums.size() * sizeof(float), cudaMemcpyDeviceToHost));
        checkCudaErrors(cudaMemcpy(counts.data(), d_counts, counts.size() * sizeof(int), cudaMemcpyDeviceToHost));

        // CPU: the same assignment with the same centroids.
        std::vector<double> csum(NCLUST * NFEAT, 0.0);
        std::vector<int> ccount(NCLUST, 0);
        for (int i = 0; i < npoints; i++) {
            int index = 0;
            float min_dist = 3.402823466e+38f;
            for (int c = 0; c < NCLUST; c++) {
                float dist = 0;
                for (int f = 0; f < NFEAT; f++) {
                    float d = feat[i * NFEAT + f] * 1.0f - cpu_clusters[c * NFEAT + f];
                    dist = fmaf(d, d, dist);
                }
                if (dist < min_dist) {
                    min_dist = dist;
                    index = c;
                }
            }
            cpu_member[i] = index;
            ccount[index]++;
            for (int f = 0; f < NFEAT; f++) csum[index * NFEAT + f] += feat[i * NFEAT + f];
        }
        for (int i = 0; i < npoints; i++) bad += member[i] != cpu_member[i];
        for (int c = 0; c < NCLUST; c++) {
            bad += counts[c] != ccount[c];
            for (int f = 0; f < NFEAT; f++)
                if (fabs(sums[c * NFEAT + f] - csum[c * NFEAT + f]) > 1e-3 * fabs(csum[c * NFEAT + f]) + 1e-3) bad++;
        }
        for (int c = 0; c < NCLUST; c++)
            for (int f = 0; f < NFEAT; f++)
                if (counts[c]) clusters[c * NFEAT + f] = cpu_clusters[c * NFEAT + f] = sums[c * NFEAT + f] / counts[c];
        printf("iteration %d: counts", it);
        for (int c = 0; c < NCLUST; c++) printf(" %d", counts[c]);
        printf("\n");
    }
    cudaFree(d_feat), cudaFree(d_member), cudaFree(d_sums), cudaFree(d_counts);
    if (bad) {
        printf("FAILED: %d mismatches\n", bad);
        return 1;
    }
    printf("PASSED kmeans\n");
    return 0;
}
