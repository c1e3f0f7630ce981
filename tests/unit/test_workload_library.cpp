// SPDX-License-Identifier: Apache-2.0
// Unit tests of the workload library: entries, PTX, host programs on a fake device, host data.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sim/error.h"
#include "workloads/host_data.h"
#include "workloads/workload_registry.h"

using namespace stacksim::workloads;
using stacksim::sim::InputError;

namespace {

const std::string kKernelDir = STACKSIM_SOURCE_DIR "/workloads/kernels/";

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

/// Appends the byte sizes of the .params of `entry` in `ptx`; false if there is no such entry.
bool entry_params(const std::string& ptx, const std::string& entry, std::vector<int>& sizes) {
    const size_t at = ptx.find(".entry " + entry + "(");
    if (at == std::string::npos) return false;
    const size_t end = ptx.find(')', at);
    std::istringstream body(ptx.substr(at, end - at));
    std::string line;
    while (std::getline(body, line)) {
        const size_t p = line.find(".param .");
        if (p == std::string::npos) continue;
        const char* type = line.c_str() + p + 8;  // e.g. "u64 name"
        sizes.push_back((type[1] == '6' && type[2] == '4') ? 8 : 4);
    }
    return true;
}

/// A device that records allocations and launches but executes nothing: every download
/// returns `fill` bytes, so verify() sees zeros or garbage.
class FakeDevice final : public HostApi {
public:
    struct Launch {
        std::string ptx_file, entry;
        Dim3 grid, block;
        std::vector<LaunchArgs::Arg> args;
        std::string ptx_text;  ///< generated PTX (launch_ptx_source); empty for library files
    };
    struct Alloc {
        DevPtr base;
        uint64_t bytes;
        bool freed;
    };
    explicit FakeDevice(uint8_t fill) : m_fill(fill) {}

    DevPtr malloc(uint64_t bytes) override {
        const DevPtr p = m_next;
        m_next += (bytes + 255) / 256 * 256 + 256;
        allocs.push_back({p, bytes, false});
        return p;
    }
    void free(DevPtr p) override {
        Alloc* a = find(p, 0);
        REQUIRE(a != nullptr);
        CHECK(a->base == p);
        CHECK_FALSE(a->freed);
        a->freed = true;
    }
    void memcpy_h2d(DevPtr dst, const void*, uint64_t bytes) override { check_range(dst, bytes); }
    void memcpy_d2h(void* dst, DevPtr src, uint64_t bytes) override {
        check_range(src, bytes);
        std::memset(dst, m_fill, bytes);
    }
    void memset(DevPtr dst, uint8_t, uint64_t bytes) override { check_range(dst, bytes); }
    void launch(const std::string& ptx_file, const std::string& entry, Dim3 grid, Dim3 block,
                const LaunchArgs& args, uint32_t) override {
        launches.push_back({ptx_file, entry, grid, block, args.args(), ""});
    }
    void launch_ptx_source(const std::string& name, const std::string& text, const std::string& entry, Dim3 grid,
                           Dim3 block, const LaunchArgs& args, uint32_t) override {
        launches.push_back({name, entry, grid, block, args.args(), text});
    }
    void launch_trace(const stacksim::core::TraceKernel&) override {}

