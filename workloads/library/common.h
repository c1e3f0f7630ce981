// SPDX-License-Identifier: Apache-2.0
// Internal helpers shared by the library workloads: tolerances, input seeds, element checking.
#pragma once
#include <cmath>
#include <cstdint>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "workloads/host_data.h"
#include "workloads/workload.h"

namespace stacksim::workloads {

/// Float tolerance used by every float workload: |got - want| <= kAbsTol + kRelTol * |want|.
/// The CPU references replay nvcc's fma contraction in the same order, so results are
/// normally bit-identical; the tolerance only absorbs legitimate last-bit differences.
/// NaN never passes.
inline constexpr double kRelTol = 1e-4;
inline constexpr double kAbsTol = 1e-5;

/// Accumulates element comparisons into a VerifyResult (first mismatch is reported).
class Checker {
public:
    /// Compares integers exactly.
    template <typename T>
    void exact(const char* array, uint64_t index, T got, T want) {
        record(array, index, got == want, got, want);
    }
    /// Compares floats with the kRelTol/kAbsTol tolerance.
    void near(const char* array, uint64_t index, float got, float want) {
        const double diff = std::fabs(double{got} - double{want});
        record(array, index, diff <= kAbsTol + kRelTol * std::fabs(double{want}), got, want);
    }
    /// Compares got[i] with want[i] exactly, for every element of `want`.
    template <typename T>
    void exact_all(const char* array, const std::vector<T>& got, const std::vector<T>& want) {
        if (!same_size(array, got.size(), want.size())) return;
        for (size_t i = 0; i < want.size(); ++i) exact(array, i, got[i], want[i]);
    }
    /// Compares got[i] with want[i] with the float tolerance, for every element of `want`.
    void near_all(const char* array, const std::vector<float>& got, const std::vector<float>& want) {
        if (!same_size(array, got.size(), want.size())) return;
        for (size_t i = 0; i < want.size(); ++i) near(array, i, got[i], want[i]);
    }
    VerifyResult result() const {
        VerifyResult r = m_result;
        r.ok = r.mismatches == 0 && r.checked > 0;
        if (r.checked == 0 && r.detail.empty()) r.detail = "no output elements checked";
        return r;
    }

private:
    /// An output of the wrong length counts as one mismatch.
    bool same_size(const char* array, size_t got, size_t want) {
        if (got == want) return true;
        ++m_result.checked;
        if (m_result.mismatches++ == 0)
            m_result.detail =
                std::string(array) + ": " + std::to_string(got) + " elements, expected " + std::to_string(want);
        return false;
    }
    template <typename T>
    void record(const char* array, uint64_t index, bool ok, T got, T want) {
        ++m_result.checked;
        if (ok) return;
        if (m_result.mismatches++ == 0) {
            std::ostringstream os;
            os.precision(9);
            os << array << '[' << index << "] = " << +got << " expected " << +want;
            m_result.detail = os.str();
        }
    }
    VerifyResult m_result;
};

/// The result of verify() called before run().
inline VerifyResult not_run_result() {
    VerifyResult r;
    r.detail = "workload has not been run";
    return r;
}

}  // namespace stacksim::workloads
