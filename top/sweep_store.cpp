// SPDX-License-Identifier: Apache-2.0
// A sweep's results folder: point folders published whole, their state, the lock, results.csv.
#include "top/sweep_store.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/atomic_file.h"
#include "sim/error.h"

namespace stacksim::top {

namespace {

namespace fs = std::filesystem;

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// JSON read from `path`, or null when it is missing or malformed.
nlohmann::json read_json(const std::string& path) {
    std::ifstream in(path);
    if (!in) return nullptr;
    return nlohmann::json::parse(in, nullptr, false);
}

std::string csv_cell(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

/// A JSON number or boolean as a table cell (averages and histograms: their mean).
std::string cell(const nlohmann::json& v) {
    if (v.is_object() && v.contains("mean")) return cell(v["mean"]);
    if (v.is_number() || v.is_boolean()) return v.dump();
    if (v.is_string()) return v.get<std::string>();
    return "";
}

const char* state_name(PointRecord::State s) {
    switch (s) {
    case PointRecord::State::Done: return "done";
    case PointRecord::State::Failed: return "failed";
    case PointRecord::State::Pending: return "pending";
    }
    return "";
}

const std::vector<std::string> kSummaryColumns = {"cycles", "kernel_cycles", "warp_instructions", "ipc",
                                                  "simulated_seconds"};
/// Of a multi-application run with run.alone_runs ("" otherwise).
const std::vector<std::string> kAppsColumns = {"stp", "antt"};

/// The summary.json columns of `plan`'s table.
std::vector<std::string> summary_columns(const SweepPlan& plan) {
    std::vector<std::string> out = kSummaryColumns;
    const auto& c = plan.columns();
    if (std::find(c.begin(), c.end(), "apps") != c.end()) out.insert(out.end(), kAppsColumns.begin(), kAppsColumns.end());
    return out;
}

}  // namespace

std::string last_line(const std::string& text) {
    std::istringstream in(text);
    std::string line, last;
    while (std::getline(in, line)) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
        if (!line.empty()) last = line;
    }
    return last;
}

SweepStore::SweepStore(std::string out) : m_out(std::move(out)) {
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0 || !host[0]) std::strcpy(host, "host");
    m_host = host;
    for (char& c : m_host)
        if (c == '.' || c == '/') c = '_';
}

bool SweepStore::lock(bool exclusive) {
    std::error_code ec;
    fs::create_directories(m_out, ec);
    if (ec) throw sim::InputError(fmt::format("{}: cannot create the results folder: {}", m_out, ec.message()));
    const std::string path = m_out + "/.lock";
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) throw sim::InputError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
    if (::flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0) {
        ::close(fd);
        return false;
    }
    return true;  // the descriptor stays open (and locked) until the process exits
}

void SweepStore::clean_attempts() const {
    std::error_code ec;
    fs::remove_all(m_out + "/tmp", ec);
    fs::create_directories(m_out + "/tmp");
}

size_t SweepStore::attempts_in_progress() const {
    size_t n = 0;
    std::error_code ec;
    for (auto& e : fs::directory_iterator(m_out + "/tmp", ec))
        if (e.path().extension() == ".log") ++n;
    return n;
}

PointRecord SweepStore::record(const SweepPoint& p) const {
    PointRecord r;
    const std::string dir = point_dir(p);
    nlohmann::json info = read_json(dir + "/point.json");
    const bool results = fs::exists(dir + "/summary.json") && fs::exists(dir + "/stats.json");
    if (info.is_object() && info.value("status", "") == "failed") {
        r.state = PointRecord::State::Failed;
        r.error = info.value("error", "");
    } else if (results) {
        r.state = PointRecord::State::Done;
    }
    if (info.is_object()) r.host_seconds = info.value("host_seconds", 0.0);
    return r;
}

PointAttempt SweepStore::begin(const SweepPoint& p) {
    fs::create_directories(m_out + "/tmp");
    PointAttempt a;
    a.out = fmt::format("{}/tmp/{}.{}.{}.{}", m_out, p.hash, m_host, ::getpid(), m_seq++);
    a.log = a.out + ".log";
    return a;
}

