// SPDX-License-Identifier: Apache-2.0
// RequestQueue (the TargetPort's bounded queue) and what a pooled payload carries on reuse.
#include <catch2/catch.hpp>

#include <vector>

#include "common/lost_locality_extension.h"
#include "sim/payload_pool.h"
#include "sim/request_queue.h"

using namespace stacksim;

TEST_CASE("request queue: holds depth requests in arrival order and withholds the next", "[request_queue]") {
    std::vector<tlm::tlm_generic_payload> p(4);
    sim::RequestQueue q(2);
    CHECK(q.empty());
    CHECK(q.offer(p[0]));
    CHECK(q.offer(p[1]));
    CHECK_FALSE(q.has_withheld());
    CHECK_FALSE(q.offer(p[2]));  // full: no END_REQ
    CHECK(q.has_withheld());
    CHECK(q.size() == 2);        // the withheld request is not queued
    CHECK(q.front() == &p[0]);
    q.pop_front();
    CHECK(q.front() == &p[1]);
}

TEST_CASE("request queue: a withheld request is admitted only when a slot is free", "[request_queue]") {
    std::vector<tlm::tlm_generic_payload> p(3);
    sim::RequestQueue q(1);
    CHECK(q.admit_withheld() == nullptr);  // nothing withheld
    CHECK(q.offer(p[0]));
    CHECK_FALSE(q.offer(p[1]));
    CHECK(q.admit_withheld() == nullptr);  // still full
    CHECK(q.has_withheld());
    q.pop_front();
    CHECK(q.admit_withheld() == &p[1]);    // queued now; the owner sends its END_REQ
    CHECK_FALSE(q.has_withheld());
    CHECK(q.size() == 1);
    CHECK(q.front() == &p[1]);
    CHECK(q.admit_withheld() == nullptr);
}

TEST_CASE("payload pool: a reused payload has a cleared MemExtension and no other extension", "[request_queue]") {
    sim::PayloadPool pool;
    tlm::tlm_generic_payload& p = pool.acquire();
    sim::PayloadPool::ext(p).tag = 7;
    sim::PayloadPool::ext(p).access = sim::MemAccess::Atomic;
    common::LostLocalityExtension::set(p);
    common::LostLocalityExtension::set(p);  // idempotent
    sim::PayloadPool::ext(p).traffic = sim::TrafficClass::PageWalk;
    CHECK(common::LostLocalityExtension::is_set(p));
    p.acquire();  // a second holder: the first release does not recycle it
    p.release();
    CHECK(common::LostLocalityExtension::is_set(p));
    p.release();
    CHECK(pool.in_use() == 0);
    tlm::tlm_generic_payload& q = pool.acquire();
    REQUIRE(&q == &p);
    CHECK_FALSE(common::LostLocalityExtension::is_set(q));
    CHECK(sim::PayloadPool::ext(q).traffic == sim::TrafficClass::Demand);
    CHECK(sim::PayloadPool::ext(q).tag == 0);
    CHECK(sim::PayloadPool::ext(q).access == sim::MemAccess::Read);
    q.release();
}
