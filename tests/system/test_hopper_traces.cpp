// SPDX-License-Identifier: Apache-2.0
// Hopper (sm_90) Accel-Sim traces on the h100 presets: a generated trace and kernels cut from real ones.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <sstream>

#include "tests/system/cli_runner.h"
#include "tests/test_data.h"

using namespace stacksim::test;

namespace {

/// Warp and thread instructions a trace list holds, counted from its text alone: one warp
/// instruction per instruction line, one thread instruction per set bit of its mask.
struct Counts {
    double warp = 0, thread = 0;
    unsigned kernels = 0;
};

Counts count_traceg(const std::string& text) {
    Counts c;
    std::istringstream in(text);
    std::string line;
    unsigned left = 0;  // instruction lines still due in the current warp
    while (std::getline(in, line)) {
        if (left > 0) {
            std::istringstream f(line);
            std::string pc, mask;
            f >> pc >> mask;
            c.warp += 1;
            c.thread += __builtin_popcountll(std::stoull(mask, nullptr, 16));
            --left;
        } else if (line.rfind("insts = ", 0) == 0) {
            left = static_cast<unsigned>(std::stoul(line.substr(8)));
        }
    }
    return c;
}

struct Run {
    nlohmann::json stats, summary;
};

Run run(const std::string& args) {
    const std::string dir = temp_dir();
    CliResult r = run_cli(args + " --quiet --out " + dir);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    return {nlohmann::json::parse(read_file(dir + "/stats.json")),
            nlohmann::json::parse(read_file(dir + "/summary.json"))};
}

/// A Hopper trace (binary version 90, tracer version 5, trailing immediates) of `ctas` CTAs of
/// two warps using the sm_90-only opcodes; the second warp runs half its lanes.
std::string generated_sm90(unsigned ctas) {
    std::ostringstream s;
    s << "-kernel name = _Z6hopperPfS_\n-kernel id = 1\n-grid dim = (" << ctas << ",1,1)\n"
      << "-block dim = (64,1,1)\n-shmem = 0\n-nregs = 24\n-binary version = 90\n-cuda stream id = 0\n"
      << "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n"
      << "-nvbit version = 1.7.4\n-accelsim tracer version = 5\n-enable lineinfo = 0\n\n"
      << "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
         "[adrrescompress?] [mem_addresses] immediate\n\n";
    for (unsigned c = 0; c < ctas; ++c) {
        s << "#BEGIN_TB\n\nthread block = " << c << ",0,0\n\n";
        for (unsigned w = 0; w < 2; ++w) {
            const char* mask = w == 0 ? "ffffffff" : "0000ffff";
            const uint64_t base = 0x7f1000000000ull + (c * 64 + w * 32) * 4ull;
            std::vector<std::string> lines = {
                "0000 " + std::string(mask) + " 1 R1 LDC 0 0 0",
                "0010 " + std::string(mask) + " 1 R0 S2R 0 0 0",
                "0020 " + std::string(mask) + " 1 R0 VIADD 1 R0 0 -264",
                "0030 " + std::string(mask) + " 1 R2 VIMNMX 2 R0 R1 0 0",
                "0040 " + std::string(mask) + " 1 R4 LDG.E 1 R2 4 1 0x" + [&] {
                    std::ostringstream h;
                    h << std::hex << base;
                    return h.str();
                }() + " 4 0",
                "0050 " + std::string(mask) + " 1 R4 FFMA 2 R4 R4 0 0",
                "0060 " + std::string(mask) + " 0 FENCE.VIEW.ASYNC.S 0 0 0",
                "0070 " + std::string(mask) + " 0 ELECT 0 0 0",
                "0080 " + std::string(mask) + " 0 EXIT 0 0 0",
            };
            s << "warp = " << w << "\ninsts = " << lines.size() << "\n";
            for (const auto& l : lines) s << l << " \n";
        }
        s << "\n#END_TB\n\n";
    }
    return s.str();
}

}  // namespace

TEST_CASE("trace: a generated sm_90 trace runs on h100 with exact instruction counts", "[trace][hopper]") {
    const std::string dir = temp_dir();
    const std::string text = generated_sm90(300);  // more CTAs than h100's 132 SMs
    write_file(dir + "/kernel-1.traceg", text);
    write_file(dir + "/kernelslist.g", "kernel-1.traceg\n");
    const Counts want = count_traceg(text);
    REQUIRE(want.warp == 300 * 2 * 9);
    const Run r = run("run h100 --trace " + dir + "/kernelslist.g");
    CHECK(r.stats["gpu.warp_instructions"]["value"].get<double>() == want.warp);
    CHECK(r.stats["gpu.thread_instructions"]["value"].get<double>() == want.thread);
    REQUIRE(r.summary["kernels"].size() == 1);
    CHECK(r.summary["kernels"][0]["ctas"].get<double>() == 300);
    CHECK(r.summary["kernels"][0]["cycles"].get<double>() > 0);
}

TEST_CASE("trace: kernels cut from the real H100 traces run on h100-pcie with exact instruction counts",
          "[trace][hopper]") {
    const std::string root = third_party_trace("accelsim-h100");
    // The FFMA microbenchmark's first 96 CTAs (of 4096), and backprop's first forward and output kernels.
    const std::string ffma = read_file(root + "/ffma4096_h100/kernel-1-ctx_0x5584c875a730.traceg");
    const size_t cut = [&] {
        size_t at = 0;
        for (int n = 0; n < 96; ++n) at = ffma.find("#END_TB", at) + 8;
        return at;
    }();
    std::string small = ffma.substr(0, cut);
    const size_t grid = small.find("-grid dim = (4096,1,1)");
    REQUIRE(grid != std::string::npos);
    small.replace(grid, 22, "-grid dim = (96,1,1)");
    const std::string dir = temp_dir();
    write_file(dir + "/kernel-1.traceg", small);
    std::string all = small;
    unsigned n = 1;
    for (const char* k : {"kernel-1", "kernel-3"}) {
        const std::string t = read_file(root + "/backprop_h100/" + k + "-ctx_0x55dfecb31820.traceg");
        write_file(dir + "/kernel-" + std::to_string(++n) + ".traceg", t);
        all += t;
    }
    write_file(dir + "/kernelslist.g", "kernel-1.traceg\nkernel-2.traceg\nkernel-3.traceg\n");
    const Counts want = count_traceg(all);
    REQUIRE(want.warp == 96 * 25 + 544 + 196);
    const Run r = run("run h100-pcie --trace " + dir + "/kernelslist.g");
    CHECK(r.stats["gpu.warp_instructions"]["value"].get<double>() == want.warp);
    CHECK(r.stats["gpu.thread_instructions"]["value"].get<double>() == want.thread);
    REQUIRE(r.summary["kernels"].size() == 3);
    for (const auto& k : r.summary["kernels"]) CHECK(k["cycles"].get<double>() > 0);
}
