// SPDX-License-Identifier: Apache-2.0
// PolyBench/GPU's deterministic inputs ([NAME] inputs = "polybench") against its init code, and
// the random inputs left exactly as they were.
#include <catch2/catch.hpp>

#include <vector>

#include "workloads/host_data.h"
#include "workloads/library/polybench_inputs.h"

using namespace stacksim::workloads;

TEST_CASE("polybench inputs: A[i][j] = ((float) i*j) / n and x[i] = ((float) i + k) / n, as PolyBench/GPU's init",
          "[workloads]") {
    const std::vector<float> a = polybench_matrix(PolybenchInputs::Polybench, 4, 7);
    CHECK(a == std::vector<float>{0, 0, 0, 0, 0, 0.25f, 0.5f, 0.75f, 0, 0.5f, 1.0f, 1.5f, 0, 0.75f, 1.5f, 2.25f});
    CHECK(polybench_vector(PolybenchInputs::Polybench, 4, 7, 3.0f) == std::vector<float>{0.75f, 1.0f, 1.25f, 1.5f});
    CHECK(polybench_pi_times(2) == static_cast<float>(2 * 3.14159));
    const std::vector<float> box =
        polybench_2d(PolybenchInputs::Polybench, 2, 3, 7, [](size_t i, size_t j) { return static_cast<float>(10 * i + j); });
    CHECK(box == std::vector<float>{0, 1, 2, 10, 11, 12});
}

TEST_CASE("polybench inputs: the random choice is the library's seeded random data, unchanged", "[workloads]") {
    CHECK(polybench_matrix(PolybenchInputs::Random, 16, 99) == random_f32(256, 99, 0.0f, 1.0f));
    CHECK(polybench_vector(PolybenchInputs::Random, 16, 5, 3.0f) == random_f32(16, 5, 0.0f, 1.0f));
    CHECK(PolybenchConfig{}.inputs == PolybenchInputs::Random);
}