    std::vector<Alloc> allocs;
    std::vector<Launch> launches;

private:
    Alloc* find(DevPtr p, uint64_t bytes) {
        for (auto& a : allocs)
            if (p >= a.base && p + bytes <= a.base + a.bytes && !a.freed) return &a;
        return nullptr;
    }
    void check_range(DevPtr p, uint64_t bytes) {
        INFO("device range 0x" << std::hex << p << " + " << std::dec << bytes);
        CHECK(find(p, bytes) != nullptr);
    }
    uint8_t m_fill;
    DevPtr m_next = 0x100000;
};

/// Library entry `w` for problem size `size` (no default: 0 is rejected).
std::unique_ptr<Workload> make(const WorkloadInfo& w, uint32_t size, uint64_t seed) {
    return workload_registry().create(w.name, WorkloadArgs{size, seed});
}

bool covers(uint64_t threads, uint64_t per_thread, uint64_t block, uint64_t n) {
    return threads * per_thread >= n && (threads - block) * per_thread < n;  // no idle CTA
}

using Launch = FakeDevice::Launch;
using Covers = std::function<bool(const Launch&, uint32_t)>;
using Entries = std::function<std::vector<std::string>(uint32_t)>;

/// What a workload's host program must launch for problem size `size` (on a device that
/// returns zeros), and the sizes to try (empty: default, 37 or 1000, and 1).
struct Expectation {
    Entries entries;
    Covers covers_problem;
    std::vector<uint32_t> sizes = {};
};

/// `names` repeated `times(size)` times.
Entries repeat(std::vector<std::string> names, std::function<uint32_t(uint32_t)> times) {
    return [names, times](uint32_t size) {
        std::vector<std::string> out;
        for (uint32_t i = 0; i < times(size); ++i) out.insert(out.end(), names.begin(), names.end());
        return out;
    };
}
Entries fixed(std::vector<std::string> names) {
    return repeat(std::move(names), [](uint32_t) { return 1u; });
}
/// The i32 value of launch argument `k` (negative k counts from the end).
int32_t arg_i32(const Launch& l, int k) {
    return static_cast<int32_t>(l.args.at(k < 0 ? l.args.size() + k : static_cast<size_t>(k)).bits);
}
/// The lud launches for matrix dimension n: (diagonal, perimeter, internal) per block step.
std::vector<std::string> lud_entries(uint32_t n) {
    std::vector<std::string> out;
    for (uint32_t i = 0; i + 16 < n; i += 16) out.insert(out.end(), {"lud_diagonal", "lud_perimeter", "lud_internal"});
    out.push_back("lud_diagonal");
    return out;
}
/// The scan launches: prescan per level down to one block, uniform_add per level back up.
std::vector<std::string> scan_entries(uint32_t n) {
    uint32_t levels = 1;
    for (uint32_t blocks = (n + 511) / 512; blocks > 1; blocks = (blocks + 511) / 512) ++levels;
    std::vector<std::string> out(levels, "prescan");
    out.insert(out.end(), levels - 1, "uniform_add");
    return out;
}

std::map<std::string, Expectation> expectations() {
    auto linear = [](uint64_t per_thread) {
        return [per_thread](const Launch& l, uint32_t n) {
            return l.grid.y == 1 && l.grid.z == 1 && l.block.y == 1 && l.block.z == 1 &&
                   covers(l.grid.x * uint64_t{l.block.x}, per_thread, l.block.x, n);
        };
    };
    auto square = [](const Launch& l, uint32_t n) {
        return l.grid.z == 1 && l.block.z == 1 &&
               covers(l.grid.x * uint64_t{l.block.x}, 1, l.block.x, n) &&
               covers(l.grid.y * uint64_t{l.block.y}, 1, l.block.y, n);
    };
    auto reduction = [](const Launch& l, uint32_t n) {
        return l.block.x == 256 && covers(l.grid.x * uint64_t{l.block.x}, 2, l.block.x, n);
    };
    auto tiles16 = [square](const Launch& l, uint32_t n) {
        return l.block.x == 16 && l.block.y == 16 && square(l, n);
    };
    auto linear_or_square = [linear, square](const Launch& l, uint32_t n) {
        return l.block.y == 1 ? linear(1)(l, n) : square(l, n);
    };
    // Ghost-zone pyramids: each CTA of `block` threads per side produces block - 2*halo.
    auto pyramid = [](uint32_t block, uint32_t halo, bool two_d) {
        return [=](const Launch& l, uint32_t n) {
            const uint32_t inner = block - 2 * halo;
            const bool x = l.block.x == block && covers(uint64_t{l.grid.x} * inner, 1, inner, n);
            return x && (two_d ? l.block.y == block && l.grid.y == l.grid.x : l.grid.y == 1);
        };
    };
    auto lud = [](const Launch& l, uint32_t n) {
        const uint32_t strips = (n - static_cast<uint32_t>(arg_i32(l, 2))) / 16 - 1;
        if (l.entry == "lud_diagonal") return l.grid.count() == 1 && l.block.x == 16 && l.block.y == 1;
        if (l.entry == "lud_perimeter") return l.grid.x == strips && l.grid.y == 1 && l.block.x == 32;
        return l.grid.x == strips && l.grid.y == strips && l.block.x == 16 && l.block.y == 16;
    };
    auto exact16 = [](const Launch& l, uint32_t n) {  // srad: whole 16x16 tiles
        return l.block.x == 16 && l.block.y == 16 && l.grid.x * 16 == n && l.grid.y * 16 == n;
    };
    auto backprop = [](const Launch& l, uint32_t n) {
        return l.block.x == 16 && l.block.y == 16 && l.grid.x == 1 && l.grid.y * 16 == n;
    };
    auto scan = [linear](const Launch& l, uint32_t) {  // each level covers its own length
        return l.block.x == 256 && linear(2)(l, static_cast<uint32_t>(arg_i32(l, -1)));
    };
    auto grid_stride = [](const Launch& l, uint32_t n) {  // stream: grid-stride loop, capped grid
        return l.block.x == 256 && l.grid.x == std::min<uint32_t>((n + 255) / 256, 1024);
    };
    auto sad = [](const Launch& l, uint32_t n) {  // one thread per 4x4 block and search position
        return l.block.x == 128 && l.grid.y == 1 && covers(l.grid.x * uint64_t{128}, 1, 128, uint64_t{n / 4} * (n / 4) * 81);
    };
    auto cp = [](const Launch& l, uint32_t n) {  // two points per thread, 16 apart
        return l.block.x == 16 && l.block.y == 8 && l.grid.x * 32 == n && l.grid.y * 8 == n;
    };
    auto lib = [](const Launch& l, uint32_t n) {  // grid-stride over the paths, at most 64 CTAs
        return l.block.x == 64 && l.grid.y == 1 && l.grid.x == std::min<uint32_t>((n + 63) / 64, 64);
    };
    auto nn = [](const Launch& l, uint32_t n) {  // blockIdx.y is the image
        const std::map<std::string, std::pair<uint32_t, uint32_t>> shape = {  // CTAs per image, block
            {"executeFirstLayer", {6, 13 * 13}}, {"executeSecondLayer", {50, 5 * 5}},
            {"executeThirdLayer", {100, 1}}, {"executeFourthLayer", {10, 1}}};
        const auto& [ctas, threads] = shape.at(l.entry);
        return l.grid.y == n && l.grid.x == ctas && l.block.count() == threads;
    };
    const std::vector<uint32_t> mult16 = {16, 48, 64};
    const std::vector<std::string> fdtd = {"fdtd_step1", "fdtd_step2", "fdtd_step3"};
    return {
        {"2dconv", {fixed({"conv2d"}), square}},
        {"3dconv", {repeat({"conv3d"}, [](uint32_t n) { return n > 2 ? n - 2 : 0; }), square}},
        {"atax", {fixed({"atax_kernel1", "atax_kernel2"}), linear(1)}},
        {"backprop", {fixed({"bpnn_layerforward", "bpnn_adjust_weights"}), backprop, {16, 48, 1024}}},
        {"bfs", {fixed({"bfs_kernel", "bfs_kernel2"}), linear(1)}},  // zeros: no node added
        {"bicg", {fixed({"bicg_kernel1", "bicg_kernel2"}), linear(1)}},
        {"blackscholes", {fixed({"BlackScholesGPU"}), linear(2), {1, 999, 1000, 8192}}},
        {"cons", {fixed({"convolution_rows", "convolution_columns"}), square}},
        {"corr", {fixed({"corr_mean", "corr_std", "corr_reduce", "corr_corr"}), linear_or_square}},
        {"covar", {fixed({"covar_mean", "covar_reduce", "covar_covar"}), linear_or_square}},
        {"cp", {fixed({"cenergy"}), cp, {32, 64, 256}}},
        {"divergence", {fixed({"divergence"}), linear(1)}},
        {"fdtd2d", {repeat(fdtd, [](uint32_t) { return 4u; }), square}},
        {"gemm", {fixed({"gemm_kernel"}), square}},
        {"gesummv", {fixed({"gesummv_kernel"}), linear(1)}},
        {"hotspot", {repeat({"calculate_temp"}, [](uint32_t) { return 3u; }), pyramid(16, 2, true)}},
        // zeros: every point joins centre 0 twice in a row, so the second iteration is the last
        {"kmeans", {fixed({"invert_mapping", "kmeansPoint", "kmeansPoint"}), linear(1)}},
        {"lib", {fixed({"Pathcalc_Portfolio_KernelGPU2"}), lib, {4096, 1000, 1, 5000}}},
        {"lps", {repeat({"laplace3d"}, [](uint32_t) { return 2u; }), square}},
        {"lud", {lud_entries, lud, mult16}},
        {"matmul", {fixed({"matmul"}), tiles16}},
        {"mum", {fixed({"mummergpuKernel"}), linear(1)}},
        {"mvt", {fixed({"mvt_kernel1", "mvt_kernel2"}), linear(1)}},
        {"nn", {fixed({"executeFirstLayer", "executeSecondLayer", "executeThirdLayer", "executeFourthLayer"}), nn,
                {28, 3, 1}}},
        {"pathfinder", {repeat({"dynproc_kernel"}, [](uint32_t) { return 4u; }), pyramid(256, 5, false)}},
        {"pchase", {fixed({"pchase", "pchase", "pchase"}), [](const Launch& l, uint32_t) {  // one thread
                        return l.grid.count() == 1 && l.block.count() == 1;
                    }}},
        {"reduction", {fixed({"reduction"}), reduction}},
        {"saxpy", {fixed({"saxpy"}), linear(1)}},
        {"sad", {fixed({"mb_sad_calc"}), sad, {4, 36, 64}}},
        {"scan", {scan_entries, scan, {1, 512, 513, 16384, 300000}}},
        {"srad", {repeat({"srad_cuda_1", "srad_cuda_2"}, [](uint32_t) { return 2u; }), exact16, mult16}},
        {"stencil2d", {repeat({"stencil2d"}, [](uint32_t) { return 4u; }), tiles16}},
        {"stream", {fixed({"stream_copy"}), grid_stride}},
        {"stream_read", {fixed({"stream_read"}), grid_stride}},
        {"synthetic", {fixed({"synth"}), linear(1)}},  // default [synthetic]: coalesced, one launch
        {"pcie_copy", {fixed({}), grid_stride}},
        {"random_traffic", {fixed({"random_traffic"}), [](const Launch& l, uint32_t) {
                                return l.grid.x == 32 && l.block.x == 256;
                            }}},
        {"vecadd", {fixed({"vecadd"}), linear(1)}},
    };
}

}  // namespace

