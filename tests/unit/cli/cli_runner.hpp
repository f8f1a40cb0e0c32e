// Runs the warpscope-cli binary (WS_CLI_PATH) for the CLI tests: exit code and stdout + stderr.
#pragma once
#include <gtest/gtest.h>
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

/// Expects `warpscope-cli ARGS` to exit with `code` after exactly one line of output that contains `needle`.
inline void expect_one_line(const std::string& args, int code, const std::string& needle) {
  const CliOut o = run_cli(args);
  EXPECT_EQ(o.code, code) << args << "\n" << o.out;
  EXPECT_EQ(count_lines(o.out), 1) << args << "\n" << o.out;
  EXPECT_NE(o.out.find(needle), std::string::npos) << args << "\n" << o.out;
}

}  // namespace ws::test
