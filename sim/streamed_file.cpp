// SPDX-License-Identifier: Apache-2.0
// An output file written as it goes (FILE.part) and renamed into place when complete.
#include "sim/streamed_file.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>

#include "sim/error.h"

namespace stacksim::sim {

StreamedFile::StreamedFile(std::string path, std::string what) : m_path(std::move(path)), m_what(std::move(what)) {
    const std::filesystem::path parent = std::filesystem::path(m_path).parent_path();
    std::error_code ec;
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    m_out.open(m_path + ".part", std::ios::binary | std::ios::trunc);
    if (!m_out) throw InputError(fmt::format("{}: cannot write the file", m_what));
}

StreamedFile::~StreamedFile() {
    if (m_done) return;
    m_out.close();
    std::remove((m_path + ".part").c_str());
}

void StreamedFile::commit() {
    m_out.close();
    if (!m_out) throw InputError(fmt::format("{}: writing the file failed", m_what));
    std::error_code ec;
    std::filesystem::rename(m_path + ".part", m_path, ec);
    if (ec) throw InputError(fmt::format("{}: {}", m_what, ec.message()));
    m_done = true;
}

}  // namespace stacksim::sim
