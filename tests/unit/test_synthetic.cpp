// SPDX-License-Identifier: Apache-2.0
// Synthetic kernel generator: determinism, PTX validity and mix, CPU model vs executor,
// the workload end to end through a functional host, config validation and reading.
#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "sim/error.h"
#include "tests/unit/ptx_test_util.h"
#include "workloads/host_data.h"
#include "workloads/synthetic/cpu_model.h"
#include "workloads/synthetic/ptx_emitter.h"
#include "workloads/synthetic/synthetic_workload.h"

using namespace stacksim;
using workloads::SyntheticConfig;
using workloads::SynthOutputs;
using workloads::SynthProgram;

namespace {

const char* const kPatterns[] = {"coalesced", "strided", "random", "reuse"};

SyntheticConfig small_config(const std::string& pattern, uint32_t depth, double prob) {
    SyntheticConfig c;
    c.pattern = pattern;
    c.divergence_depth = depth;
    c.divergence_probability = prob;
    c.body_instructions = 40;  // 20 alu, 4 sfu, 8 loads, 4 stores, 4 shared
    c.alu_fraction = 0.5;
    c.sfu_fraction = 0.1;
    c.memory_fraction = 0.2;
    c.store_fraction = 0.1;
    c.shared_fraction = 0.1;
    c.iterations = 3;
    c.dependency_distance = 3;
    c.stride_elements = 5;
    c.footprint_bytes = 1024;
    c.block = 64;
    return c;
}

core::Kernel parse_program(const SynthProgram& p) {
    core::Module m = workloads::parse_ptx(workloads::emit_ptx(p), "synth.ptx");
    REQUIRE(m.kernels.size() == 1);
    REQUIRE(m.kernels[0].name == "synth");
    return m.kernels[0];
}

/// Runs launch `launch` of the parsed kernel with the functional executor.
SynthOutputs run_direct(const SynthProgram& p, const core::Kernel& k, const std::vector<uint32_t>& in,
                        uint32_t launch) {
    sim::SparseMemory mem;
    const uint64_t IN = 0x10000000, OUT = 0x20000000, FOUT = 0x30000000, SLOTS = 0x40000000;
    mem.write(IN, in.data(), in.size() * 4);
    std::vector<uint8_t> params;
    for (uint64_t a : {IN, OUT, FOUT, SLOTS}) test::push_param(params, a);
    test::push_param(params, p.salts.at(launch));
    test::run_grid(k, {p.grid, 1, 1}, p.block, params, mem);
    SynthOutputs o;
    o.out.resize(p.out_words());
    o.fout.resize(p.threads);
    o.slots.resize(p.slot_words());
    mem.read(OUT, o.out.data(), o.out.size() * 4);
    mem.read(FOUT, o.fout.data(), o.fout.size() * 4);
    mem.read(SLOTS, o.slots.data(), o.slots.size() * 4);
    return o;
}

void require_same(const SynthOutputs& a, const SynthOutputs& b) {
    REQUIRE(a.out == b.out);
    REQUIRE(a.slots == b.slots);
    REQUIRE(a.fout.size() == b.fout.size());
    for (size_t i = 0; i < a.fout.size(); ++i) REQUIRE(test::fbits(a.fout[i]) == test::fbits(b.fout[i]));
}

/// A HostApi backed by SparseMemory that runs kernels with the test reference interpreter.
class FunctionalHost : public workloads::HostApi {
public:
    bool corrupt_first_output = false;
    uint32_t launches = 0;