TEST_CASE("library: lists every workload sorted, with its PTX files") {
    const auto& lib = workload_library();
    std::vector<std::string> names;
    for (const auto& w : lib) names.push_back(w.name);
    CHECK(names == std::vector<std::string>{
                       "2dconv", "3dconv", "atax", "backprop", "bfs", "bicg", "blackscholes", "cons", "corr",
                       "covar", "cp", "divergence", "fdtd2d", "gemm", "gesummv", "hotspot", "kmeans", "lib", "lps",
                       "lud", "matmul", "mum", "mvt", "nn", "pathfinder", "pchase", "pcie_copy", "random_traffic",
                       "reduction", "sad", "saxpy", "scan", "srad", "stencil2d", "stream", "stream_read", "synthetic",
                       "vecadd"});
    // SPEC §3: regular without / with inter-kernel sharing, irregular.
    const std::map<std::string, WorkloadClass> special = {
        {"atax", WorkloadClass::Irregular},       {"bicg", WorkloadClass::Irregular},
        {"gesummv", WorkloadClass::Irregular},    {"mvt", WorkloadClass::Irregular},
        {"bfs", WorkloadClass::Irregular},        {"mum", WorkloadClass::Irregular},
        {"lud", WorkloadClass::RegularSharing},
        {"srad", WorkloadClass::RegularSharing},  {"scan", WorkloadClass::RegularSharing},
        {"cons", WorkloadClass::RegularSharing},
        {"kmeans", WorkloadClass::RegularSharing}, {"backprop", WorkloadClass::RegularSharing},
        {"reduction", WorkloadClass::Other},      {"divergence", WorkloadClass::Other},
        {"pcie_copy", WorkloadClass::Other},      {"random_traffic", WorkloadClass::Irregular},
        {"pchase", WorkloadClass::Other},         {"synthetic", WorkloadClass::Other},
    };
    for (const auto& w : lib) {
        INFO(w.name);
        CHECK(find_workload(w.name) == &w);
        CHECK(w.size.default_size > 0);
        CHECK_FALSE(w.description.empty());
        CHECK_FALSE(w.size.meaning.empty());
        // pcie_copy launches nothing; synthetic generates its PTX.
        if (w.name != "pcie_copy" && w.name != "synthetic") REQUIRE_FALSE(w.ptx_files.empty());
        for (const auto& f : w.ptx_files) CHECK(std::ifstream(kKernelDir + f).good());
        const auto it = special.find(w.name);
        CHECK(w.cls == (it == special.end() ? WorkloadClass::Regular : it->second));
    }
    CHECK(find_workload("nosuch") == nullptr);
    CHECK(find_workload("") == nullptr);
}

