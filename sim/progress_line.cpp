// SPDX-License-Identifier: Apache-2.0
// The one-line progress report of long runs on a terminal, with percentage and ETA when known.
#include "sim/progress_line.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace stacksim::sim {

namespace {
double wall_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

ProgressLine::ProgressLine(std::FILE* out, bool enabled, double delay_s)
    : m_out(out), m_enabled(enabled), m_delay(delay_s), m_started(wall_seconds()) {}

double ProgressLine::elapsed() const { return wall_seconds() - m_started; }

std::string ProgressLine::eta_text(double fraction, double elapsed_s) {
    fraction = std::clamp(fraction, 0.0, 1.0);
    std::string s = fmt::format("{:.0f}%", std::floor(fraction * 100.0));
    if (fraction < 0.01 || elapsed_s <= 0) return s;
    const auto left = static_cast<long long>(std::llround(elapsed_s * (1.0 - fraction) / fraction));
    if (left >= 3600) return s + fmt::format(" ETA {}h{:02}m", left / 3600, left % 3600 / 60);
    if (left >= 60) return s + fmt::format(" ETA {}m{:02}s", left / 60, left % 60);
    return s + fmt::format(" ETA {}s", left);
}

void ProgressLine::update(const std::string& text, double fraction) {
    if (!m_enabled) return;
    const double now = wall_seconds();
    if (now - m_started < m_delay || (m_last >= 0 && now - m_last < 1.0)) return;
    m_last = now;
    std::string line = "[stacksim] " + text;
    if (fraction >= 0) line += "  " + eta_text(fraction, now - m_started);
    std::fprintf(m_out, "\r%-79s", line.c_str());
    std::fflush(m_out);
    m_printed = true;
}

void ProgressLine::clear() {
    if (!m_printed) return;
    std::fprintf(m_out, "\r%79s\r", "");
    std::fflush(m_out);
    m_printed = false;
}

}  // namespace stacksim::sim
