// Runs the warpscope-cli binary (WS_CLI_PATH) for the CLI tests: exit code and stdout + stderr.
#pragma once
#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <string>

namespace ws::test {

struct CliOut {
  int code;
  std::string out;  ///< stdout + stderr
};

/// Runs `warpscope-cli ARGS` through the shell (ARGS may redirect); code -1 when it did not exit normally.
inline CliOut run_cli(const std::string& args) {
  const std::string cmd = std::string(WS_CLI_PATH) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf{};
  while (p && fgets(buf.data(), buf.size(), p)) out += buf.data();
  const int status = p ? pclose(p) : -1;
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

inline int count_lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

}  // namespace ws::test
