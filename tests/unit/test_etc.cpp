// SPDX-License-Identifier: Apache-2.0
// ETC's plain parts: the classifier, the sharing detector, the policy engine, SM throttling.
#include <catch2/catch.hpp>

#include <vector>

#include "memory/app_classifier.h"
#include "memory/etc_config.h"
#include "memory/sharing_detector.h"
#include "memory/sm_throttle.h"

using namespace stacksim::memory;

TEST_CASE("etc classifier: one line per warp memory instruction is regular, 32 is irregular", "[etc]") {
    AppClassifier streaming(10.0, 2);
    CHECK_FALSE(streaming.sample({0, 0}, {0, 0}));  // no memory instruction yet: undecided
    CHECK_FALSE(streaming.decided());
    CHECK(streaming.sample({100, 50}, {100, 50}));
    CHECK(streaming.app_class(false) == AppClass::RegularNoSharing);
    CHECK(streaming.app_class(true) == AppClass::RegularSharing);
    CHECK(streaming.deciding_factor() == Approx(1.0));

    AppClassifier scattered(10.0, 2);
    CHECK(scattered.sample({10, 0}, {320, 0}));  // the idle SM does not dilute the factor
    CHECK(scattered.app_class(false) == AppClass::Irregular);
    CHECK(scattered.deciding_factor() == Approx(32.0));
    // Later samples are reported (deltas per sample); an irregular app stays irregular.
    CHECK_FALSE(scattered.sample({20, 0}, {330, 0}));
    CHECK(scattered.mean_factor() == Approx((32.0 + 1.0) / 2));
    CHECK(scattered.app_class(false) == AppClass::Irregular);
}

TEST_CASE("etc classifier: the first sample decides, as in the thesis: a later irregular kernel does not change the class", "[etc]") {
    AppClassifier c(5.0, 1);
    CHECK(c.sample({100}, {100}));  // a column walk: coalesced
    CHECK_FALSE(c.sample({300}, {6500}));  // a row walk: 32 lines
    CHECK(c.app_class(false) == AppClass::RegularNoSharing);
    CHECK(c.deciding_factor() == Approx(1.0));
    CHECK(c.mean_factor() == Approx(16.5));
}

TEST_CASE("etc classifier: with reclassify, a regular app whose later kernel is irregular becomes irregular", "[etc]") {
    AppClassifier c(5.0, 1, true);
    CHECK(c.sample({100}, {100}));  // a column walk: coalesced
    CHECK(c.app_class(false) == AppClass::RegularNoSharing);
    CHECK_FALSE(c.sample({200}, {600}));  // 5 lines: not above the threshold
    CHECK(c.sample({300}, {3800}));       // a row walk: 32 lines
    CHECK(c.app_class(false) == AppClass::Irregular);
    CHECK(c.deciding_factor() == Approx(32.0));
}

TEST_CASE("etc classifier: the threshold is exclusive", "[etc]") {
    AppClassifier c(10.0, 1);
    c.sample({10}, {100});
    CHECK(c.app_class(false) == AppClass::RegularNoSharing);
}

TEST_CASE("etc sharing: two kernels pointing into one region share, one kernel alone does not", "[etc]") {
    SharingDetector d;
    d.note_launch(1, {0x10000000, 0x10400000});
    d.note_launch(1, {0x10000000});  // the same kernel again
    CHECK_FALSE(d.sharing());
    d.note_launch(2, {0x20000000});
    CHECK_FALSE(d.sharing());
    d.note_launch(2, {0x10410000});  // near kernel 1's second array
    CHECK(d.sharing());
}

TEST_CASE("etc policy engine: techniques by class, or each switch on its own", "[etc]") {
    EtcConfig cfg;
    CHECK_FALSE(etc_techniques(cfg, AppClass::Irregular).proactive_eviction);  // off: nothing
    cfg.mode = EtcMode::Auto;
    EtcTechniques t = etc_techniques(cfg, AppClass::RegularNoSharing);
    CHECK((t.proactive_eviction && t.throttling == Throttling::None && !t.compression));
    t = etc_techniques(cfg, AppClass::RegularSharing);
    CHECK((t.proactive_eviction && t.throttling == Throttling::None && t.compression));
    t = etc_techniques(cfg, AppClass::Irregular);
    CHECK((!t.proactive_eviction && t.throttling == Throttling::Dynamic && t.compression));
    t = etc_techniques(cfg, AppClass::Unknown);
    CHECK((!t.proactive_eviction && t.throttling == Throttling::None && !t.compression));
    cfg.mode = EtcMode::Manual;
    cfg.throttling = Throttling::Static;
    t = etc_techniques(cfg, AppClass::RegularNoSharing);  // the class does not matter
    CHECK((!t.proactive_eviction && t.throttling == Throttling::Static && !t.compression));
}

namespace {
struct Recorder {
    std::vector<bool> stopped = std::vector<bool>(8, false);
    std::vector<std::pair<uint32_t, bool>> log;
    std::function<void(uint32_t, bool)> fn() {
        return [this](uint32_t sm, bool s) {
            stopped[sm] = s;
            log.push_back({sm, s});
        };
    }
    uint32_t count() const {
        uint32_t n = 0;
        for (bool b : stopped) n += b;
        return n;
    }
};
}  // namespace

