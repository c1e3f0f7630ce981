// SPDX-License-Identifier: Apache-2.0
// The one-line progress report of long runs on a terminal, with percentage and ETA when known.
#pragma once
#include <cstdio>
#include <string>

namespace stacksim::sim {

/// Rewrites one line of `out` ("\r[stacksim] TEXT  42% ETA 1m05s"): at most once a second and
/// only after the first `delay_s` seconds, so short runs print nothing; nothing at all when
/// not enabled (callers enable it when stderr is a terminal).
class ProgressLine {
public:
    ProgressLine(std::FILE* out, bool enabled, double delay_s = 3.0);
    bool enabled() const { return m_enabled; }
    /// Reports `text`; with `fraction` in [0, 1] (the end is known) also the percentage done and
    /// the time left, extrapolated from the time so far.
    void update(const std::string& text, double fraction = -1.0);
    /// Erases the line if one was printed.
    void clear();
    /// Seconds since construction.
    double elapsed() const;
    /// "42% ETA 1m05s" for `fraction` done after `elapsed_s` seconds ("42%" while too early to tell).
    static std::string eta_text(double fraction, double elapsed_s);

private:
    std::FILE* m_out;
    bool m_enabled;
    double m_delay, m_started, m_last = -1.0;
    bool m_printed = false;
};

}  // namespace stacksim::sim
