// SPDX-License-Identifier: Apache-2.0
// A sweep's results folder: point folders published whole, their state, the lock, results.csv.
#include "top/sweep_store.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/atomic_file.h"
#include "sim/error.h"
#include "sim/output_error.h"
#include "sim/staged_directory.h"
#include "top/result_identity.h"

namespace stacksim::top {

namespace {

namespace fs = std::filesystem;

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// True when `path` is a folder itself, not a link to one.
bool real_dir(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool exists_here(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0;
}

/// The JSON object in `path`; null, with `problem` saying why, when it is not one.
nlohmann::json read_object(const std::string& path, std::string& problem) {
    std::ifstream in(path);
    if (!in) {
        problem = "cannot be read";
        return nullptr;
    }
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded()) problem = "not valid JSON";
    else if (!j.is_object()) problem = "not a JSON object";
    return problem.empty() ? j : nlohmann::json();
}

/// JSON read from `path`, or null when it is missing or malformed.
nlohmann::json read_json(const std::string& path) {
    std::string problem;
    return read_object(path, problem);
}

/// j[key] when it is a string, else "" (files in the folder may have been edited by hand).
std::string text_at(const nlohmann::json& j, const char* key) {
    if (!j.is_object() || !j.contains(key) || !j[key].is_string()) return "";
    return j[key].get<std::string>();
}

double number_at(const nlohmann::json& j, const char* key) {
    if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return 0;
    return j[key].get<double>();
}

/// Why summary.json or stats.json is not what `stacksim run` writes ("" when it is); the file's
/// JSON in `j`.
std::string result_file_problem(const std::string& path, bool summary, nlohmann::json& j) {
    std::string problem;
    j = read_object(path, problem);
    if (!problem.empty()) return problem;
    if (summary) {
        if (j.contains("verification") && !j["verification"].is_object()) return "'verification' is not an object";
        return "";
    }
    for (auto it = j.begin(); it != j.end(); ++it)
        if (!it.value().is_object()) return "statistic '" + it.key().substr(0, 80) + "' is not an object";
    return "";
}

/// Writes a file of the results folder; a failure (disk full, file size limit) is an OutputError.
void write_output(const std::string& path, const std::string& text) {
    try {
        sim::write_file_atomically(path, text);
    } catch (const sim::InputError&) {
        throw;
    } catch (const std::exception& e) {
        throw sim::OutputError(e.what());
    }
}

std::string csv_cell(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

/// A JSON number or boolean as a table cell (averages and histograms: their mean).
std::string cell(const nlohmann::json& v) {
    if (v.is_object() && v.contains("mean")) return v["mean"].is_object() ? "" : cell(v["mean"]);
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

void SweepStore::claim(const std::string& option) const {
    sim::check_results_target(m_out, true, "sweep", option);
    std::error_code ec;
    fs::create_directories(m_out, ec);
    if (ec) throw sim::InputError(fmt::format("{} {}: cannot create the results folder: {}", option, m_out, ec.message()));
    if (sim::results_folder_kind(m_out) != "sweep") {
        sim::check_results_target(m_out, true, "sweep", option);  // still empty: claim it
        sim::mark_results_folder(m_out, "sweep", option);
    }
}

void SweepStore::check_is_sweep_folder() const {
    // Without plan.json, SweepPlan::load says there is no sweep here.
    if (sim::results_folder_kind(m_out) != "sweep" && exists_here(m_out + "/plan.json"))
        throw sim::InputError(fmt::format("{}: not a stacksim sweep's results folder (no {} marker saying 'sweep'); "
                                          "nothing in it is read or changed",
                                          m_out, sim::kResultsMarker));
}

std::string SweepStore::own_folder(const std::string& name) const {
    const std::string path = m_out + "/" + name;
    if (::mkdir(path.c_str(), 0777) != 0 && errno != EEXIST)
        throw sim::InputError(fmt::format("{}: cannot create: {}", path, std::strerror(errno)));
    if (!real_dir(path))
        throw sim::InputError(fmt::format("{}: is not a folder (a symbolic link?); the sweep does not follow it", path));
    return path;
}

bool SweepStore::lock(bool exclusive) {
    std::error_code ec;
    fs::create_directories(m_out, ec);
    if (ec) throw sim::InputError(fmt::format("{}: cannot create the results folder: {}", m_out, ec.message()));
    const std::string path = m_out + "/.lock";
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) throw sim::InputError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
    if (::flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0) {
        ::close(fd);
        return false;
    }
    return true;  // the descriptor stays open (and locked) until the process exits
}

void SweepStore::clean_attempts() const {
    std::error_code ec;
    fs::remove_all(m_out + "/tmp", ec);  // a link there is removed, not followed
    own_folder("tmp");
}

size_t SweepStore::attempts_in_progress() const {
    size_t n = 0;
    std::error_code ec;
    if (!real_dir(m_out + "/tmp")) return 0;
    for (auto& e : fs::directory_iterator(m_out + "/tmp", ec))
        if (e.is_directory(ec) && !e.is_symlink(ec)) ++n;
    return n;
}

PointRecord SweepStore::record(const SweepPoint& p) const {
    PointRecord r;
    const std::string dir = point_dir(p);
    const std::string rel = "points/" + p.hash + "/";
    // A link at points/ or points/HASH is nothing this sweep wrote: the point is pending.
    if (!real_dir(m_out + "/points") || !real_dir(dir)) return r;
    nlohmann::json info;
    if (exists_here(dir + "/point.json")) {
        std::string problem;
        info = read_object(dir + "/point.json", problem);
        if (!problem.empty()) {
            r.corrupt = rel + "point.json: " + problem;
            return r;
        }
    }
    r.host_seconds = number_at(info, "host_seconds");
    if (text_at(info, "status") == "failed") {
        r.state = PointRecord::State::Failed;
        r.error = text_at(info, "error");
        return r;
    }
    if (!exists_here(dir + "/summary.json") || !exists_here(dir + "/stats.json")) return r;
    nlohmann::json summary;
    for (const char* f : {"stats.json", "summary.json"}) {
        const std::string problem = result_file_problem(dir + "/" + f, f[1] == 'u', summary);
        if (!problem.empty()) {
            r.corrupt = rel + f + ": " + problem;
            return r;
        }
    }
    // A result of another simulator build, or of input files that have changed since, is stale.
    try {
        r.stale = identity_change(summary.contains("identity") ? summary["identity"] : nlohmann::json(), identity(p));
    } catch (const sim::InputError& e) {
        r.stale = std::string("an input cannot be read now: ") + e.what();
    }
    if (r.stale.empty()) r.state = PointRecord::State::Done;
    return r;
}

const nlohmann::json& SweepStore::identity(const SweepPoint& p) const {
    std::string ptx_dir, trace;
    for (size_t i = 0; i + 1 < p.args.size(); ++i) {
        if (p.args[i] == "--ptx-dir") ptx_dir = p.args[i + 1];
        if (p.args[i] == "--trace") trace = p.args[i + 1];
    }
    const std::string program = p.program.empty() ? "" : p.program[0];
    const std::string key = ptx_dir + '\0' + trace + '\0' + program;
    auto it = m_identities.find(key);
    if (it == m_identities.end()) it = m_identities.emplace(key, result_identity(ptx_dir, trace, program)).first;
    return it->second;
}

PointAttempt SweepStore::begin(const SweepPoint& p) {
    const std::string tmp = own_folder("tmp");
    std::string tmpl = tmp + "/" + p.hash + ".XXXXXX";
    if (::mkdtemp(tmpl.data()) == nullptr)
        throw sim::InputError(fmt::format("{}: cannot create a folder for a run: {}", tmp, std::strerror(errno)));
    PointAttempt a;
    a.dir = tmpl;
    a.out = a.dir + "/run";
    a.log = a.dir + "/log.txt";
    return a;
}

int SweepStore::open_log(const PointAttempt& a) const {
    return ::open(a.log.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
}

PointRecord SweepStore::publish(const SweepPoint& p, const PointAttempt& a, const PointOutcome& o,
                                const std::vector<std::string>& command) const {
    // a.dir is private (0700, made by mkdtemp): nothing in it was planted by another user.
    if (!exists_here(a.out) && ::mkdir(a.out.c_str(), 0777) != 0)
        throw sim::InputError(fmt::format("{}: cannot create: {}", a.out, std::strerror(errno)));
    if (!real_dir(a.out)) throw sim::InputError(fmt::format("{}: is not a folder", a.out));
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
                              : o.exit_code == 5 ? " (I/O error writing the results)"
                                                 : "";
        const std::string said = last_line(log);
        r.error = fmt::format("exit {}{}{}{}", o.exit_code, meaning, said.empty() ? "" : ": ", said);
    } else if (!exists_here(a.out + "/summary.json") || !exists_here(a.out + "/stats.json")) {
        r.error = "the run ended without writing summary.json and stats.json";
    }
    r.state = r.error.empty() ? PointRecord::State::Done : PointRecord::State::Failed;
    nlohmann::json info = {{"index", p.index}, {"hash", p.hash}, {"label", p.label}, {"status", state_name(r.state)},
                           {"exit_code", o.exit_code}, {"signal", o.signal}, {"error", r.error},
                           {"host_seconds", o.host_seconds}, {"host", m_host}, {"command", command}};
    write_output(a.out + "/point.json", info.dump(2) + "\n");
    own_folder("points");
    const std::string target = point_dir(p);
    struct stat st {};
    if (::lstat(target.c_str(), &st) == 0) {
        if (!S_ISDIR(st.st_mode)) {
            ::unlink(target.c_str());  // a link (or file) planted there is removed, never followed
        } else if (record(p).state == PointRecord::State::Done) {  // another process finished it first
            fs::remove_all(a.dir, ec);
            return record(p);
        } else {
            const std::string old = a.dir + "/replaced";
            fs::rename(target, old);
        }
    }
    fs::rename(a.out, target);
    fs::remove_all(a.dir, ec);
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
        const bool corrupt = !r.corrupt.empty();
        cells.insert(cells.end(), p.values.begin(), p.values.end());
        const bool has_results = r.state != PointRecord::State::Pending;
        nlohmann::json summary = has_results ? read_json(point_dir(p) + "/summary.json") : nlohmann::json();
        nlohmann::json stats = has_results ? read_json(point_dir(p) + "/stats.json") : nlohmann::json();
        for (const auto& c : summary_cols) cells.push_back(summary.is_object() && summary.contains(c) ? cell(summary[c]) : "");
        bool verified = summary.is_object() && summary.contains("verification") && summary["verification"].is_object();
        cells.push_back(verified ? cell(summary["verification"].value("passed", nlohmann::json())) : "");
        cells.push_back(has_results ? fmt::format("{:.3f}", r.host_seconds) : "");
        for (const auto& s : plan.stats())
            cells.push_back(stats.is_object() && stats.contains(s) && stats[s].is_object()
                                ? cell(stats[s].value("value", nlohmann::json()))
                                : "");
        cells.push_back(corrupt ? "corrupt (rerun): " + r.corrupt : !r.stale.empty() ? "stale (rerun): " + r.stale : r.error);
        row(cells);
    }
    return out;
}

std::string SweepStore::kernels_csv(const SweepPlan& plan) const {
    static const std::vector<std::string> kFields = {"name", "app", "priority", "ctas", "call_cycle", "start_cycle",
                                                     "cycles", "warp_instructions", "avg_cta_cycles", "ipc"};
    std::vector<std::string> header = {"point", "hash"};
    header.insert(header.end(), plan.columns().begin(), plan.columns().end());
    header.push_back("kernel");
    header.insert(header.end(), kFields.begin(), kFields.end());
    std::string out;
    auto row = [&out](const std::vector<std::string>& cells) {
        for (size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + csv_cell(cells[i]);
        out += "\n";
    };
    row(header);
    for (const SweepPoint& p : plan.points()) {
        if (record(p).state != PointRecord::State::Done) continue;
        const nlohmann::json summary = read_json(point_dir(p) + "/summary.json");
        if (!summary.contains("kernels") || !summary["kernels"].is_array()) continue;
        size_t n = 0;
        for (const nlohmann::json& k : summary["kernels"]) {
            std::vector<std::string> cells = {std::to_string(p.index), p.hash};
            cells.insert(cells.end(), p.values.begin(), p.values.end());
            cells.push_back(std::to_string(n++));
            for (const std::string& f : kFields) cells.push_back(k.is_object() && k.contains(f) ? cell(k[f]) : "");
            row(cells);
        }
    }
    return out;
}

std::string SweepStore::write_results(const SweepPlan& plan) const {
    write_output(m_out + "/results.csv", results_csv(plan));
    write_output(m_out + "/kernels.csv", kernels_csv(plan));
    size_t n[3] = {};
    for (const SweepPoint& p : plan.points()) ++n[static_cast<int>(record(p).state)];
    return fmt::format("{} done, {} failed, {} pending", n[1], n[2], n[0]);
}

}  // namespace stacksim::top