TEST_CASE("library: PTX files use no calls, local memory or module-scope data") {
    for (const auto& w : workload_library()) {
        for (const auto& f : w.ptx_files) {
            INFO(f);
            const std::string ptx = read_text(kKernelDir + f);
            REQUIRE_FALSE(ptx.empty());
            CHECK(ptx.find(".entry") != std::string::npos);
            for (const char* bad : {".local", "call", ".func", ".global .", ".const"}) {
                INFO(bad);
                CHECK(ptx.find(bad) == std::string::npos);
            }
        }
    }
}

TEST_CASE("library: rejects size 0") {
    for (const auto& w : workload_library()) {
        INFO(w.name);
        CHECK_THROWS_AS(make(w, 0, 1), InputError);
    }
}

TEST_CASE("library: tiled workloads reject sizes that are not multiples of 16") {
    for (const char* name : {"lud", "srad", "backprop"}) {
        INFO(name);
        const WorkloadInfo* w = find_workload(name);
        REQUIRE(w != nullptr);
        CHECK(w->size.multiple_of == 16);
        CHECK(w->size.default_size % 16 == 0);
        CHECK_THROWS_AS(make(*w, 37, 1), InputError);
        CHECK_NOTHROW(make(*w, 32, 1));
    }
}

TEST_CASE("library: host programs launch the expected entries over the whole problem") {
    const auto expect = expectations();
    for (const auto& w : workload_library()) {
        REQUIRE(expect.count(w.name) == 1);
        const Expectation& e = expect.at(w.name);
        const bool is_dim = w.size.meaning.find("dimension") != std::string::npos;
        std::vector<uint32_t> sizes = e.sizes;
        if (sizes.empty()) sizes = {w.size.default_size, is_dim ? 37u : 1000u, 1u};
        for (uint32_t size : sizes) {
            INFO(w.name << " size " << size);
            FakeDevice dev(0);
            auto wl = make(w, size, 42);
            CHECK_FALSE(wl->verify().ok);  // not run yet
            wl->run(dev);
            const std::vector<std::string> entries = e.entries(size);
            REQUIRE(dev.launches.size() == entries.size());
            for (size_t i = 0; i < entries.size(); ++i) {
                const auto& l = dev.launches[i];
                INFO("launch " << i << " " << l.entry << " grid " << l.grid.x << "x" << l.grid.y
                               << " block " << l.block.x << "x" << l.block.y);
                CHECK(l.entry == entries[i]);
                const bool generated = w.ptx_files.empty();
                if (!generated) CHECK(l.ptx_file == w.ptx_files.front());
                CHECK(e.covers_problem(l, size));
                std::vector<int> params;
                REQUIRE(entry_params(generated ? l.ptx_text : read_text(kKernelDir + l.ptx_file), l.entry, params));
                REQUIRE(params.size() == l.args.size());
                for (size_t k = 0; k < params.size(); ++k) CHECK(params[k] == l.args[k].bytes);
            }
            CHECK_FALSE(dev.allocs.empty());
            for (const auto& a : dev.allocs) CHECK(a.freed);
        }
    }
}

