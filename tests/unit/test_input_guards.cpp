// SPDX-License-Identifier: Apache-2.0
// Guards on input: printable messages, the CLI's error mapping, the memory estimate.
#include <catch2/catch.hpp>

#include <filesystem>
#include <new>
#include <string>

#include "sim/error.h"
#include "sim/printable.h"
#include "top/cli.h"
#include "top/memory_estimate.h"
#include "top/run_config.h"

using namespace stacksim;

TEST_CASE("printable: control characters and invalid UTF-8 are escaped, valid UTF-8 kept", "[errors]") {
    CHECK(sim::printable("plain text: 1.5") == "plain text: 1.5");
    CHECK(sim::printable("a\rb\nc\td") == "a\\rb\\nc\\td");
    CHECK(sim::printable("a\nb", true) == "a\nb");
    CHECK(sim::printable("\x1b[31mred") == "\\x1B[31mred");
    CHECK(sim::printable(std::string("nul\0x", 5)) == "nul\\x00x");
    CHECK(sim::printable("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80") == "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80");
    CHECK(sim::printable("\xff\xfe") == "\\xFF\\xFE");
    CHECK(sim::printable("\xc3") == "\\xC3");             // cut sequence
    CHECK(sim::printable("\xc0\xaf") == "\\xC0\\xAF");    // overlong
    CHECK(sim::printable("\xed\xa0\x80") == "\\xED\\xA0\\x80");  // UTF-16 surrogate
    CHECK(sim::printable("\x7f") == "\\x7F");
}

TEST_CASE("cli errors: bad input, refused paths and exhausted memory exit 2, failures 3", "[errors]") {
    CHECK(top::report_error(std::make_exception_ptr(sim::InputError("x"))) == 2);
    CHECK(top::report_error(std::make_exception_ptr(std::bad_alloc())) == 2);
    CHECK(top::report_error(std::make_exception_ptr(std::filesystem::filesystem_error(
              "status", std::string(300, 'a'), std::make_error_code(std::errc::filename_too_long)))) == 2);
    CHECK(top::report_error(std::make_exception_ptr(sim::SimulationError("deadlock"))) == 3);
    CHECK(top::report_error(std::make_exception_ptr(std::runtime_error("other"))) == 3);
}

TEST_CASE("memory estimate: caches, TLBs, SM state and workload data scale with the configuration", "[memory]") {
    top::RunConfig c;
    c.run.workload = sim::PolicySpec{"vecadd"};
    c.run.size = 1000000;
    const top::MemoryEstimate base = top::estimate_memory(c);
    CHECK(base.workload == 24000000);  // a, b and c on the host and in device memory
    top::RunConfig big = c;
    big.l1.size_bytes *= 2;
    const uint64_t l1_lines = c.l1.size_bytes / c.l1.line_bytes;
    CHECK(top::estimate_memory(big).caches - base.caches == c.gpu.num_sms * l1_lines * 32);
    big = c;
    big.gpu.num_sms *= 2;
    CHECK(top::estimate_memory(big).cores == 2 * base.cores);
    CHECK(base.translation == 0);  // no TLBs without unified memory
    big = c;
    big.uvm.mode = memory::UvmMode::Managed;
    CHECK(top::estimate_memory(big).translation > 0);
    CHECK(base.total() == base.caches + base.translation + base.cores + base.network + base.workload + base.base);
    CHECK(base.breakdown().find("workload data") != std::string::npos);
    // Limit: the key when set, else half of the machine's memory.
    c.run.max_memory_gb = 2.5;
    CHECK(top::memory_limit_bytes(c) == 2500000000u);
    c.run.max_memory_gb = 0;
    CHECK(top::memory_limit_bytes(c) > 0);
}

TEST_CASE("memory estimate: the refusal names run.max_memory_gb and where it was set", "[memory][errors]") {
    sim::ConfigDoc doc = top::load_config("small");
    doc.apply_override("run.size=100000000");
    doc.apply_override("run.max_memory_gb=1");
    try {
        top::read_run_config(doc);
        FAIL("no error");
    } catch (const sim::ConfigError& e) {
        const std::string m = e.what();
        INFO(m);
        CHECK(m.find("--set run.max_memory_gb=1: run.max_memory_gb: this run would need about 2.4 GB") == 0);
        CHECK(m.find("workload data 2.4 GB") != std::string::npos);
    }
}
