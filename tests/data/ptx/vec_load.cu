// Test kernel: vector loads/stores (float4, int2) and warp shuffles/votes.
extern "C" __global__ void vec_load(const float4* a, float4* b, const int2* c, int2* d) {
    int t = threadIdx.x;
    float4 v = a[t];
    v.x += v.w; v.y *= 2.0f;
    b[t] = v;
    int2 w = __ldg(&c[t]);
    int s = __shfl_down_sync(0xffffffffu, w.x, 1);
    s += __shfl_xor_sync(0xffffffffu, w.y, 3);
    s += __shfl_sync(0xffffffffu, w.x, 0);
    s += __shfl_up_sync(0xffffffffu, w.y, 2);
    unsigned b1 = __ballot_sync(0xffffffffu, w.x > 0);
    int all = __all_sync(0xffffffffu, w.y > 0);
    d[t] = make_int2(s + (int)b1, all);
}
