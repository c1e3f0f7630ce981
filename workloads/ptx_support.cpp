// SPDX-License-Identifier: Apache-2.0
#include "workloads/ptx_support.h"

#include <string_view>

namespace stacksim::workloads {

namespace {

bool has(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }
bool starts(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

/// The opcode of an instruction token ("ld.local.u32" -> "ld").
std::string_view opcode(std::string_view tok) { return tok.substr(0, tok.find('.')); }

const PtxConstruct kGlobalVar{".global variable",
                              "a __device__ variable whose declaration was rejected (see the problem at its "
                              "declaration)",
                              "see the declaration's problem"};
const PtxConstruct kConstVar{".const variable", "__constant__ data",
                             "pass a pointer argument (or the values as kernel arguments)"};
const PtxConstruct kLocal{".local memory",
                          "per-thread arrays indexed at run time, structs whose address is taken, register "
                          "spills, the precise math library's slow paths, -G builds",
                          "constant indices (the array stays in registers), shared memory, -use_fast_math"};
const PtxConstruct kCall{".func / call",
                         "device functions compiled separately (-rdc: modules are not linked), calls whose "
                         "arguments are not .param variables (hand-written PTX)",
                         "compile the callee into the same module; pass arguments in .param variables"};
const PtxConstruct kPrintf{"call vprintf", "printf", "remove printf from the simulated build"};
const PtxConstruct kAssert{"call __assertfail", "assert", "compile with -DNDEBUG"};
const PtxConstruct kTexture{"texture / surface", "texture and surface objects (tex1Dfetch, tex2D, surf2Dwrite, ...)",
                            "read through a plain pointer (__ldg)"};
const PtxConstruct kHalf{"half precision", "cuda_fp16.h / cuda_bf16.h (__half, __half2, __nv_bfloat16)",
                         "compute in float"};
const PtxConstruct kTensor{"wmma", "tensor cores (nvcuda::wmma)", "a plain FMA loop"};

}  // namespace

PtxConstruct classify_ptx_problem(const PtxError& problem, const std::string& source_line) {
    const std::string& msg = problem.message();
    const std::string& tok = problem.token();
    const std::string_view op = opcode(tok);
    if (has(source_line, "vprintf")) return kPrintf;
    if (has(source_line, "__assertfail")) return kAssert;
    if (has(msg, "address in a variable's initializer"))
        return {"address initialiser", "tables of function pointers (virtual functions, dispatch tables), printf "
                "argument arrays: an address in a __device__ variable's initialiser", "fill the table at run time"};
    if (tok == ".global" || has(msg, "unsupported .global variable")) return kGlobalVar;
    if (tok == ".const" || has(msg, "unsupported .const variable") || (has(tok, ".const") && has(msg, "state space")))
        return kConstVar;
    if (tok == ".local" || has(msg, "unsupported .local variable") || has(tok, ".local") ||
        starts(tok, "__local_depot") || (has(msg, "cvta supports") && has(source_line, ".local")))
        return kLocal;
    if (tok == "temp_param_reg" || has(msg, "unknown parameter")) return kCall;  // call sequences
    if (has(msg, "call to ") || has(msg, "call arguments") || has(msg, "indirect call") || has(msg, "function defined twice"))
        return kCall;
    if (tok == ".func" || tok == ".callprototype" || tok == ".calltargets" || op == "call" || tok == ".param" ||
        (has(tok, ".param") && has(msg, "state space")))
        return kCall;
    if (op == "tex" || op == "tld4" || op == "txq" || op == "suld" || op == "sust" || op == "sured" ||
        op == "suq" || has(tok, ".texref") || has(tok, ".surfref") || has(tok, ".samplerref"))
        return kTexture;
    if (op == "wmma" || op == "mma" || op == "ldmatrix") return kTensor;
    if (has(tok, "f16") || has(tok, "bf16") || (has(msg, "register type") && has(source_line, "f16")))
        return kHalf;
    if (tok == "WARP_SZ") return {"WARP_SZ", "warpSize", "use the constant 32"};
    if (starts(tok, "%envreg"))
        return {"%envreg", "cooperative groups grid synchronisation (this_grid().sync())",
                "split the kernel at the grid barrier into two launches"};
    if (starts(tok, "%lanemask"))
        return {"%lanemask", "cooperative groups (coalesced_threads(), tiled_partition thread_rank)",
                "compute the mask from %laneid"};
    if (starts(tok, "%globaltimer")) return {"%globaltimer", "globaltimer reads (cuda::std::chrono, timing code)", "%clock64"};
    if (starts(tok, "%dynamic_smem_size") || starts(tok, "%total_smem_size"))
        return {std::string(tok.substr(0, tok.find('.'))), "cooperative groups / dynamic shared memory size queries",
                "pass the size as a kernel argument"};
    if (starts(tok, "%")) return {"special register " + tok, "a special register read", "-"};
    if (op == "match") return {"match", "__match_any_sync / __match_all_sync", "a loop over __shfl_sync"};
    if (op == "redux") return {"redux", "__reduce_add_sync and friends (sm_80)", "a __shfl_xor_sync tree"};
    if (op == "nanosleep") return {"nanosleep", "__nanosleep", "a spin loop"};
    if (op == "trap") return {"trap", "__trap() (and assert)", "-"};
    if (op == "brkpt") return {"brkpt", "__brkpt()", "-"};
    if (op == "pmevent") return {"pmevent", "__prof_trigger()", "-"};
    if (op == "bmsk") return {"bmsk", "bit-mask intrinsics (cuda::std::bit or __funnelshift-based code)", "shifts"};
    if (op == "addc" || op == "subc" || op == "madc" || has(tok, ".cc"))
        return {"carry arithmetic (.cc, addc, subc, madc)",
                "multi-word integer arithmetic: the precise math library's double-precision range reduction, "
                "128-bit arithmetic in inline asm",
                "-use_fast_math; 64-bit halves with __umul64hi"};
    if (op == "bar" && has(tok, ".red"))
        return {"bar.red", "__syncthreads_count, __syncthreads_and, __syncthreads_or",
                "__syncthreads() and a shared-memory count"};
    if (op == "sad" || (op.size() >= 3 && op[0] == 'v' && (op.back() == '2' || op.back() == '4')))
        return {"sad / SIMD video", "__sad, __usad and the SIMD-in-a-word intrinsics (__vabsdiffu4, __vadd4, ...)",
                "write the arithmetic out"};
    if (op == "atom" && has(tok, ".b16"))
        return {"atom.cas.b16", "16-bit atomicCAS (unsigned short, sm_70)", "a 32-bit atomicCAS on the containing word"};
    if (has(msg, "unsupported instruction")) return {std::string(op), "the PTX instruction " + std::string(op), "-"};
    if (has(msg, "unsupported modifier")) {
        const size_t a = msg.find(" ."), b = msg.find(" in", a + 1);
        const std::string mod = a == std::string::npos ? "" : msg.substr(a + 1, b - a - 1);
        return {std::string(op) + mod, "the modifier " + mod + " of " + std::string(op), "-"};
    }
    if (has(msg, "unsupported type") || has(msg, "register type"))
        return {std::string(op) + " type", "a type the front end does not execute: " + tok, "-"};
    if (has(msg, "undeclared identifier")) return {"symbol " + tok, "a module-scope symbol or function name", "-"};
    return {msg, "-", "-"};
}

}  // namespace stacksim::workloads