TEST_CASE("library: verify fails when the device returns zeros or garbage") {
    for (const auto& w : workload_library()) {
        for (uint8_t fill : {uint8_t{0x00}, uint8_t{0xa5}, uint8_t{0xff}}) {
            // At its default size every pointer-chase walk covers whole cycles of the chain and
            // ends where it started, at index 0: zeros are then the right answer.
            if (w.name == "pchase" && fill == 0) continue;
            INFO(w.name << " fill " << int{fill});
            FakeDevice dev(fill);
            auto wl = make(w, w.size.default_size, 7);
            wl->run(dev);
            const VerifyResult r = wl->verify();
            CHECK_FALSE(r.ok);
            CHECK(r.mismatches > 0);
            CHECK(r.checked >= r.mismatches);
            CHECK_FALSE(r.detail.empty());
        }
    }
}

TEST_CASE("library: host data is deterministic per seed") {
    CHECK(SplitMix64(0).next() == 0xe220a8397b1dcdafull);  // the published SplitMix64 sequence
    CHECK(random_f32(1000, 5, -1.0f, 1.0f) == random_f32(1000, 5, -1.0f, 1.0f));
    CHECK(random_f32(1000, 5, -1.0f, 1.0f) != random_f32(1000, 6, -1.0f, 1.0f));
    CHECK(random_i32(1000, 5, -50, 50) == random_i32(1000, 5, -50, 50));
    CHECK(random_i32(1000, 5, -50, 50) != random_i32(1000, 6, -50, 50));
    CHECK(random_u32(1000, 9, 0, 0xffffffffu) != random_u32(1000, 10, 0, 0xffffffffu));

    bool in_range = true;
    for (float v : random_f32(10000, 3, 2.0f, 3.0f)) in_range &= v >= 2.0f && v < 3.0f;
    CHECK(in_range);
    bool seen_lo = false, seen_hi = false;
    for (int32_t v : random_i32(10000, 3, -2, 2)) {
        in_range &= v >= -2 && v <= 2;
        seen_lo |= v == -2;
        seen_hi |= v == 2;
    }
    CHECK(in_range);
    CHECK((seen_lo && seen_hi));
    CHECK(random_i32(3, 1, 7, 7) == std::vector<int32_t>{7, 7, 7});
    CHECK_THROWS_AS(random_i32(1, 1, 3, 2), std::invalid_argument);

    CHECK(iota_i32(4, 10, -2) == std::vector<int32_t>{10, 8, 6, 4});
    CHECK(iota_u32(3) == std::vector<uint32_t>{0, 1, 2});
    CHECK(iota_f32(3, 0.5f, 0.25f) == std::vector<float>{0.5f, 0.75f, 1.0f});
    CHECK(constant_data<float>(2, 1.5f) == std::vector<float>{1.5f, 1.5f});
}

TEST_CASE("library: binary files load, and failures name the file") {
    const std::string path = "stacksim_test_host_data.bin";
    const std::vector<uint32_t> data{1, 2, 0xdeadbeef};
    {
        std::ofstream out(path, std::ios::binary);
        out.write(reinterpret_cast<const char*>(data.data()), data.size() * sizeof(uint32_t));
        out.put('x');  // 13 bytes: not a multiple of 4
    }
    CHECK(load_binary(path).size() == 13);
    CHECK_THROWS_WITH(load_binary_as<uint32_t>(path), Catch::Contains(path));
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data.data()), data.size() * sizeof(uint32_t));
    }
    CHECK(load_binary_as<uint32_t>(path) == data);
    std::remove(path.c_str());
    CHECK_THROWS_WITH(load_binary("/nonexistent/stacksim.bin"),
                      Catch::Contains("/nonexistent/stacksim.bin"));
}