    workloads::DevPtr malloc(uint64_t bytes) override {
        const uint64_t p = m_next;
        m_next += (bytes + 511) / 256 * 256;
        return p;
    }
    void free(workloads::DevPtr) override {}
    void memcpy_h2d(workloads::DevPtr dst, const void* src, uint64_t bytes) override { m_mem.write(dst, src, bytes); }
    void memcpy_d2h(void* dst, workloads::DevPtr src, uint64_t bytes) override {
        m_mem.read(src, dst, bytes);
        if (corrupt_first_output && bytes >= 4) {
            static_cast<uint8_t*>(dst)[0] ^= 1;
            corrupt_first_output = false;
        }
    }
    void memset(workloads::DevPtr dst, uint8_t value, uint64_t bytes) override { m_mem.fill(dst, value, bytes); }
    void launch(const std::string&, const std::string&, workloads::Dim3, workloads::Dim3,
                const workloads::LaunchArgs&, uint32_t) override {
        FAIL("library launch not expected");
    }
    void launch_ptx_source(const std::string& name, const std::string& text, const std::string& entry,
                           workloads::Dim3 grid, workloads::Dim3 block, const workloads::LaunchArgs& args,
                           uint32_t dyn) override {
        core::Module m = workloads::parse_ptx(text, name);
        const core::Kernel* k = m.find(entry);
        REQUIRE(k != nullptr);
        REQUIRE(args.args().size() == k->params.size());
        std::vector<uint8_t> params(k->param_bytes, 0);
        for (size_t i = 0; i < k->params.size(); ++i) {
            REQUIRE(args.args()[i].bytes == k->params[i].bytes);
            std::memcpy(params.data() + k->params[i].offset, &args.args()[i].bits, args.args()[i].bytes);
        }
        test::run_grid(*k, {grid.x, grid.y, grid.z}, block.x, params, m_mem, dyn);
        ++launches;
    }
    void launch_trace(const core::TraceKernel&) override { FAIL("trace launch not expected"); }

private:
    sim::SparseMemory m_mem;
    uint64_t m_next = 0x100000;
};

}  // namespace

TEST_CASE("synthetic: same seed gives identical PTX and different seeds differ", "[synthetic]") {
    SyntheticConfig c = small_config("coalesced", 2, 0.5);
    const std::string a = workloads::emit_ptx(workloads::generate_program(c, 0, 42));
    const std::string b = workloads::emit_ptx(workloads::generate_program(c, 0, 42));
    const std::string d = workloads::emit_ptx(workloads::generate_program(c, 0, 43));
    CHECK(a == b);
    CHECK(a != d);
    CHECK(workloads::synth_source_name(a) == workloads::synth_source_name(b));
    CHECK(workloads::synth_source_name(a) != workloads::synth_source_name(d));
    CHECK(a.find(".version 8.0") != std::string::npos);
    CHECK(a.find(".target sm_75") != std::string::npos);
    CHECK(a.find(".visible .entry synth(") != std::string::npos);
}

TEST_CASE("synthetic: every pattern and divergence setting parses with the configured mix", "[synthetic]") {
    for (const char* pattern : kPatterns)
        for (uint32_t depth : {0u, 1u, 3u, 8u})
            for (double prob : {0.0, 0.3, 1.0}) {
                INFO(pattern << " depth " << depth << " p " << prob);
                SyntheticConfig c = small_config(pattern, depth, prob);
                const SynthProgram p = workloads::generate_program(c, 200, 7 + depth);
                CHECK(p.alu_ops == 20);
                CHECK(p.sfu_ops == 4);
                CHECK(p.loads == 8);
                CHECK(p.stores == 4);
                CHECK(p.shared_ops == 4);
                CHECK(p.regions == depth);
                const core::Kernel k = parse_program(p);
                std::map<std::string, uint32_t> n;
                for (const auto& in : k.code) {
                    const std::string name = in.name();
                    if (in.unit() == core::UnitClass::Sfu) ++n["sfu"];
                    if (in.unit() == core::UnitClass::Alu) ++n["alu"];
                    if (name == "ld" && in.space == core::StateSpace::Global) ++n["ld.global"];
                    if (name == "st" && in.space == core::StateSpace::Global) ++n["st.global"];
                    if (name == "ld" && in.space == core::StateSpace::Shared) ++n["ld.shared"];
                    if (name == "st" && in.space == core::StateSpace::Shared) ++n["st.shared"];
                    if (in.control() == core::ControlKind::Barrier) ++n["bar"];
                    if (name == "bra" && in.guard != core::kNoReg) ++n["cond.bra"];
                }
                CHECK(n["sfu"] == p.sfu_ops);
                CHECK(n["ld.global"] == p.loads);
                CHECK(n["st.global"] == p.stores + 2);  // + result and float result
                CHECK(n["ld.shared"] == p.shared_ops);
                CHECK(n["st.shared"] == p.shared_ops);
                CHECK(n["bar"] == p.shared_ops);  // even count: no trailing barrier
                CHECK(n["cond.bra"] == depth + 1);  // regions + the loop branch
                CHECK(n["alu"] >= p.alu_ops);
            }
}

