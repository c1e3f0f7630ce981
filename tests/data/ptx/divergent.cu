// Test kernel: nested divergent branches, integer ops and a loop.
extern "C" __global__ void divergent(const int* in, int* out, long long* wide) {
    int t = threadIdx.x;
    int v = in[t];
    int acc = 0;
    if (v > 0) {
        if (v & 1) acc = v * 3 + 1;
        else acc = v / 2;
    } else {
        for (int k = 0; k < (t & 7); ++k) acc += (v >> k) ^ k;
    }
    out[t] = acc % 7 + __popc(v) + __clz(v) + (int)__brev((unsigned)v);
    wide[t] = (long long)v * (long long)t + __mulhi(v, t) + (unsigned)v / 3u;
}
