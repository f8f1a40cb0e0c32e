// ws_gen_trace_points OUT FILE.cu...: writes the trace-point table of the kernel files to OUT
// (app/core/trace/trace_points_scan.hpp), leaving OUT untouched when it would not change. Exit 1 with
// "file:line: why" on a malformed marker.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "trace/trace_points_scan.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: ws_gen_trace_points OUT FILE.cu...\n";
    return 2;
  }
  std::vector<ws::ScannedFile> files;
  for (int i = 2; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    if (!in) {
      std::cerr << "ws_gen_trace_points: cannot read " << argv[i] << "\n";
      return 1;
    }
    std::ostringstream text;
    text << in.rdbuf();
    std::string path = argv[i];
    const std::size_t slash = path.find_last_of('/');
    files.push_back(ws::scan_trace_points(slash == std::string::npos ? path : path.substr(slash + 1), text.str()));
    if (!files.back().error.empty()) {
      std::cerr << argv[i] << ": " << files.back().error << "\n";
      return 1;
    }
  }
  const std::string header = ws::trace_points_header(files);
  {
    std::ifstream old(argv[1], std::ios::binary);
    std::ostringstream text;
    if (old) text << old.rdbuf();
    if (old && text.str() == header) return 0;
  }
  std::ofstream out(argv[1], std::ios::binary);
  out << header;
  if (!out) {
    std::cerr << "ws_gen_trace_points: cannot write " << argv[1] << "\n";
    return 1;
  }
  return 0;
}
