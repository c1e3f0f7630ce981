// SPDX-License-Identifier: Apache-2.0
// Tests of measurements run in forked children, several at once.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <functional>
#include <vector>

#include "sim/child_process.h"
#include "sim/error.h"

using namespace stacksim;

TEST_CASE("child processes: results come back in the order given, whatever the order of finishing", "[sim]") {
    std::vector<std::function<std::vector<double>()>> runs;
    for (int i = 0; i < 5; ++i)
        runs.push_back([i] {
            usleep(static_cast<useconds_t>((5 - i) * 20000));  // the first given finishes last
            return std::vector<double>{static_cast<double>(i), static_cast<double>(getpid())};
        });
    const auto out = sim::run_in_children(runs, 3);
    REQUIRE(out.size() == 5);
    for (int i = 0; i < 5; ++i) {
        CHECK(out[i].at(0) == i);
        CHECK(out[i].at(1) != getpid());  // measured in a child
    }
    const auto one = sim::run_in_children(runs, 1);  // one at a time gives the same values
    REQUIRE(one.size() == 5);
    for (int i = 0; i < 5; ++i) CHECK(one[i].at(0) == i);
}

TEST_CASE("child processes: the first failure in the order given is thrown, with its kind and message", "[sim]") {
    std::vector<std::function<std::vector<double>()>> runs;
    runs.push_back([] { return std::vector<double>{1}; });
    runs.push_back([]() -> std::vector<double> { throw sim::InputError("bad input in run 1"); });
    runs.push_back([]() -> std::vector<double> {
        usleep(10000);
        throw sim::SimulationError("run 2 failed");
    });
    runs.push_back([] {
        usleep(2000000);  // killed, not waited for
        return std::vector<double>{3};
    });
    CHECK_THROWS_AS(sim::run_in_children(runs, 4), sim::InputError);
    CHECK_THROWS_WITH(sim::run_in_children(runs, 2), "bad input in run 1");
    runs.erase(runs.begin() + 1);
    CHECK_THROWS_WITH(sim::run_in_children(runs, 4), "run 2 failed");
}
