// SPDX-License-Identifier: Apache-2.0
// The teaching views name the CUDA source line of an instruction of a `nvcc -lineinfo` build.
#include <catch2/catch.hpp>

#include <string>

#include "core/kernel.h"
#include "core/sm_observer.h"
#include "top/sm_observers.h"
#include "workloads/ptx_parser.h"

using namespace stacksim;

namespace {
const char* const kLineinfo = R"(.version 8.8
.target sm_75
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	.loc	1 7 3
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	st.global.u32 [%rd1], %r1;
	ret;
}
	.file	1 "/src/kernel.cu"
)";

core::SmEvent issue_of(const core::Kernel& k, uint32_t pc) {
    core::SmEvent e{core::SmEventKind::Issue, 100, 0, 0, 0, pc, 0xffffffffu, 0, 0, 0, &k.code.at(pc)};
    e.source_files = &k.source_files;
    return e;
}
}  // namespace

TEST_CASE("watch: an issue line names the CUDA file and line of a -lineinfo build", "[teaching][loc]") {
    const core::Module m = workloads::parse_ptx(kLineinfo, "lineinfo.ptx");
    const core::Kernel& k = m.kernels.at(0);
    top::WatchLog log({"sm0.w0"}, 1, 1);
    log.on_event(issue_of(k, 0));
    CHECK(log.text().find("ld.param.u64") != std::string::npos);
    CHECK(log.text().find("// /src/kernel.cu:7") != std::string::npos);
    CHECK(issue_of(k, 2).source_line() == "/src/kernel.cu:7");  // a .loc holds until the next one
}

TEST_CASE("watch: without line information an issue line shows the PTX only", "[teaching][loc]") {
    const std::string plain = std::string(kLineinfo).replace(std::string(kLineinfo).find(".loc"), 11, "");
    const core::Module m = workloads::parse_ptx(plain, "plain.ptx");
    top::WatchLog log({"sm0.w0"}, 1, 1);
    core::SmEvent e = issue_of(m.kernels.at(0), 0);
    CHECK(e.source_line().empty());
    e.source_files = nullptr;  // a trace has no file table
    CHECK(e.source_line().empty());
    log.on_event(e);
    CHECK(log.text().find("//") == std::string::npos);
}