TEST_CASE("etc throttling: trigger stops the upper half, a fault with evictions stops the faulting SM", "[etc]") {
    Recorder r;
    SmThrottle t(8, Throttling::Dynamic, 1, 100, 50, r.fn());
    t.trigger(1000);
    CHECK(r.stopped == std::vector<bool>{false, false, false, false, true, true, true, true});
    t.on_fault(1, 1010, 5);  // execution epoch: ignored
    CHECK(r.count() == 4);
    t.advance(1050, 5, false);  // execution ends: detection begins with 5 evictions so far
    t.on_fault(2, 1060, 5);     // fault without eviction: keep
    CHECK(r.count() == 4);
    t.advance(1110, 5, false);  // execution again, then detection
    t.on_fault(2, 1120, 9);     // fault after evictions: SM 2 stops
    CHECK(r.stopped[2]);
    CHECK(r.count() == 5);
}

TEST_CASE("etc throttling: a stopped SM's fault stops no idle SM, and extra steps stop busy SMs only", "[etc]") {
    Recorder r;
    SmThrottle t(8, Throttling::Dynamic, 1, 100, 50, r.fn());
    t.set_busy([](uint32_t sm) { return sm < 4; });  // SMs 4-7 have no CTAs
    t.trigger(0, {0, 1, 2, 3});
    const std::vector<bool> half{false, false, true, true, false, false, false, false};
    CHECK(r.stopped == half);
    t.advance(50, 0, false);  // detection
    t.on_fault(3, 60, 4);     // stopped SM 3's request in flight faulted, after evictions
    CHECK(r.stopped == half);  // SM 3 is stopped already: nothing else stops
    t.advance(110, 4, false);  // execution ends, detection
    t.advance(210, 4, false);  // timeout: the SM stopped last (3) fetches again
    CHECK(r.stopped == std::vector<bool>{false, false, true, false, false, false, false, false});

    Recorder r2;
    SmThrottle two(8, Throttling::Dynamic, 2, 100, 50, r2.fn());
    two.set_busy([](uint32_t sm) { return sm < 4; });
    two.trigger(0, {0, 1, 2, 3});
    two.advance(50, 0, false);
    two.on_fault(0, 60, 4);  // step 2: SM 0, then the highest busy SM still fetching (1)
    CHECK(r2.stopped == std::vector<bool>{true, true, true, true, false, false, false, false});
}

TEST_CASE("etc throttling: the trigger stops the upper half of the busy SMs only", "[etc]") {
    Recorder r;
    SmThrottle t(8, Throttling::Static, 1, 100, 50, r.fn());
    t.trigger(0, {0, 1, 2, 5});
    CHECK(r.stopped == std::vector<bool>{false, false, true, false, false, true, false, false});
}

TEST_CASE("etc throttling: a detection epoch without faults releases the last stopped SM", "[etc]") {
    Recorder r;
    SmThrottle t(8, Throttling::Dynamic, 1, 100, 50, r.fn());
    t.trigger(0);
    CHECK(t.next_deadline() == 50);
    t.advance(50, 0, false);  // detection until 150
    CHECK(t.next_deadline() == 150);
    t.advance(149, 0, false);
    CHECK(r.count() == 4);
    t.advance(150, 0, false);  // timeout: SM 7 (stopped last) fetches again
    CHECK_FALSE(r.stopped[7]);
    CHECK(r.count() == 3);
    CHECK(t.releases() == 1);
}

TEST_CASE("etc throttling: a detection epoch that times out while faults are being served releases nothing", "[etc]") {
    Recorder r;
    SmThrottle t(8, Throttling::Dynamic, 1, 100, 50, r.fn());
    t.trigger(0);
    t.advance(50, 0, false, true);   // detection until 150
    t.advance(150, 0, false, true);  // timeout, but warps still wait for pages faulted earlier
    CHECK(r.count() == 4);
    CHECK(t.releases() == 0);
    t.advance(200, 0, false, false);  // the execution epoch that followed
    t.advance(300, 0, false, false);  // a quiet detection epoch: now one SM fetches again
    CHECK(r.count() == 3);
}

TEST_CASE("etc throttling: static stops half for good, one SM always fetches, an idle GPU releases", "[etc]") {
    Recorder r;
    SmThrottle s(8, Throttling::Static, 1, 100, 50, r.fn());
    s.trigger(0);
    s.on_fault(0, 10, 100);
    s.advance(100000, 100, false);
    CHECK(r.count() == 4);
    CHECK(s.next_deadline() == ~uint64_t{0});
    s.advance(100001, 100, true);  // no fetching SM has work: release one
    CHECK(r.count() == 3);

    Recorder r2;
    SmThrottle d(2, Throttling::Dynamic, 4, 100, 50, r2.fn());
    d.trigger(0);
    d.advance(50, 0, false);
    d.on_fault(0, 60, 1);
    CHECK(r2.count() == 1);  // SM 0 faulted but is the last one fetching
}
