// SPDX-License-Identifier: Apache-2.0
// System tests of issue 24's sweep and results-folder defects: markers, links, corrupt points,
// caps, Slurm scripts, orphans, file size limits; and issue 32's result identity and kernels.csv.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "tests/system/cli_runner.h"

using namespace stacksim::test;
namespace fs = std::filesystem;

namespace {

size_t lines(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

/// Hashes of the points a sweep's output says it finished ("sweep: [ 3/12] done   HASH ...").
std::set<std::string> finished_in(const std::string& output) {
    std::set<std::string> out;
    std::istringstream in(output);
    std::string line;
    while (std::getline(in, line)) {
        auto at = line.find("] done ");
        if (line.rfind("sweep: [", 0) == 0 && at != std::string::npos) {
            std::istringstream words(line.substr(at + 7));
            std::string hash;
            words >> hash;
            out.insert(hash);
        }
    }
    return out;
}

/// The point folders of a sweep's results folder.
std::vector<std::string> point_hashes(const std::string& out) {
    std::vector<std::string> v;
    for (auto& d : fs::directory_iterator(out + "/points")) v.push_back(d.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
}

const char* const kTwoPoints = "[base]\nconfig = \"small\"\nworkload = \"vecadd:256\"\n[grid]\nseed = [1, 2]\n";

}  // namespace

TEST_CASE("sweep safety: --out of a non-empty folder without the marker is refused before anything is deleted",
          "[sweep][errors]") {
    const std::string dir = temp_dir();
    write_file(dir + "/s.toml", kTwoPoints);
    fs::create_directories(dir + "/project/tmp");
    write_file(dir + "/project/tmp/keep.txt", "precious");
    write_file(dir + "/project/main.c", "int main;");
    CliResult r = run_cli("sweep " + dir + "/s.toml --out " + dir + "/project");
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(lines(r.output) == 1);
    CHECK(r.output.find(".stacksim-results") != std::string::npos);
    CHECK(read_file(dir + "/project/tmp/keep.txt") == "precious");
    CHECK(std::distance(fs::directory_iterator(dir + "/project"), fs::directory_iterator()) == 2);  // tmp, main.c
    // [sweep] out = ".." (relative to the sweep file): the folder above, which is not a results folder.
    fs::create_directories(dir + "/sub/tmp");
    write_file(dir + "/sub/tmp/keep.txt", "precious");
    write_file(dir + "/sub/up.toml", std::string("[sweep]\nout = \"..\"\n") + kTwoPoints);
    r = run_cli("sweep " + dir + "/sub/up.toml");
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(r.output.find("up.toml:2: sweep.out") != std::string::npos);
    CHECK(read_file(dir + "/sub/tmp/keep.txt") == "precious");
    // A results folder of a run is no sweep's either; --status on a folder without the marker neither.
    REQUIRE(run_cli("run small --workload vecadd:256 --quiet --out " + dir + "/run").exit_code == 0);
    r = run_cli("sweep " + dir + "/s.toml --out " + dir + "/run");
    CHECK(r.exit_code == 2);
    CHECK(r.output.find("results of a stacksim run, not of a sweep") != std::string::npos);
    write_file(dir + "/project/plan.json", "{}");  // a plan without the marker: not read, not merged into
    r = run_cli("sweep " + dir + "/project --merge");
    CHECK(r.exit_code == 2);
    CHECK(r.output.find("not a stacksim sweep's results folder") != std::string::npos);
    CHECK_FALSE(fs::exists(dir + "/project/results.csv"));
    // An empty folder is claimed and used; the sweep's own folder is resumed.
    fs::create_directories(dir + "/empty");
    r = run_cli("sweep " + dir + "/s.toml --out " + dir + "/empty");
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK(read_file(dir + "/empty/.stacksim-results") == "sweep\n");
    CHECK(run_cli("sweep " + dir + "/s.toml --out " + dir + "/empty").output.find("2 done") != std::string::npos);
}

TEST_CASE("sweep safety: links planted at points/HASH and tmp/ are never followed", "[sweep][errors]") {
    const std::string dir = temp_dir();
    write_file(dir + "/s.toml", "[base]\nconfig = \"small\"\nworkload = \"vecadd:256\"\n");
    REQUIRE(run_cli("sweep " + dir + "/s.toml").exit_code == 0);
    const std::string hash = point_hashes(dir + "/s").front();
    const std::string point = dir + "/s/points/" + hash;
    // A link at points/HASH to a folder that looks like finished results: not done, and not written through.
    fs::create_directories(dir + "/victim");
    write_file(dir + "/victim/summary.json", "{}");
    write_file(dir + "/victim/stats.json", "{}");
    fs::remove_all(point);
    fs::create_directory_symlink(dir + "/victim", point);
    CliResult r = run_cli("sweep " + dir + "/s --status");
    INFO(r.output);
    CHECK(r.output.find("0 done, 0 failed, 1 pending") != std::string::npos);
    // tmp/ as a link: a Slurm task (--point: no cleaning) refuses it; nothing lands in its target.
    fs::create_directories(dir + "/victim2");
    fs::remove_all(dir + "/s/tmp");
    fs::create_directory_symlink(dir + "/victim2", dir + "/s/tmp");
    r = run_cli("sweep " + dir + "/s --point 0");
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(r.output.find("symbolic link") != std::string::npos);
    CHECK(fs::is_empty(dir + "/victim2"));
    // A local sweep removes both links (not their targets) and publishes a real folder.
    r = run_cli("sweep " + dir + "/s");
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_FALSE(fs::is_symlink(point));
    CHECK(fs::exists(point + "/point.json"));
    CHECK(read_file(dir + "/victim/summary.json") == "{}");
    CHECK_FALSE(fs::exists(dir + "/victim/point.json"));
    CHECK(fs::is_empty(dir + "/victim2"));
    CHECK_FALSE(fs::is_symlink(dir + "/s/tmp"));
}

TEST_CASE("sweep safety: a corrupt point JSON is reported by name and rerun while status and dry-run and merge work",
          "[sweep][errors]") {
    const std::string dir = temp_dir();
    write_file(dir + "/s.toml", kTwoPoints);
    REQUIRE(run_cli("sweep " + dir + "/s.toml").exit_code == 0);
    const auto hashes = point_hashes(dir + "/s");
    REQUIRE(hashes.size() == 2);
    write_file(dir + "/s/points/" + hashes[0] + "/summary.json", "{\"verification\": 5}");
    write_file(dir + "/s/points/" + hashes[1] + "/point.json", "{\"status\": 5");
    const std::string named0 = "points/" + hashes[0] + "/summary.json";
    const std::string named1 = "points/" + hashes[1] + "/point.json";
    for (const char* mode : {"--status", "--dry-run", "--merge"}) {
        CliResult r = run_cli("sweep " + dir + "/s " + mode);
        INFO(mode << "\n" << r.output);
        CHECK(r.exit_code == 0);
        if (std::string(mode) != "--merge") {
            CHECK(r.output.find(named0) != std::string::npos);
            CHECK(r.output.find(named1) != std::string::npos);
        }
    }
    const std::string table = read_file(dir + "/s/results.csv");
    CHECK(table.find("corrupt (rerun): " + named0) != std::string::npos);
    CliResult r = run_cli("sweep " + dir + "/s.toml");
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK(r.output.find("0 done, 0 failed, 2 to run") != std::string::npos);
    CHECK(finished_in(r.output) == std::set<std::string>(hashes.begin(), hashes.end()));
}

TEST_CASE("sweep safety: a 5000-character config value is one line naming file and line", "[sweep][errors]") {
    const std::string dir = temp_dir();
    write_file(dir + "/s.toml", "[base]\nworkload = \"vecadd:256\"\nconfig = \"" + std::string(5000, 'x') + "\"\n");
    CliResult r = run_cli("sweep " + dir + "/s.toml");
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(lines(r.output) == 1);
    CHECK(r.output.find("s.toml:3: config: a value of 5000 characters") != std::string::npos);
    CHECK(r.output.size() < 400);
}

TEST_CASE("sweep safety: a grid past the point cap is refused before any point is made", "[sweep][errors]") {
    const std::string dir = temp_dir();
    std::string axis = "[";
    for (int i = 0; i < 1000; ++i) axis += std::to_string(i + 1) + (i < 999 ? ", " : "]");
    write_file(dir + "/g.toml", "[base]\nconfig = \"small\"\n[grid]\nseed = " + axis + "\n\"gpu.num_sms\" = " + axis +
                                    "\n\"run.size\" = " + axis + "\n");
    const auto t0 = std::chrono::steady_clock::now();
    CliResult r = run_cli("sweep " + dir + "/g.toml --dry-run");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(lines(r.output) == 1);
    CHECK(r.output.find("g.toml:5: grid.gpu.num_sms: the sweep would have more than 100000 points") !=
          std::string::npos);
    CHECK(seconds < 10);  // not a timing test: the bug filled memory for minutes
}

TEST_CASE("sweep safety: Slurm scripts get the results folder's path as one quoted word", "[sweep][slurm]") {
    const std::string dir = temp_dir();
    const std::string hostile = "res $(touch PWNED) `touch PWNED2` 'q' \"d\" ; touch PWNED3 #%A";
    // As a TOML basic string: its '"' escaped.
    write_file(dir + "/s.toml", "[sweep]\nout = \"res $(touch PWNED) `touch PWNED2` 'q' \\\"d\\\" ; touch PWNED3 #%A\"\n" +
                                    std::string(kTwoPoints));
    fs::create_directories(dir + "/nobin");
    // No sbatch on PATH: the scripts are written, then submission fails (exit 2).
    CliResult r = run_shell("cd " + dir + " && PATH=" + dir + "/nobin " + STACKSIM_BINARY + " sweep s.toml --slurm");
    INFO(r.output);
    CHECK(r.exit_code == 2);
    const std::string script = read_file(dir + "/" + hostile + "/slurm/array-0.sh");
    REQUIRE(!script.empty());
    std::string shown = script;
    const auto exec = shown.find("\nexec ");
    REQUIRE(exec != std::string::npos);
    shown.replace(exec + 1, 5, "printf '%s\\n' ");
    write_file(dir + "/show.sh", shown);
    CliResult printed = run_shell("cd " + dir + " && SLURM_ARRAY_TASK_ID=1 bash show.sh");
    INFO(printed.output);
    CHECK(printed.output == std::string(STACKSIM_BINARY) + "\nsweep\n" + dir + "/" + hostile + "\n--point\n1\n");
    CHECK_FALSE(fs::exists(dir + "/PWNED"));
    CHECK_FALSE(fs::exists(dir + "/PWNED2"));
    CHECK_FALSE(fs::exists(dir + "/PWNED3"));
    // A newline cannot be named to sbatch in a file name pattern: refused, one line.
    write_file(dir + "/n.toml", "[sweep]\nout = \"res\\ntouch PWNED\\n#\"\n" + std::string(kTwoPoints));
    r = run_shell("cd " + dir + " && PATH=" + dir + "/nobin " + STACKSIM_BINARY + " sweep n.toml --slurm");
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(lines(r.output) == 1);
    CHECK(r.output.find("control character") != std::string::npos);
    CHECK_FALSE(fs::exists(dir + "/PWNED"));
    CHECK_FALSE(fs::exists(dir + "/res\ntouch PWNED\n#"));  // refused before anything was written
}

TEST_CASE("sweep safety: alone-run children die with a killed run", "[sweep][apps]") {
    const std::string dir = temp_dir();
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::freopen("/dev/null", "w", stdout);
        ::execl(STACKSIM_BINARY, STACKSIM_BINARY, "run", "small", "--app", "bfs:60000", "--app", "bfs:60000@1us",
                "--set", "run.alone_jobs=2", "--quiet", static_cast<char*>(nullptr));
        ::_exit(127);
    }
    REQUIRE(pid > 0);
    auto children = [pid] {
        std::vector<pid_t> out;
        for (auto& p : fs::directory_iterator("/proc")) {
            const std::string st = read_file(p.path().string() + "/stat");
            const auto close = st.rfind(')');
            if (close == std::string::npos) continue;
            std::istringstream rest(st.substr(close + 2));
            std::string state;
            pid_t ppid = 0;
            rest >> state >> ppid;
            if (ppid == pid && state != "Z") out.push_back(std::stoi(p.path().filename().string()));
        }
        return out;
    };
    std::vector<pid_t> alone;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    // Both alone runs at once (run.alone_jobs=2): wait until both children are there.
    while (alone.size() < 2 && std::chrono::steady_clock::now() < deadline) {
        alone = children();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    REQUIRE(alone.size() == 2);
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    for (pid_t child : alone) {
        bool gone = false;
        for (int i = 0; i < 200 && !gone; ++i) {
            gone = ::kill(child, 0) != 0;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        CHECK(gone);
        if (!gone) ::kill(child, SIGKILL);
    }
}

TEST_CASE("sweep safety: past ulimit -f a run says so (exit 5) and a sweep records an I/O failure",
          "[sweep][errors]") {
    const std::string dir = temp_dir();
    CliResult r = run_shell("ulimit -f 8 && " + std::string(STACKSIM_BINARY) + " run small --workload vecadd:256 "
                            "--quiet --out " + dir + "/run");
    INFO(r.output);
    CHECK(r.exit_code == 5);
    CHECK(r.output.find("File too large") != std::string::npos);
    CHECK_FALSE(fs::exists(dir + "/run"));
    write_file(dir + "/s.toml", "[base]\nconfig = \"small\"\nworkload = \"vecadd:256\"\n");
    r = run_shell("ulimit -f 8 && " + std::string(STACKSIM_BINARY) + " sweep " + dir + "/s.toml");
    INFO(r.output);
    CHECK(r.exit_code == 3);
    CHECK(r.output.find("exit 5 (I/O error writing the results)") != std::string::npos);
    CHECK(r.output.find("bad input") == std::string::npos);
}

TEST_CASE("sweep safety: editing a kernel of a --ptx-dir makes exactly its points stale, and resume reruns them",
          "[sweep][identity]") {
    const std::string dir = temp_dir();
    const std::string ptx = read_file(std::string(STACKSIM_SOURCE_DIR) + "/workloads/kernels/vecadd.ptx");
    for (const char* d : {"a", "b"}) {
        fs::create_directories(dir + "/" + d);
        write_file(dir + "/" + d + "/vecadd.ptx", ptx);
    }
    write_file(dir + "/s.toml", "[base]\nconfig = \"small\"\nworkload = \"vecadd:256\"\n[grid]\nptx_dir = [\"a\", "
                                "\"b\"]\nseed = [1, 2]\n");
    CliResult first = run_cli("sweep " + dir + "/s.toml");
    INFO(first.output);
    REQUIRE(first.exit_code == 0);
    std::set<std::string> of_a;
    const nlohmann::json plan = nlohmann::json::parse(read_file(dir + "/s/plan.json"));
    for (const auto& p : plan["points"])
        if (p["label"].get<std::string>().find("ptx_dir=a") != std::string::npos) of_a.insert(p["hash"]);
    REQUIRE(of_a.size() == 2);
    const auto summary = nlohmann::json::parse(read_file(dir + "/s/points/" + *of_a.begin() + "/summary.json"));
    CHECK(summary["identity"]["build"].get<std::string>().find('+') != std::string::npos);
    CHECK(summary["identity"]["inputs"].contains(dir + "/a/vecadd.ptx"));
    CHECK(run_cli("sweep " + dir + "/s --status").output.find("4 done") != std::string::npos);

    write_file(dir + "/a/vecadd.ptx", ptx + "\n// edited\n");
    CliResult status = run_cli("sweep " + dir + "/s --status");
    INFO(status.output);
    CHECK(status.output.find("2 done, 0 failed, 2 pending") != std::string::npos);
    CHECK(status.output.find("stale") != std::string::npos);
    CHECK(status.output.find("input changed: " + dir + "/a/vecadd.ptx") != std::string::npos);
    CliResult resumed = run_cli("sweep " + dir + "/s.toml");
    INFO(resumed.output);
    CHECK(resumed.exit_code == 0);
    CHECK(resumed.output.find("2 done, 0 failed, 2 to run") != std::string::npos);
    CHECK(finished_in(resumed.output) == of_a);
    CHECK(run_cli("sweep " + dir + "/s --status").output.find("4 done") != std::string::npos);
}

TEST_CASE("sweep safety: a point made by another simulator build is stale, and resume reruns exactly it",
          "[sweep][identity]") {
    // A rebuilt simulator with a changed model has another build identity (a hash of its
    // sources); a point's summary written by it is what another build left behind.
    const std::string dir = temp_dir();
    write_file(dir + "/s.toml", "[base]\nconfig = \"small\"\nworkload = \"vecadd:256\"\n[grid]\nseed = [1, 2, 3]\n");
    REQUIRE(run_cli("sweep " + dir + "/s.toml").exit_code == 0);
    const std::vector<std::string> hashes = point_hashes(dir + "/s");
    REQUIRE(hashes.size() == 3);
    const std::string summary_path = dir + "/s/points/" + hashes[1] + "/summary.json";
    nlohmann::json summary = nlohmann::json::parse(read_file(summary_path));
    REQUIRE(summary["identity"]["build"].is_string());
    summary["identity"]["build"] = "0.1.0+0000000000000000";
    write_file(summary_path, summary.dump(1) + "\n");
    CliResult status = run_cli("sweep " + dir + "/s --status");
    INFO(status.output);
    CHECK(status.output.find("2 done, 0 failed, 1 pending") != std::string::npos);
    CHECK(status.output.find("made by another simulator build") != std::string::npos);
    CliResult resumed = run_cli("sweep " + dir + "/s.toml");
    INFO(resumed.output);
    CHECK(resumed.exit_code == 0);
    CHECK(finished_in(resumed.output) == std::set<std::string>{hashes[1]});
    CHECK(run_cli("sweep " + dir + "/s --status").output.find("3 done") != std::string::npos);
}

TEST_CASE("sweep safety: kernels.csv has one row per point and kernel launch with its stats", "[sweep]") {
    const std::string dir = temp_dir();
    write_file(dir + "/k.toml", "[base]\nconfig = \"small\"\n[grid]\nworkload = [\"bfs:2000\", \"vecadd:256\"]\n");
    CliResult r = run_cli("sweep " + dir + "/k.toml");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const std::string table = read_file(dir + "/k/kernels.csv");
    std::istringstream in(table);
    std::string header;
    std::getline(in, header);
    CHECK(header.rfind("point,hash,config,workload,size,seed,kernel,name,app,priority,ctas,call_cycle,start_cycle,"
                       "cycles,warp_instructions,avg_cta_cycles,ipc", 0) == 0);
    size_t expected = 0;
    std::set<std::string> expected_rows;
    const nlohmann::json plan = nlohmann::json::parse(read_file(dir + "/k/plan.json"));
    for (const auto& p : plan["points"]) {
        const auto s = nlohmann::json::parse(read_file(dir + "/k/points/" + p["hash"].get<std::string>() + "/summary.json"));
        size_t n = 0;
        for (const auto& k : s["kernels"])
            expected_rows.insert(p["hash"].get<std::string>() + "," + std::to_string(n++) + "," +
                                 k["name"].get<std::string>() + "," + std::to_string(k["cycles"].get<uint64_t>()));
        expected += s["kernels"].size();
    }
    CHECK(expected > 2);  // bfs launches several kernels
    std::set<std::string> rows;
    size_t count = 0;
    for (std::string line; std::getline(in, line); ++count) {
        std::vector<std::string> c;
        std::stringstream ss(line);
        for (std::string cell; std::getline(ss, cell, ',');) c.push_back(cell);
        REQUIRE(c.size() >= 14);
        rows.insert(c[1] + "," + c[6] + "," + c[7] + "," + c[13]);
    }
    CHECK(count == expected);
    CHECK(rows == expected_rows);
}

TEST_CASE("sweep safety: run --out names that cannot take the results fail before simulating", "[cli][errors]") {
    const std::string dir = temp_dir();
    fs::create_directories(dir + "/real");
    fs::create_directory_symlink(dir + "/real", dir + "/link");
    fs::create_directories(dir + "/src");
    write_file(dir + "/src/main.c", "int main;");
    fs::create_directories(dir + "/emp");
    // gemm:512 would take long: each refusal comes before the simulation starts.
    const std::string run = "run small --workload matmul:512 --quiet ";
    const std::pair<std::string, std::string> cases[] = {
        {"--out " + dir + "/link --force", "symbolic link"},
        {"--out " + dir + "/emp/.", "not a path ending in '.' or '..'"},
        {"--out ''", "an empty path names no folder"},
        {"--out " + dir + "/src --force", "is not a stacksim results folder"},
    };
    for (const auto& [args, expected] : cases) {
        const auto t0 = std::chrono::steady_clock::now();
        CliResult r = run_cli(run + args);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        INFO(args << "\n" << r.output);
        CHECK(r.exit_code == 2);
        CHECK(lines(r.output) == 1);
        CHECK(r.output.find(expected) != std::string::npos);
        CHECK(seconds < 5);
    }
    CHECK(fs::is_empty(dir + "/real"));
    CHECK(read_file(dir + "/src/main.c") == "int main;");
    CHECK(std::distance(fs::directory_iterator(dir + "/src"), fs::directory_iterator()) == 1);
}

TEST_CASE("sweep safety: on a full disk a point is recorded as failed for an I/O reason (root: a small tmpfs)",
          "[sweep][errors][root]") {
    const std::string dir = temp_dir();
    fs::create_directories(dir + "/full");
    if (::geteuid() != 0 || run_shell("mount -t tmpfs -o size=96k tmpfs " + dir + "/full").exit_code != 0) {
        std::printf("SKIPPED: needs root and mount(8) to make a small full file system (CI runs as root)\n");
        std::fflush(stdout);
        std::exit(77);
    }
    write_file(dir + "/full/s.toml", "[base]\nconfig = \"small\"\nworkload = \"vecadd:256\"\n");
    CliResult r = run_cli("sweep " + dir + "/full/s.toml");
    run_shell("umount " + dir + "/full");
    INFO(r.output);
    CHECK(r.exit_code == 3);
    CHECK(r.output.find("exit 5 (I/O error writing the results)") != std::string::npos);
    CHECK(r.output.find("No space left on device") != std::string::npos);
    CHECK(r.output.find("bad input") == std::string::npos);
}
