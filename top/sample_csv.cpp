// SPDX-License-Identifier: Apache-2.0
// The sampled series of a run over time, as CSV (one row per sample).
#include "top/sample_csv.h"

#include <fmt/format.h>

#include <cmath>

namespace stacksim::top {

SampleCsv::SampleCsv(const std::string& path, StatSampler& sampler) : m_file(path, "--samples " + path) {
    std::ostream& out = m_file.out();
    std::vector<size_t> columns;
    out << "cycle";
    for (size_t i = 0; i < sampler.series().size(); ++i)
        if (sampler.series()[i].counter_track) {
            columns.push_back(i);
            out << "," << sampler.series()[i].name;
        }
    out << "\n";
    sampler.add_sink([&out, columns](uint64_t cycle, const std::vector<double>& values) {
        out << cycle;
        for (size_t i : columns) {
            out << ",";
            if (std::isfinite(values[i])) out << fmt::format("{}", values[i]);
        }
        out << "\n";
    });
}

}  // namespace stacksim::top