PointRecord SweepStore::publish(const SweepPoint& p, const PointAttempt& a, const PointOutcome& o,
                                const std::vector<std::string>& command) const {
    fs::create_directories(a.out);
    const std::string log = slurp(a.log);
    std::error_code ec;
    fs::rename(a.log, a.out + "/log.txt", ec);
    PointRecord r;
    r.host_seconds = o.host_seconds;
    if (o.timed_out) {
        r.error = fmt::format("timed out after {:.0f} s (sweep.timeout)", o.host_seconds);
    } else if (o.signal) {
        r.error = fmt::format("killed by signal {} ({})", o.signal, ::strsignal(o.signal));
    } else if (o.exit_code != 0) {
        const char* meaning = o.exit_code == 2   ? " (bad input)"
                              : o.exit_code == 3 ? " (simulation failed)"
                              : o.exit_code == 4 ? " (output verification failed)"
                                                 : "";
        const std::string said = last_line(log);
        r.error = fmt::format("exit {}{}{}{}", o.exit_code, meaning, said.empty() ? "" : ": ", said);
    } else if (!fs::exists(a.out + "/summary.json") || !fs::exists(a.out + "/stats.json")) {
        r.error = "the run ended without writing summary.json and stats.json";
    }
    r.state = r.error.empty() ? PointRecord::State::Done : PointRecord::State::Failed;
    nlohmann::json info = {{"index", p.index}, {"hash", p.hash}, {"label", p.label}, {"status", state_name(r.state)},
                           {"exit_code", o.exit_code}, {"signal", o.signal}, {"error", r.error},
                           {"host_seconds", o.host_seconds}, {"host", m_host}, {"command", command}};
    sim::write_file_atomically(a.out + "/point.json", info.dump(2) + "\n");
    fs::create_directories(m_out + "/points");
    const std::string target = point_dir(p);
    if (fs::exists(target)) {
        if (record(p).state == PointRecord::State::Done) {  // another process finished it first
            fs::remove_all(a.out, ec);
            return record(p);
        }
        const std::string old = a.out + ".replaced";
        fs::rename(target, old);
        fs::remove_all(old, ec);
    }
    fs::rename(a.out, target);
    return r;
}

std::string SweepStore::results_csv(const SweepPlan& plan) const {
    std::vector<std::string> header = {"point", "hash", "status"};
    header.insert(header.end(), plan.columns().begin(), plan.columns().end());
    const std::vector<std::string> summary_cols = summary_columns(plan);
    header.insert(header.end(), summary_cols.begin(), summary_cols.end());
    header.insert(header.end(), {"verified", "host_seconds"});
    header.insert(header.end(), plan.stats().begin(), plan.stats().end());
    header.push_back("error");
    std::string out;
    auto row = [&out](const std::vector<std::string>& cells) {
        for (size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + csv_cell(cells[i]);
        out += "\n";
    };
    row(header);
    for (const SweepPoint& p : plan.points()) {
        const PointRecord r = record(p);
        std::vector<std::string> cells = {std::to_string(p.index), p.hash, state_name(r.state)};
        cells.insert(cells.end(), p.values.begin(), p.values.end());
        const bool has_results = r.state != PointRecord::State::Pending;
        nlohmann::json summary = has_results ? read_json(point_dir(p) + "/summary.json") : nlohmann::json();
        nlohmann::json stats = has_results ? read_json(point_dir(p) + "/stats.json") : nlohmann::json();
        for (const auto& c : summary_cols) cells.push_back(summary.is_object() && summary.contains(c) ? cell(summary[c]) : "");
        bool verified = summary.is_object() && summary.contains("verification");
        cells.push_back(verified ? cell(summary["verification"].value("passed", nlohmann::json())) : "");
        cells.push_back(has_results ? fmt::format("{:.3f}", r.host_seconds) : "");
        for (const auto& s : plan.stats())
            cells.push_back(stats.is_object() && stats.contains(s) ? cell(stats[s].value("value", nlohmann::json())) : "");
        cells.push_back(r.error);
        row(cells);
    }
    return out;
}

std::string SweepStore::write_results(const SweepPlan& plan) const {
    sim::write_file_atomically(m_out + "/results.csv", results_csv(plan));
    size_t n[3] = {};
    for (const SweepPoint& p : plan.points()) ++n[static_cast<int>(record(p).state)];
    return fmt::format("{} done, {} failed, {} pending", n[1], n[2], n[0]);
}

}  // namespace stacksim::top
