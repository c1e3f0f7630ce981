// SPDX-License-Identifier: Apache-2.0
// Runs the stacksim executable as a user would and captures its output and exit code.
#include "tests/system/cli_runner.h"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "tests/system/stats_record.h"

namespace stacksim::test {

CliResult run_shell(const std::string& command) {
    const std::string cmd = command + " 2>&1";
    CliResult r;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) throw std::runtime_error("popen failed");
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
    int status = pclose(p);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

namespace {
CliResult run_raw(const std::string& args) { return run_shell(std::string(STACKSIM_BINARY) + " " + args); }
}  // namespace

CliResult run_cli(const std::string& args) {
    CliResult r = run_raw(args);
    // Regression recording (scripts/stats_identical.sh): the same run again into the record.
    const std::string dir = stats_record_path("cli");
    if (!dir.empty() && r.exit_code == 0 && (args.rfind("run", 0) == 0 || args.rfind("noc", 0) == 0)) {
        namespace fs = std::filesystem;
        fs::create_directories(dir);
        const auto out = args.find("--out ");
        if (out == std::string::npos) {
            run_raw(args + " --quiet --out " + dir);
        } else {
            std::istringstream rest(args.substr(out + 6));
            std::string given;
            rest >> given;
            for (auto& f : fs::directory_iterator(given))
                if (f.is_regular_file()) fs::copy_file(f.path(), dir + "/" + f.path().filename().string());
        }
        fs::remove(dir + "/config.toml");
        fs::remove(dir + "/summary.json");  // holds host time
    }
    return r;
}

std::string temp_dir() {
    char tmpl[] = "/tmp/stacksim-test-XXXXXX";
    char* d = mkdtemp(tmpl);
    if (!d) throw std::runtime_error("mkdtemp failed");
    return d;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void write_file(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

std::vector<std::string> list_section(const std::string& heading) {
    std::istringstream in(run_cli("list").output);
    std::vector<std::string> names;
    std::string line;
    bool inside = false;
    while (std::getline(in, line)) {
        if (line.rfind(heading, 0) == 0) {
            inside = true;
        } else if (inside && line.rfind("  ", 0) == 0) {
            std::istringstream words(line);
            std::string name;
            words >> name;
            names.push_back(name);
        } else if (inside) {
            break;
        }
    }
    return names;
}

double summary_number(const std::string& json_text, const std::string& key) {
    auto pos = json_text.find("\"" + key + "\":");
    if (pos == std::string::npos) throw std::runtime_error("no key " + key);
    return std::stod(json_text.substr(pos + key.size() + 3));
}

}  // namespace stacksim::test
