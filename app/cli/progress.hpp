// Progress of long commands (report, sweep) on stderr: stdout keeps the table or the data alone.
#pragma once
#include <unistd.h>

#include <cstdio>
#include <string>

namespace ws::cli {

/// --progress / --quiet: Auto shows progress where stdout carries data (--json, --csv) and not a table.
enum class ProgressMode { Auto, On, Off };

/// Prints "N/M item" per finished item on stderr: on a terminal one line rewritten in place and cleared
/// at the end (never left behind); elsewhere (a log, tmux's pipe) one whole line per item.
class Progress {
 public:
  /// `active`: whether to print at all (the command decides from ProgressMode and its output).
  Progress(bool active, int total) : active_(active), tty_(::isatty(2) == 1), total_(total) {}
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress() { done(); }

  /// Item `n` (1-based) of `total` (0: the constructor's) finished; `text` names it (variant, n, status).
  void item(int n, const std::string& text, int total = 0) {
    if (!active_) return;
    if (total > 0) total_ = total;
    if (tty_) {
      std::fprintf(stderr, "\r\033[K%d/%d %s", n, total_, text.c_str());
      shown_ = true;
    } else {
      std::fprintf(stderr, "%d/%d %s\n", n, total_, text.c_str());
    }
    std::fflush(stderr);
  }
  /// Clears the terminal line (called by the destructor too).
  void done() {
    if (shown_) std::fprintf(stderr, "\r\033[K");
    shown_ = false;
  }

 private:
  bool active_, tty_;
  int total_;
  bool shown_ = false;
};

/// Whether a command shows progress: --quiet never, --progress always, else only when stdout carries
/// data (`data_on_stdout`: --json or --csv) rather than the table that shows each item itself.
inline bool show_progress(ProgressMode m, bool data_on_stdout) {
  return m == ProgressMode::On || (m == ProgressMode::Auto && data_on_stdout);
}

}  // namespace ws::cli
