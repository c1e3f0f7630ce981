// SPDX-License-Identifier: Apache-2.0
// The VCD writer: nested scopes, time order of changes recorded ahead, last change of a time wins.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "top/vcd_writer.h"

using stacksim::top::VcdWriter;

namespace {
std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}
}  // namespace

TEST_CASE("vcd writer: scopes, declarations and changes in time order", "[vcd]") {
    const std::string path =
        (std::filesystem::temp_directory_path() / ("stacksim_vcd_" + std::to_string(::getpid()) + ".vcd")).string();
    {
        VcdWriter w(path, "core cycle N is at N x 1000 ps", 1000);
        const unsigned issue = w.add_bits("gpu.sm0.w1", "issue", 1);
        const unsigned pc = w.add_bits("gpu.sm0.w1", "pc", 32);
        const unsigned ipc = w.add_real("gpu.counters", "ipc");
        w.start();
        w.change(issue, 5, 1);
        w.change(issue, 6, 0);  // the pulse's fall, recorded ahead
        w.change(pc, 5, 19);
        w.advance(6);
        CHECK_FALSE(std::filesystem::exists(path));  // written as .part until finished
        w.change(issue, 6, 1);  // a second issue on the next cycle: the last change at 6 counts
        w.change(issue, 7, 0);
        w.change_real(ipc, 7, 1.5);
        w.finish(10);
    }
    const std::string vcd = slurp(path);
    std::filesystem::remove(path);
    // Issue 32: the timescale tells the truth: picoseconds, a cycle of 1000 ps is 1000 units.
    CHECK(vcd.find("$timescale 1 ps $end") != std::string::npos);
    CHECK(vcd.find("$comment core cycle N is at N x 1000 ps $end") != std::string::npos);
    CHECK(vcd.find("$scope module gpu $end\n$scope module sm0 $end\n$scope module w1 $end\n"
                   "$var wire 1 ! issue $end\n$var reg 32 \" pc $end\n$upscope $end\n$upscope $end\n"
                   "$scope module counters $end\n$var real 64 # ipc $end\n$upscope $end\n$upscope $end\n"
                   "$enddefinitions $end") != std::string::npos);
    const std::string changes = vcd.substr(vcd.find("$end\n#5000"));
    CHECK(changes == "$end\n#5000\n1!\nb10011 \"\n#6000\n1!\n#7000\n0!\nr1.5 #\n#10000\n");
}
