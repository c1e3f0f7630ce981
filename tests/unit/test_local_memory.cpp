// SPDX-License-Identifier: Apache-2.0
// Local memory: .local declarations, local and generic (cvta.local) addressing, the per-thread
// word interleaving in device memory, bounds.
#include "tests/unit/ptx_test_util.h"

using namespace stacksim;

namespace {

const char* const kBody = R"(
.local .align 8 .b8 __local_depot0[24];
mov.u64 %rd1, __local_depot0;
cvta.local.u64 %rd2, %rd1;
mov.u32 %r1, %tid.x;
st.local.u32 [%rd1+4], %r1;
cvt.u64.u32 %rd3, %r1;
add.u64 %rd3, %rd3, 4294967296;
st.u64 [%rd2+8], %rd3;
ld.local.u32 %r2, [%rd1+4];
ld.u64 %rd4, [%rd2+8];
ld.local.v2.u32 {%r3, %r4}, [%rd1+8];
)";

constexpr uint64_t kBase = 0x100000;

uint32_t word(const sim::SparseMemory& mem, uint64_t addr) {
    uint32_t v = 0;
    mem.read(addr, &v, 4);
    return v;
}

}  // namespace

TEST_CASE("local memory: per-thread data through local and generic addresses, interleaved by word",
          "[ptx][local]") {
    test::WarpFixture f(kBody);
    REQUIRE(f.kernel.local_bytes == 24);
    f.cta.local_base = kBase;
    f.cta.local_bytes = f.kernel.local_bytes;
    // The generic address is the local offset in the local window.
    f.exec(0);
    f.exec(1);
    CHECK(f.reg("%rd1", 5) == 0);
    CHECK(f.reg("%rd2", 5) == core::kLocalWindowBase);
    f.exec(2);
    const core::ExecResult& st = f.exec(3);
    CHECK(st.space == core::StateSpace::Local);
    for (unsigned l = 0; l < 32; ++l) CHECK(st.addr[l] == kBase + (32 + l) * 4);  // one 128-byte line
    for (size_t i = 4; i < f.kernel.code.size(); ++i) f.exec(i);
    for (unsigned l = 0; l < 32; ++l) {
        INFO("lane " << l);
        CHECK(f.reg("%r2", l) == l);
        CHECK(f.reg("%rd4", l) == (uint64_t{1} << 32) + l);
        CHECK(f.reg("%r3", l) == l);
        CHECK(f.reg("%r4", l) == 1);
        // Thread l's word w at base + (w * 32 + l) * 4; the 8-byte store split into words 2, 3.
        CHECK(word(f.mem, kBase + (1 * 32 + l) * 4) == l);
        CHECK(word(f.mem, kBase + (2 * 32 + l) * 4) == l);
        CHECK(word(f.mem, kBase + (3 * 32 + l) * 4) == 1);
        CHECK(word(f.mem, kBase + (0 * 32 + l) * 4) == 0);
    }
}

TEST_CASE("local memory: an access past the thread's local bytes is an error", "[ptx][local]") {
    test::WarpFixture f(R"(
.local .align 4 .b8 __local_depot0[8];
mov.u64 %rd1, __local_depot0;
ld.local.u32 %r1, [%rd1+8];
)");
    f.cta.local_base = kBase;
    f.cta.local_bytes = f.kernel.local_bytes;
    f.exec(0);
    CHECK_THROWS_WITH(f.exec(1), Catch::Contains("local memory access out of bounds (offset 8, 8 bytes per thread)"));
}
