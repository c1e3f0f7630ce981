// SPDX-License-Identifier: Apache-2.0
// `stacksim sweep`: run, resume, submit to Slurm, merge and report a sweep of `stacksim run`s.
#include "top/sweep_command.h"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>

#include "sim/error.h"
#include "sim/staged_directory.h"
#include "top/sweep_file.h"
#include "top/sweep_plan.h"
#include "top/sweep_pool.h"
#include "top/sweep_slurm.h"
#include "top/sweep_store.h"

namespace stacksim::top {

namespace {

namespace fs = std::filesystem;

const char* const kSweepUsage =
    "usage: stacksim sweep SWEEP.toml [--out DIR] [--jobs N] [--retry-failed] [--dry-run]\n"
    "       stacksim sweep SWEEP.toml --slurm [--throttle K] [--sbatch ARG]... [--retry-failed]\n"
    "       stacksim sweep SWEEP.toml|DIR --status | --merge\n"
    "       stacksim sweep DIR --point I        (one point; what a Slurm array task runs)\n"
    "SWEEP.toml: [sweep] out/stats/timeout, [base], [grid], [[zip]], [[point]] (docs/experiments.md).";

struct Options {
    std::string target;
    std::string out;
    unsigned jobs = 0;
    bool retry_failed = false, dry_run = false, slurm = false, status = false, merge = false;
    long point = -1;
    SlurmOptions slurm_options;
    std::string out_option = "--out";  ///< where the results folder was named ("--out", "sweep.out")
};

unsigned parse_count(const std::string& flag, const std::string& text, unsigned max) {
    if (text.empty() || text.size() > 6 || text.find_first_not_of("0123456789") != std::string::npos ||
        std::stoul(text) < 1 || std::stoul(text) > max)
        throw sim::InputError(fmt::format("{} {}: expected a whole number from 1 to {}", flag, text, max));
    return static_cast<unsigned>(std::stoul(text));
}

Options parse(const std::vector<std::string>& args) {
    Options o;
    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> const std::string& {
            if (i + 1 >= args.size()) throw sim::InputError(fmt::format("sweep: {} needs a value", a));
            return args[++i];
        };
        if (a == "--out") o.out = value();
        else if (a == "--jobs" || a == "-j") o.jobs = parse_count(a, value(), 4096);
        else if (a == "--retry-failed") o.retry_failed = true;
        else if (a == "--dry-run") o.dry_run = true;
        else if (a == "--slurm") o.slurm = true;
        else if (a == "--throttle") o.slurm_options.throttle = parse_count(a, value(), 100000);
        else if (a == "--sbatch") o.slurm_options.sbatch_args.push_back(value());
        else if (a == "--status") o.status = true;
        else if (a == "--merge") o.merge = true;
        else if (a == "--point") {
            const std::string& v = value();
            if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos)
                throw sim::InputError(fmt::format("--point {}: expected a point number", v));
            o.point = std::stol(v);
        }
        else if (!a.empty() && a[0] != '-' && o.target.empty()) o.target = a;
        else throw sim::InputError(fmt::format("sweep: unexpected argument '{}'\n{}", a, kSweepUsage));
    }
    if (o.target.empty()) throw sim::InputError(std::string("sweep: no sweep file given\n") + kSweepUsage);
    const int modes = o.dry_run + o.slurm + o.status + o.merge + (o.point >= 0);
    if (modes > 1) throw sim::InputError("sweep: give at most one of --dry-run, --slurm, --status, --merge, --point");
    if ((o.slurm_options.throttle || !o.slurm_options.sbatch_args.empty()) && !o.slurm)
        throw sim::InputError("sweep: --throttle and --sbatch go with --slurm");
    return o;
}

std::string self_executable() {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) throw sim::InputError("sweep: cannot find the stacksim executable (/proc/self/exe)");
    return exe.string();
}

/// The points to run now: pending ones, and failed ones when retrying.
std::vector<size_t> todo(const SweepPlan& plan, const SweepStore& store, bool retry_failed, size_t& done,
                         size_t& failed) {
    std::vector<size_t> out;
    done = failed = 0;
    for (const SweepPoint& p : plan.points()) {
        const PointRecord r = store.record(p);
        if (r.state == PointRecord::State::Done) ++done;
        else if (r.state == PointRecord::State::Failed && !retry_failed) ++failed;
        else out.push_back(p.index);
    }
    return out;
}