TEST_CASE("synthetic: dependency distance sets the number of chains", "[synthetic]") {
    for (uint32_t d : {1u, 2u, 7u}) {
        SyntheticConfig c = small_config("coalesced", 0, 0.5);
        c.dependency_distance = d;
        c.alu_fraction = 1.0;
        c.sfu_fraction = c.memory_fraction = c.store_fraction = c.shared_fraction = 0.0;
        const SynthProgram p = workloads::generate_program(c, 64, 3);
        // Op i of the body writes chain i mod d, so its source is op i - d.
        for (size_t i = 0; i < p.body.size(); ++i) CHECK(p.body[i].chain == i % d);
        const core::Kernel k = parse_program(p);
        std::set<std::string> written;
        for (const auto& in : k.code)
            if (in.num_dst && in.dst[0].kind == core::Operand::Kind::Reg &&
                k.reg_names[in.dst[0].reg].rfind("%v", 0) == 0)
                written.insert(k.reg_names[in.dst[0].reg]);
        CHECK(written.size() == d);
    }
}

TEST_CASE("synthetic: odd shared count adds one barrier per iteration", "[synthetic]") {
    SyntheticConfig c = small_config("coalesced", 1, 0.5);
    c.body_instructions = 10;  // 5 alu, 1 sfu, 2 loads, 1 store, 1 shared
    const SynthProgram p = workloads::generate_program(c, 64, 11);
    REQUIRE(p.shared_ops == 1);
    uint32_t bars = 0;
    for (const auto& in : parse_program(p).code) bars += in.control() == core::ControlKind::Barrier;
    CHECK(bars == 2);
}

TEST_CASE("synthetic: CPU model equals the functional execution of the parsed kernel", "[synthetic]") {
    for (const char* pattern : kPatterns)
        for (uint32_t depth : {0u, 2u})
            for (double prob : {0.0, 0.4, 1.0}) {
                INFO(pattern << " depth " << depth << " p " << prob);
                SyntheticConfig c = small_config(pattern, depth, prob);
                if (depth == 2) c.body_instructions = 30;  // odd shared count: 3
                const SynthProgram p = workloads::generate_program(c, 150, 99 + depth);
                const core::Kernel k = parse_program(p);
                std::vector<uint32_t> in = workloads::random_u32(p.footprint_words, 5, 0, 0xFFFFFFFFu);
                for (uint32_t l = 0; l < p.launches(); ++l) {
                    const SynthOutputs want = workloads::run_cpu_model(p, in, l);
                    const SynthOutputs got = run_direct(p, k, in, l);
                    require_same(got, want);
                    CHECK(std::count(want.out.begin(), want.out.begin() + p.threads, 0u) < 3);
                    if (depth == 0) CHECK(std::count(want.slots.begin(), want.slots.end(), 0u) < 3);
                    in.assign(want.out.begin(), want.out.begin() + p.footprint_words);
                }
            }
}

TEST_CASE("synthetic: divergence probability is the per-lane then rate", "[synthetic]") {
    for (double prob : {0.1, 0.5, 0.9}) {
        const uint64_t thr = uint64_t(prob * 4294967296.0);
        uint32_t hs = 12345, taken = 0;
        const uint32_t samples = 100000;
        for (uint32_t i = 0; i < samples; ++i) {
            taken += workloads::synth_takes_then(workloads::synth_thread_hash(i, 77) ^ hs, 0xABCDEF01u, thr);
            hs = hs * workloads::kSynthLcgMul + workloads::kSynthLcgAdd;
        }
        CHECK(std::fabs(double(taken) / samples - prob) < 0.01);
    }
}

TEST_CASE("synthetic: workload runs through a host and verifies every element", "[synthetic]") {
    for (const char* pattern : kPatterns) {
        INFO(pattern);
        SyntheticConfig c = small_config(pattern, 1, 0.5);
        auto w = std::make_unique<workloads::SyntheticWorkload>(c, 100, 2024);
        CHECK_FALSE(w->verify().ok);  // not run yet
        FunctionalHost host;
        w->run(host);
        CHECK(host.launches == (std::string(pattern) == "reuse" ? 2u : 1u));
        const workloads::VerifyResult r = w->verify();
        CHECK(r.ok);
        CHECK(r.mismatches == 0);
        const auto& sw = static_cast<const workloads::SyntheticWorkload&>(*w);
        CHECK(sw.program().grid == 2);  // size 100 overrides grid 16 with block 64
        const uint64_t per_launch = sw.program().out_words() + 100 + sw.program().slot_words();
        CHECK(r.checked == per_launch * sw.program().launches());
    }
    FunctionalHost bad;
    bad.corrupt_first_output = true;
    auto w = std::make_unique<workloads::SyntheticWorkload>(small_config("coalesced", 1, 0.5), 100, 1);
    w->run(bad);
    const workloads::VerifyResult r = w->verify();
    CHECK_FALSE(r.ok);
    CHECK(r.detail.find("out[0]") == 0);
}

