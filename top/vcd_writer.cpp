// SPDX-License-Identifier: Apache-2.0
// Value change dump (IEEE 1364 VCD) writer for waveform viewers such as GTKWave.
#include "top/vcd_writer.h"

#include <fmt/format.h>


namespace stacksim::top {

namespace {

/// Short identifier codes from the printable characters '!'..'~'.
std::string code_for(size_t n) {
    std::string s;
    do {
        s += static_cast<char>('!' + n % 94);
        n /= 94;
    } while (n);
    return s;
}

std::vector<std::string> split(const std::string& dotted) {
    std::vector<std::string> parts;
    size_t from = 0;
    while (from <= dotted.size()) {
        size_t dot = dotted.find('.', from);
        if (dot == std::string::npos) dot = dotted.size();
        if (dot > from) parts.push_back(dotted.substr(from, dot - from));
        from = dot + 1;
    }
    return parts;
}

}  // namespace

VcdWriter::VcdWriter(const std::string& path, std::string time_comment, uint64_t ps_per_unit)
    : m_file(path, "--vcd " + path), m_out(m_file.out()), m_comment(std::move(time_comment)), m_ps(ps_per_unit) {
    if (m_ps == 0) m_ps = 1;
}

unsigned VcdWriter::add_bits(const std::string& scope, const std::string& name, unsigned bits) {
    m_signals.push_back({scope, name, code_for(m_signals.size()), bits ? bits : 1});
    return static_cast<unsigned>(m_signals.size() - 1);
}

unsigned VcdWriter::add_real(const std::string& scope, const std::string& name) {
    m_signals.push_back({scope, name, code_for(m_signals.size()), 0});
    return static_cast<unsigned>(m_signals.size() - 1);
}

std::string VcdWriter::value_text(const Signal& s, const Change& c) const {
    if (s.bits == 0) return fmt::format("r{} {}", c.real, s.code);
    if (s.bits == 1) return fmt::format("{}{}", c.value ? 1 : 0, s.code);
    return fmt::format("b{:b} {}", c.value, s.code);
}

void VcdWriter::start() {
    m_out << "$version stacksim " << STACKSIM_VERSION << " $end\n";
    m_out << "$comment " << m_comment << " $end\n";
    // Times are recorded in units (core cycles) and written in picoseconds, so a viewer's time
    // axis is real time: $timescale states what a number means.
    m_out << "$timescale 1 ps $end\n";
    // Signals grouped by scope, in declaration order of their scopes.
    std::vector<std::string> open;
    std::map<std::string, std::vector<size_t>> by_scope;
    std::vector<std::string> scopes;
    for (size_t i = 0; i < m_signals.size(); ++i) {
        auto& v = by_scope[m_signals[i].scope];
        if (v.empty()) scopes.push_back(m_signals[i].scope);
        v.push_back(i);
    }
    for (const auto& scope : scopes) {
        const auto parts = split(scope);
        size_t common = 0;
        while (common < open.size() && common < parts.size() && open[common] == parts[common]) ++common;
        for (size_t k = open.size(); k > common; --k) m_out << "$upscope $end\n";
        open.resize(common);
        for (size_t k = common; k < parts.size(); ++k) {
            m_out << "$scope module " << parts[k] << " $end\n";
            open.push_back(parts[k]);
        }
        for (size_t i : by_scope[scope]) {
            const Signal& s = m_signals[i];
            if (s.bits == 0)
                m_out << "$var real 64 " << s.code << " " << s.name << " $end\n";
            else
                m_out << "$var " << (s.bits == 1 ? "wire" : "reg") << " " << s.bits << " " << s.code << " " << s.name
                      << " $end\n";
        }
    }
    for (size_t k = 0; k < open.size(); ++k) m_out << "$upscope $end\n";
    m_out << "$enddefinitions $end\n#0\n$dumpvars\n";
    for (const Signal& s : m_signals) m_out << value_text(s, Change{0, 0, 0.0}) << "\n";
    m_out << "$end\n";
    m_started = true;
}

void VcdWriter::record(uint64_t time, Change c) {
    // Never write backwards: a change for a time already written lands at the earliest open time.
    m_pending[time < m_written ? m_written : time].push_back(c);
}

void VcdWriter::change(unsigned id, uint64_t time, uint64_t value) { record(time, Change{id, value, 0.0}); }

void VcdWriter::change_real(unsigned id, uint64_t time, double value) { record(time, Change{id, 0, value}); }

void VcdWriter::advance(uint64_t time) {
    while (!m_pending.empty() && m_pending.begin()->first < time) {
        auto it = m_pending.begin();
        m_out << "#" << it->first * m_ps << "\n";
        m_last_stamp = it->first;
        // Of several changes of one signal at one time the last counts.
        std::map<unsigned, size_t> last;
        for (size_t i = 0; i < it->second.size(); ++i) last[it->second[i].id] = i;
        for (auto& [id, i] : last) m_out << value_text(m_signals[id], it->second[i]) << "\n";
        m_pending.erase(it);
    }
    if (time > m_written) m_written = time;
}

void VcdWriter::finish(uint64_t end_time) {
    if (!m_started) start();
    advance(~uint64_t{0});
    if (end_time > m_last_stamp) m_out << "#" << end_time * m_ps << "\n";
    m_file.commit();
}

}  // namespace stacksim::top