int status(const SweepPlan& plan, const SweepStore& store) {
    size_t n[3] = {};
    std::string failures, corrupt, stale;
    for (const SweepPoint& p : plan.points()) {
        const PointRecord r = store.record(p);
        ++n[static_cast<int>(r.state)];
        if (r.state == PointRecord::State::Failed)
            failures += fmt::format("  [{}] {} {}: {}\n", p.index, p.hash, p.label, r.error);
        if (!r.corrupt.empty()) corrupt += fmt::format("  [{}] {} {}: {}\n", p.index, p.hash, p.label, r.corrupt);
        if (!r.stale.empty()) stale += fmt::format("  [{}] {} {}: {}\n", p.index, p.hash, p.label, r.stale);
    }
    fmt::print("sweep {} ({}): {} points: {} done, {} failed, {} pending; {} run(s) in progress or interrupted\n",
               plan.out(), plan.sweep_file(), plan.points().size(), n[1], n[2], n[0], store.attempts_in_progress());
    if (!failures.empty()) fmt::print("failed:\n{}", failures);
    if (!stale.empty()) fmt::print("stale (counted pending; the next run reruns them):\n{}", stale);
    if (!corrupt.empty()) fmt::print("corrupt (counted pending; the next run reruns them):\n{}", corrupt);
    auto queued = queued_slurm_jobs(plan.out());
    if (!queued.empty()) {
        std::string ids;
        for (auto& id : queued) ids += (ids.empty() ? "" : " ") + id;
        fmt::print("slurm: still queued or running: {}\n", ids);
    }
    return 0;
}

int dry_run(const SweepPlan& plan, const SweepStore& store) {
    for (const SweepPoint& p : plan.points()) {
        const PointRecord r = store.record(p);
        const char* state = r.state == PointRecord::State::Done     ? "done"
                            : r.state == PointRecord::State::Failed ? "failed"
                            : !r.corrupt.empty()                    ? "corrupt"
                            : !r.stale.empty()                      ? "stale"
                                                                    : "pending";
        std::string cmd = "stacksim";
        for (auto& a : p.args) cmd += " " + a;
        if (!p.program.empty()) cmd += " --";
        for (auto& a : p.program) cmd += " " + a;
        fmt::print("[{}] {} {:<7} {}\n    {}\n", p.index, p.hash, state, p.label, cmd);
        if (!r.corrupt.empty()) fmt::print("    corrupt, will be rerun: {}\n", r.corrupt);
        if (!r.stale.empty()) fmt::print("    stale, will be rerun: {}\n", r.stale);
    }
    fmt::print("sweep: {} points, results in {}\n", plan.points().size(), plan.out());
    return 0;
}

/// Refuses to start points while an earlier Slurm submission of the same folder is queued.
void check_no_queued_jobs(const SweepPlan& plan) {
    auto queued = queued_slurm_jobs(plan.out());
    if (queued.empty()) return;
    std::string ids;
    for (auto& id : queued) ids += (ids.empty() ? "" : " ") + id;
    throw sim::InputError(fmt::format("{}: Slurm jobs of an earlier submission are still queued or running ({}); "
                                      "wait for them (stacksim sweep {} --status) or scancel them",
                                      plan.out(), ids, plan.out()));
}

int run_one_point(const SweepPlan& plan, SweepStore& store, size_t index) {
    if (index >= plan.points().size())
        throw sim::InputError(fmt::format("sweep --point {}: the plan has {} points", index, plan.points().size()));
    if (!store.lock(false))
        throw sim::InputError(fmt::format("{}: a local sweep is running points here", plan.out()));
    const SweepPoint& p = plan.points()[index];
    if (store.record(p).state == PointRecord::State::Done) {
        fmt::print("sweep: point {} ({}) is already done\n", index, p.hash);
        return 0;
    }
    SweepPool pool(store, plan, self_executable(), 1);
    pool.run({index}, 0, 0);
    const PointRecord r = store.record(p);
    fmt::print("sweep: point {} ({}) {}{}\n", index, p.hash, r.state == PointRecord::State::Done ? "done" : "FAILED: ",
               r.error);
    return r.state == PointRecord::State::Done ? 0 : 3;
}