TEST_CASE("synthetic: check rejects out-of-range values naming the key", "[synthetic]") {
    CHECK_NOTHROW(SyntheticConfig{}.check());
    auto rejects = [](const std::string& key, auto mutate) {
        SyntheticConfig c;
        mutate(c);
        INFO(key);
        CHECK_THROWS_AS(c.check(), sim::ConfigError);
        CHECK_THROWS_WITH(c.check(), Catch::Matchers::Contains("synthetic." + key + ": "));
    };
    rejects("alu_fraction", [](SyntheticConfig& c) { c.alu_fraction = 0.7; });  // sum 1.1
    rejects("sfu_fraction", [](SyntheticConfig& c) { c.sfu_fraction = -0.1; });
    rejects("memory_fraction", [](SyntheticConfig& c) { c.memory_fraction = 1.5; });
    rejects("store_fraction", [](SyntheticConfig& c) { c.store_fraction = 2; });
    rejects("shared_fraction", [](SyntheticConfig& c) { c.shared_fraction = -1; });
    rejects("body_instructions", [](SyntheticConfig& c) { c.body_instructions = 0; });
    rejects("body_instructions", [](SyntheticConfig& c) { c.body_instructions = 5000; });
    rejects("iterations", [](SyntheticConfig& c) { c.iterations = 0; });
    rejects("dependency_distance", [](SyntheticConfig& c) { c.dependency_distance = 0; });
    rejects("dependency_distance", [](SyntheticConfig& c) { c.dependency_distance = 33; });
    rejects("divergence_probability", [](SyntheticConfig& c) { c.divergence_probability = 1.01; });
    rejects("divergence_depth", [](SyntheticConfig& c) { c.divergence_depth = 9; });
    rejects("pattern", [](SyntheticConfig& c) { c.pattern = "zigzag"; });
    rejects("stride_elements", [](SyntheticConfig& c) { c.stride_elements = 0; });
    rejects("footprint_bytes", [](SyntheticConfig& c) { c.footprint_bytes = 1000; });
    rejects("footprint_bytes", [](SyntheticConfig& c) { c.footprint_bytes = 64; });
    rejects("grid", [](SyntheticConfig& c) { c.grid = 0; });
    rejects("block", [](SyntheticConfig& c) { c.block = 1025; });
    SyntheticConfig sum_above_one;
    sum_above_one.alu_fraction = 0.7;
    CHECK_THROWS_WITH(sum_above_one.validate(), Catch::Matchers::StartsWith("alu_fraction: "));
    CHECK_THROWS_AS(workloads::SyntheticWorkload([] {
        SyntheticConfig c;
        c.iterations = 0;
        return c;
    }(), 10, 1), sim::ConfigError);
    CHECK_THROWS_AS(workloads::SyntheticWorkload(SyntheticConfig{}, 65535 * 256 + 1, 1), sim::InputError);
}

TEST_CASE("synthetic: every key of [synthetic] is declared and read", "[synthetic]") {
    const auto& declared = SyntheticConfig::params().params();
    CHECK(declared.size() == 15);
    std::string toml = "[synthetic]\n";
    for (const auto& p : declared) {
        const std::string& k = p->key();
        toml += k + " = " +
                (k == "pattern" ? "\"random\"" : k.find("fraction") != std::string::npos || k == "divergence_probability"
                                                    ? "0.2"
                                                    : k == "footprint_bytes" ? "4096" : "7") +
                "\n";
    }
    auto doc = sim::ConfigDoc::from_string(toml, "t.toml");
    SyntheticConfig c;
    SyntheticConfig::params().read_into(doc.section("synthetic"), c);  // five fractions of 0.2 sum to 1
    doc.check_all_used();
    CHECK(c.pattern == "random");
    CHECK(c.footprint_bytes == 4096);
    CHECK(c.block == 7);
    CHECK(c.grid == 7);
    CHECK(c.divergence_probability == 0.2);
    CHECK(c.describe().find("pattern=random") != std::string::npos);
}
