// SPDX-License-Identifier: Apache-2.0
// mum: MUMmerGPU's forward matching kernel (GPGPU-Sim ISPASS-2009 suite MUM): each thread
// takes one query and, for every start position, walks the reference's suffix tree to the
// longest match, following the suffix link of the last node passed to start the next
// position (with MUMmerGPU's skip/count over the characters known to match). A match of more
// than min_match_len characters records the tree node it ends on and how far down that
// node's edge. Block 256 threads, one query each.
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3` (see regen_ptx.sh).
// Plain CUDA C only: no calls, no local memory, no warp intrinsics. The tree and the
// reference are global arrays (the original: 2-D textures); node ids replace texture
// coordinates; the reverse-complement kernel is not part of it.
//
// nodes[id] = (edge start, edge end (inclusive), suffix link, unused), positions in ref;
// children[id] = child ids for A, C, G, T (0 = none); id 0 is null, 1 the root.
// queries: each query is 'q', its characters, '\0', starting at queryAddrs[i]; the results of
// query i start at match_coords + queryAddrs[i] - i * (min_match_len + 1).

extern "C" __global__ void mummergpuKernel(int2* match_coords, const char* queries, const int* queryAddrs,
                                           const int* queryLengths, int numQueries, int min_match_len,
                                           const int4* nodes, const int4* children, const char* ref)
{
    int qryid = blockIdx.x * blockDim.x + threadIdx.x;
    if (qryid >= numQueries) return;
    int qlen = queryLengths[qryid];
    int cur = 0;
    int mustmatch = 0;
    int qry_match_len = 0;
    int qryAddr = queryAddrs[qryid];
    int2* result = match_coords + qryAddr - qryid * (min_match_len + 1);
    queries += qryAddr;
    int last = qlen - min_match_len;

    for (int qrystart = 0; qrystart <= last; qrystart++, result++, queries++) {
        int4 node = make_int4(0, 0, 0, 0);
        int prev = 0;
        if (cur == 0 || qry_match_len < 1) {  // start at the root
            cur = 1;
            qry_match_len = 1;
            mustmatch = 0;
        }
        char c = queries[qry_match_len];
        int refpos = 0;
        while (c != '\0') {
            int4 kids = children[cur];
            prev = cur;
            switch (c) {
            case 'A': cur = kids.x; break;
            case 'C': cur = kids.y; break;
            case 'G': cur = kids.z; break;
            case 'T': cur = kids.w; break;
            default: cur = 0; break;
            }
            if (cur == 0) {  // no edge to follow: the match ends at node prev
                if (qry_match_len > min_match_len) *result = make_int2(prev, 0);
                qry_match_len -= 1;
                mustmatch = 0;
                goto NEXT_SUBSTRING;
            }
            node = nodes[cur];
            if (mustmatch) {
                int edgelen = node.y - node.x + 1;
                if (mustmatch >= edgelen) {
                    refpos = node.y + 1;
                    qry_match_len += edgelen;
                    mustmatch -= edgelen;
                } else {
                    qry_match_len += mustmatch;
                    refpos = node.x + mustmatch;
                    mustmatch = 0;
                }
            } else {  // the first character of the edge matches
                qry_match_len++;
                refpos = node.x + 1;
            }
            c = queries[qry_match_len];
            while (refpos <= node.y && c != '\0') {
                if (ref[refpos] != c) goto RECORD_RESULT;  // mismatch on the edge
                qry_match_len++;
                refpos++;
                c = queries[qry_match_len];
            }
        }
    RECORD_RESULT:
        if (qry_match_len > min_match_len) *result = make_int2(cur, refpos - node.x);
        mustmatch = refpos - node.x;
        qry_match_len -= mustmatch + 1;
    NEXT_SUBSTRING:
        cur = nodes[prev].z;  // the suffix link of the last node passed
    }
}