int run_local(const SweepPlan& plan, SweepStore& store, const Options& o) {
    store.claim(o.out_option);
    if (!store.lock(true))
        throw sim::InputError(fmt::format("{}: another sweep, or a Slurm task of one, is running points here",
                                          plan.out()));
    check_no_queued_jobs(plan);
    store.clean_attempts();
    plan.save();
    size_t done = 0, failed = 0;
    const auto points = todo(plan, store, o.retry_failed, done, failed);
    const unsigned jobs = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
    fmt::print("sweep: {} points: {} done, {} failed{}, {} to run with --jobs {}; results in {}\n",
               plan.points().size(), done, failed, failed ? " (kept; --retry-failed reruns them)" : "", points.size(),
               jobs, plan.out());
    std::fflush(stdout);
    const auto t0 = std::chrono::steady_clock::now();
    SweepPool pool(store, plan, self_executable(), jobs);
    const bool complete = pool.run(points, done, failed);
    const std::string counts = store.write_results(plan);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    fmt::print("sweep: {}{}; {} ran now in {:.1f} s; table: {}/results.csv\n", complete ? "" : "interrupted: ", counts,
               pool.done() + pool.failed(), seconds, plan.out());
    if (!complete) return 130;
    return failed + pool.failed() ? 3 : 0;
}

int run_slurm(const SweepPlan& plan, SweepStore& store, const Options& o) {
    check_slurm_paths(plan, self_executable());
    store.claim(o.out_option);
    if (!store.lock(true))
        throw sim::InputError(fmt::format("{}: a sweep is running points here", plan.out()));
    check_no_queued_jobs(plan);
    store.clean_attempts();
    plan.save();
    size_t done = 0, failed = 0;
    const auto points = todo(plan, store, o.retry_failed, done, failed);
    if (points.empty()) {
        fmt::print("sweep: nothing to submit ({}); table: {}/results.csv\n", store.write_results(plan), plan.out());
        return 0;
    }
    fmt::print("sweep: {}\n", submit_to_slurm(plan, points, self_executable(), o.slurm_options));
    return 0;
}

}  // namespace

int sweep_command(const std::vector<std::string>& args) {
    for (auto& a : args)
        if (a == "--help" || a == "-h") {
            fmt::print("{}\n", kSweepUsage);
            return 0;
        }
    Options o = parse(args);
    const bool from_folder = fs::is_directory(o.target);
    std::string out = o.out;
    if (from_folder) {
        o.out_option = "results folder";
        if (!out.empty() && fs::absolute(out) != fs::absolute(o.target))
            throw sim::InputError("sweep: --out goes with a sweep file, not a results folder");
        out = o.target;
    }
    std::optional<SweepFile> file;
    if (!from_folder) {
        file = SweepFile::read(o.target);
        if (out.empty()) {
            out = file->out();
            o.out_option = file->out_where() + ": sweep.out";
        }
        // Before any work: a folder that is not a sweep's results folder is never written to.
        sim::check_results_target(out, true, "sweep", o.out_option);
    }
    // Reports, merges and Slurm tasks work from the plan saved in the results folder.
    if (o.status || o.merge || o.point >= 0 || from_folder) {
        SweepStore(out).check_is_sweep_folder();
        SweepPlan plan = SweepPlan::load(out);
        SweepStore store(plan.out());
        if (o.status) return status(plan, store);
        if (o.merge) {
            fmt::print("sweep: {}; table: {}/results.csv\n", store.write_results(plan), plan.out());
            return 0;
        }
        if (o.point >= 0) return run_one_point(plan, store, static_cast<size_t>(o.point));
        if (o.dry_run) return dry_run(plan, store);
        return o.slurm ? run_slurm(plan, store, o) : run_local(plan, store, o);
    }
    if (!o.out.empty()) file->set_out(o.out);
    const SweepPlan plan = SweepPlan::build(*file);
    SweepStore store(plan.out());
    if (o.dry_run) return dry_run(plan, store);
    return o.slurm ? run_slurm(plan, store, o) : run_local(plan, store, o);
}

}  // namespace stacksim::top
