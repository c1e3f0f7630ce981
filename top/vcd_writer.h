// SPDX-License-Identifier: Apache-2.0
// Value change dump (IEEE 1364 VCD) writer for waveform viewers such as GTKWave.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/streamed_file.h"

namespace stacksim::top {

/// Writes a VCD file: declare the signals, start(), then record changes. Changes may be
/// recorded for the future (a pulse's fall); they are written in time order once advance()
/// says no earlier change can come. Memory holds only the changes not yet written. The file is
/// written as FILE.part and renamed into place by finish().
class VcdWriter {
public:
    /// Times given to change() are in units of `ps_per_unit` picoseconds (a core cycle's period);
    /// the file says `$timescale 1 ps` and holds time * ps_per_unit, so viewers show real time.
    /// `time_comment` (a `$comment`) says what the unit was. Throws InputError naming `path`.
    VcdWriter(const std::string& path, std::string time_comment, uint64_t ps_per_unit);

    /// A `bits`-wide signal (1: a wire, more: a bit vector) named `name` in the dotted scope
    /// `scope` ("gpu.sm0.w3"), initially 0. Only before start(). Returns its id.
    unsigned add_bits(const std::string& scope, const std::string& name, unsigned bits);
    /// A real-valued signal, initially 0. Only before start().
    unsigned add_real(const std::string& scope, const std::string& name);
    /// Writes the header and the initial values.
    void start();

    /// Signal `id` takes `value` at `time` (not before the last advance()).
    void change(unsigned id, uint64_t time, uint64_t value);
    void change_real(unsigned id, uint64_t time, double value);
    /// No change before `time` will be recorded any more: writes those pending.
    void advance(uint64_t time);
    /// Writes every pending change, ends at `end_time` and renames the file into place.
    void finish(uint64_t end_time);
    size_t signals() const { return m_signals.size(); }
    bool is_real(unsigned id) const { return m_signals[id].bits == 0; }

private:
    struct Signal {
        std::string scope, name, code;
        unsigned bits;  ///< 0: real
    };
    struct Change {
        unsigned id;
        uint64_t value;
        double real;
    };
    void record(uint64_t time, Change c);
    std::string value_text(const Signal& s, const Change& c) const;

    sim::StreamedFile m_file;
    std::ostream& m_out;
    std::string m_comment;
    uint64_t m_ps;  ///< picoseconds per time unit
    std::vector<Signal> m_signals;
    std::map<uint64_t, std::vector<Change>> m_pending;
    uint64_t m_written = 0;  ///< changes before this time are written
    uint64_t m_last_stamp = 0;
    bool m_started = false;
};

}  // namespace stacksim::top
