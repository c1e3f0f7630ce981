// Sparse matrix-vector products: CSR scalar and vector (warp per row), ELL, COO with atomics.
template <typename T>
__global__ void csr_scalar(const int* rowptr, const int* col, const T* val, const T* x, T* y, int rows) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        T s = 0;
        for (int j = rowptr[r]; j < rowptr[r + 1]; ++j) s += val[j] * x[col[j]];
        y[r] = s;
    }
}
template <typename T>
__global__ void csr_vector(const int* rowptr, const int* col, const T* val, const T* x, T* y, int rows) {
    int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
    if (r >= rows) return;
    T s = 0;
    for (int j = rowptr[r] + lane; j < rowptr[r + 1]; j += 32) s += val[j] * __ldg(&x[col[j]]);
    for (int o = 16; o; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);
    if (lane == 0) y[r] = s;
}
__global__ void ell_spmv(const int* col, const float* val, const float* x, float* y, int rows, int width) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float s = 0.f;
    for (int k = 0; k < width; ++k) {
        int c = col[k * rows + r];
        if (c >= 0) s += val[k * rows + r] * x[c];
    }
    y[r] = s;
}
__global__ void coo_spmv(const int* row, const int* col, const float* val, const float* x, float* y, int nnz) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nnz) atomicAdd(&y[row[i]], val[i] * x[col[i]]);
}
template __global__ void csr_scalar<float>(const int*, const int*, const float*, const float*, float*, int);
template __global__ void csr_scalar<double>(const int*, const int*, const double*, const double*, double*, int);
template __global__ void csr_vector<float>(const int*, const int*, const float*, const float*, float*, int);
template __global__ void csr_vector<double>(const int*, const int*, const double*, const double*, double*, int);
