// warpscope-cli allreduce: the lesson "Reduction across GPUs" (issue 30) from the command line. Runs the
// methods in the sim (collective/allreduce_sim.hpp) or on this machine's GPUs (collective::run_allreduce_on_gpus),
// prints their table, the ring's and the tree's steps with the contributors of every chunk (--steps), a
// message-size sweep with the ring/tree crossover (--sweep), or the results as JSON (collective/allreduce_json.hpp).
// With --gpu the same requests go to a worker (one "allreduce" request per method and size), which runs them on
// its machine's GPUs: a local one, ssh:HOST, or a Slurm job step (slurm:'--gres=gpu:4').
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "collective/allreduce_json.hpp"
#include "collective/allreduce_sim.hpp"
#include "collective/contributors.hpp"
#include "commands.hpp"
#include "json_read.hpp"
#include "launch_rules.hpp"
#include "limits.hpp"
#include "worker_client.hpp"
#include "worker_protocol.hpp"

namespace ws::cli {

namespace {

using namespace ws::collective;

constexpr Method kAllMethods[] = {Method::HostAdd, Method::PeerToGpu0, Method::Ring,
                                  Method::Tree,    Method::NcclRing,   Method::NcclTree};
constexpr std::int64_t kMaxBytes = std::int64_t(4) << 30;  // 2^30 float32, as --n's limit

/// What the options resolve to.
struct Plan {
  std::vector<Method> methods;
  int gpus = 0;                       ///< 0: every visible GPU (cuda only)
  std::vector<std::int64_t> lengths;  ///< elements per GPU: one, or the sweep's sizes
  bool sweep = false;
  LinkModel link;
};

/// "4KiB", "256MiB", "1GiB", "4096" (bytes) into out; "" or one line naming `option`.
std::string parse_bytes(const std::string& option, const std::string& text, std::int64_t& out) {
  std::size_t digits = 0;
  while (digits < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[digits])) || text[digits] == '^' || text[digits] == '<'))
    ++digits;
  std::string unit = text.substr(digits);
  std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  int shift = -1;
  if (unit.empty() || unit == "b") shift = 0;
  if (unit == "kib" || unit == "k") shift = 10;
  if (unit == "mib" || unit == "m") shift = 20;
  if (unit == "gib" || unit == "g") shift = 30;
  std::int64_t count = 0;
  if (shift < 0 || !parse_count(text.substr(0, digits), count))
    return option + " '" + text + "' is not a size in bytes (4096, 4KiB, 256MiB, 1GiB)";
  if (count > (kMaxBytes >> shift)) return option + " '" + text + "' is too large (at most 4GiB: 2^30 float32 per GPU)";
  out = count << shift;
  if (out % 4 != 0) return option + " '" + text + "' is not a whole number of float32 (a multiple of 4 bytes)";
  return "";
}

std::string parse_methods(const std::string& text, std::vector<Method>& out) {
  if (text == "all") {
    out.assign(std::begin(kAllMethods), std::end(kAllMethods));
    return "";
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string name = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    Method m;
    if (!parse_method(name, m))
      return "unknown method '" + name + "' (ring, tree, nccl_ring, nccl_tree, host_add, peer_to_gpu0 or all)";
    if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return "";
}

/// Checks the options; "" or one line for the user.
std::string make_plan(const AllReduceOptions& o, bool json, Plan& p) {
  if (std::string err = parse_methods(o.method, p.methods); !err.empty()) return err;
  if (o.gpus_given && (o.gpus < 1 || o.gpus > kMaxGpus))
    return "--gpus must be 1 to " + std::to_string(kMaxGpus) + " (one node's GPUs), not " + std::to_string(o.gpus);
  p.gpus = o.gpus_given ? o.gpus : (o.backend == BackendKind::Sim ? 4 : 0);
  const int given = int(!o.length.empty()) + int(!o.bytes.empty()) + int(!o.sweep.empty());
  if (given > 1) return "give one of --length, --bytes and --sweep";
  std::int64_t length = AllReduceRequest{}.length;
  if (!o.length.empty())
    if (std::string err = parse_count_option("--length", o.length, length); !err.empty()) return err;
  if (!o.bytes.empty()) {
    std::int64_t bytes = 0;
    if (std::string err = parse_bytes("--bytes", o.bytes, bytes); !err.empty()) return err;
    length = bytes / 4;
  }
  p.lengths = {length};
  if (!o.sweep.empty()) {
    const std::size_t colon = o.sweep.find(':');
    if (colon == std::string::npos) return "--sweep takes FROM:TO in bytes, as 4KiB:1GiB (not '" + o.sweep + "')";
    std::int64_t from = 0, to = 0;
    if (std::string err = parse_bytes("--sweep", o.sweep.substr(0, colon), from); !err.empty()) return err;
    if (std::string err = parse_bytes("--sweep", o.sweep.substr(colon + 1), to); !err.empty()) return err;
    if (from < 4 || to < from) return "--sweep '" + o.sweep + "' must go from at least 4 bytes up (FROM <= TO)";
    p.lengths.clear();
    for (std::int64_t b = from; b <= to; b *= 2) p.lengths.push_back(b / 4);
    p.sweep = true;
  }
  if (o.steps && json) return "choose one of --steps and --json (the JSON holds every step's time in step_ms)";
  if (o.steps && p.sweep) return "choose one of --steps and --sweep";
  if (o.steps && std::none_of(p.methods.begin(), p.methods.end(), is_all_reduce))
    return "--steps shows the ring's and the tree's steps: choose ring, tree, nccl_ring, nccl_tree or all";
  if (!o.link.empty() && o.backend != BackendKind::Sim)
    return "--link chooses the sim's machine; a cuda run reads its link from the GPUs";
  if (!link_model_by_name(o.link.empty() ? "nvlink4" : o.link, p.link))
    return "unknown link '" + o.link + "' (nvlink4: H100/H200 NVLink 4, pcie5: PCIe 5 x16)";
  if (!o.gpu.empty()) {
    WorkerLaunch launch;
    if (std::string bad = parse_gpu_spec(o.gpu, "warpscope-cli", launch); !bad.empty()) return bad;
  }
  return "";
}

/// Where the methods run: this process (the sim, or this machine's GPUs), or a worker (--gpu). run() answers
/// one request; a worker that cannot answer ends the command.
class Runner {
 public:
  Runner(const AllReduceOptions& o, const Plan& p) : o_(o), p_(p) {}

  /// Checks that the methods can run at all: the GPUs here, or a worker started that answers all-reduce
  /// requests. -1, or the exit code after one line on stderr.
  int open() {
    if (o_.gpu.empty()) {
      if (o_.backend == BackendKind::Sim) return -1;
      return check_gpus(visible_gpu_count(), "", [&] {
        AllReduceRequest q;
        q.method = p_.methods.front();
        q.gpus = p_.gpus;
        q.length = p_.lengths.front();
        return run_allreduce_on_gpus(q);
      });
    }
    RunOptions ro;
    ro.gpu = o_.gpu;
    ro.watchdog_s = o_.watchdog_s;
    ro.connect_timeout_s = o_.connect_timeout_s;
    std::string why;
    worker_ = start_gpu_worker(ro, why);  // its line names the worker's host and device on stderr
    if (!worker_) return fail(why, kFailed);
    if (!worker_->offers("allreduce")) return fail(missing_capability_message(worker_->hello(), "allreduce"), kFailed);
    return -1;
  }

  /// Runs `q`: sets `r` and returns -1, or the exit code after one line on stderr (the worker failed, faulted,
  /// or its machine cannot run the cuda methods at all).
  int run(const AllReduceRequest& q, AllReduceResult& r) {
    const bool sim = o_.backend == BackendKind::Sim;
    if (!worker_) {
      r = sim ? simulate_allreduce(q, p_.link) : run_allreduce_on_gpus(q);
      return -1;
    }
    AllReduceAsk ask;
    ask.run = q;
    ask.backend = o_.backend;
    ask.link = o_.link.empty() ? "nvlink4" : o_.link;
    int visible = 0;
    const WorkerReply reply = worker_->allreduce(ask, r, visible);
    if (!reply.ok()) return fail(reply.text, reply.kind == WorkerReply::Kind::Faulted ? kFaulted : kFailed);
    if (answered_++ > 0 || sim) return -1;
    // The first cuda answer: the same checks as in-process, with the worker's machine's GPUs.
    const std::string host = worker_->hello().host;
    const AllReduceResult first = r;
    if (int code = check_gpus(visible, host, [&] { return first; }); code >= 0) return code;
    if (r.ran)
      std::fprintf(stderr, "warpscope-cli: all-reduce on %s: %s\n", host.c_str(), devices_text(r, visible).c_str());
    return -1;
  }

 private:
  /// The in-process checks of a cuda run, for `visible` GPUs on `host` ("": this machine, else the worker's):
  /// none visible is the entry point's line (`refusal()`'s error), fewer than --gpus a line naming both.
  template <typename Refusal>
  int check_gpus(int visible, const std::string& host, Refusal refusal) {
    if (visible == 0) {
      // The entry point says why (a build without CUDA, no driver, no GPU) in one line.
      const AllReduceResult r = refusal();
      return fail((host.empty() ? "" : "the worker on " + host + ": ") +
                      (r.error.empty() ? "no CUDA device is visible" : r.error),
                  kNoDevice);
    }
    if (p_.gpus > visible)
      return fail("--gpus " + std::to_string(p_.gpus) + ": " +
                      (host.empty() ? std::string("this machine") : "the worker's machine, " + host + ",") + " shows " +
                      std::to_string(visible) + " GPU" + (visible == 1 ? "" : "s") + " (run the sim: --backend sim)",
                  kNoDevice);
    return -1;
  }

  /// "4 of 4 GPUs: 4 x NVIDIA H200" (names as the run reported them, repeats counted).
  static std::string devices_text(const AllReduceResult& r, int visible) {
    std::string names;
    for (std::size_t i = 0; i < r.device_names.size();) {
      std::size_t j = i;
      while (j < r.device_names.size() && r.device_names[j] == r.device_names[i]) ++j;
      names += (names.empty() ? "" : ", ") + (j - i > 1 ? std::to_string(j - i) + " x " : "") + r.device_names[i];
      i = j;
    }
    return std::to_string(r.gpus) + " of " + std::to_string(visible) + " GPU" + (visible == 1 ? "" : "s") +
           (names.empty() ? "" : ": " + names);
  }

  static int fail(const std::string& line, int code) {
    std::fprintf(stderr, "warpscope-cli: %s\n", line.c_str());
    return code;
  }

  const AllReduceOptions& o_;
  const Plan& p_;
  std::unique_ptr<WorkerClient> worker_;
  int answered_ = 0;
};

/// A bandwidth: one decimal, three below 10 GB/s (a 4-KiB message's bandwidth is a fraction of a GB/s).
std::string gbs_cell(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, v < 10 ? "%.3f" : "%.1f", v);
  return buf;
}

std::string cell(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::string table_header() {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%-13s %4s %11s %10s %9s %9s %9s  %-14s %s\n", "method", "GPUs", "bytes", "ms",
                "algbw", "busbw", "peer GB/s", "link", "correct");
  return buf;
}

std::string table_row(const AllReduceResult& r) {
  const bool timed = r.ran && r.gpus > 1;
  // host_add and peer_to_gpu0 move one value per GPU: nccl-tests' bus factor means nothing for them.
  const bool bus = timed && is_all_reduce(r.method);
  char buf[512];
  std::snprintf(buf, sizeof buf, "%-13s %4d %11s %10s %9s %9s %9s  %-14s %s\n", to_string(r.method), r.gpus,
                format_bytes(std::uintmax_t(r.length) * 4).c_str(), r.ran ? cell("%.4f", r.median_ms).c_str() : "-",
                timed ? gbs_cell(r.algbw_gbs).c_str() : "-", bus ? gbs_cell(r.busbw_gbs).c_str() : "-",
                r.peer_gbs > 0 ? cell("%.0f", r.peer_gbs).c_str() : "-", r.link.empty() ? "-" : r.link.c_str(),
                !r.ran      ? "not run"
                : r.correct ? "yes"
                            : ("NO: " + r.detail).c_str());
  return buf;
}

/// The note under a sim table: what is modelled, where the numbers come from, what was checked.
std::string sim_note(const Plan& p) {
  std::string note = "simulated (docs/collective.md): alpha-beta model of " + p.link.name + ", peer copies " +
                     cell("%.0f", p.link.peer_gbs) + " GB/s, NCCL " + cell("%.0f", p.link.nccl_ring_busbw_gbs) + "/" +
                     cell("%.0f", p.link.nccl_tree_busbw_gbs) + " GB/s, step latency " +
                     cell("%.0f", p.link.step_gpu_us) + " us a GPU + " + cell("%.0f", p.link.step_move_us) +
                     " us a chunk move; nothing was measured";
  const std::int64_t largest = *std::max_element(p.lengths.begin(), p.lengths.end());
  if (sim_checked_elements(largest) < largest)
    note += "\nchecked the first " + std::to_string(kSimCheckElements) +
            " elements of each GPU's vector against the host (larger vectors: a prefix)";
  return note + "\n";
}

/// The moves of a step: "c0 0->1 +, c1 1->2 +" ('+': the receiver adds).
std::string moves_text(const collective::Step& st) {
  std::string out;
  for (const ChunkMove& m : st.moves)
    out += (out.empty() ? "" : ", ") + std::string("c") + std::to_string(m.chunk) + " " + std::to_string(m.src_gpu) +
           "->" + std::to_string(m.dst_gpu) + (m.add ? " +" : "");
  return out;
}

/// Every GPU's chunks and their contributors, one line per GPU. A chunk's column is as wide as the longest
/// mask short of "all" (n-1 GPUs: 2n-3 characters).
std::string picture(const Schedule& s, int k) {
  const auto held = contributors_after(s, k);
  const int width = std::max(3, 2 * s.gpus - 3);
  std::string out;
  for (int g = 0; g < s.gpus; ++g) {
    out += "        GPU " + std::to_string(g) + ":";
    for (int c = 0; c < s.chunks; ++c) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "  c%d %-*s", c, width, mask_text(held[g][c], s.gpus).c_str());
      out += buf;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += "\n";
  }
  return out;
}

/// `--steps`: the schedule of `a`, step by step. step_ms: the run's (empty: the model's, said so).
void print_steps(Algorithm a, int gpus, std::int64_t length, const std::vector<double>& measured, bool simulated,
                 const LinkModel& link) {
  const Schedule s = make_schedule(a, gpus);
  const bool from_run = measured.size() == s.steps.size();
  const std::vector<double> ms = from_run ? measured : model_step_ms(s, length, link);
  const Range biggest = chunk_range(length, s.chunks, 0);
  std::printf(
      "\n%s all-reduce on %d GPUs, %s per GPU in %d chunk%s of up to %s, %zu steps (%s)\n", to_string(a), gpus,
      format_bytes(std::uintmax_t(length) * 4).c_str(), s.chunks, s.chunks == 1 ? "" : "s",
      format_bytes(std::uintmax_t(biggest.end - biggest.begin) * 4).c_str(), s.steps.size(),
      from_run && !simulated ? "step times measured on the GPUs" : ("step times modelled, " + link.name).c_str());
  std::printf(
      "moves: cC A->B sends GPU A's chunk C to GPU B, '+' when B adds it; after each step, the GPUs whose "
      "values each chunk sums\n");
  std::printf("before: every GPU holds its own values\n%s", picture(s, 0).c_str());
  for (std::size_t k = 0; k < s.steps.size(); ++k) {
    std::printf("step %zu/%zu  %-14s %9.4f ms  %s\n", k + 1, s.steps.size(), to_string(s.steps[k].phase), ms[k],
                moves_text(s.steps[k]).c_str());
    std::printf("%s", picture(s, int(k) + 1).c_str());
  }
}

/// `--sweep`: busbw per size and method, and the first size where `a` beats `b`.
void print_sweep(const std::vector<AllReduceResult>& results, const Plan& p) {
  // The all-reduces' bus bandwidth; host_add and peer_to_gpu0 (one value per GPU crosses a link) their
  // algorithm bandwidth, starred.
  bool scalar = false;
  std::printf("%-11s", "bytes");
  for (Method m : p.methods) {
    scalar = scalar || !is_all_reduce(m);
    std::printf(" %13s", (std::string(to_string(m)) + (is_all_reduce(m) ? " " : "*")).c_str());
  }
  std::printf("   busbw GB/s, %d GPUs%s\n", results.empty() ? p.gpus : results[0].gpus,
              scalar ? " (*: algbw, one value per GPU crosses a link)" : "");
  auto find = [&](Method m, std::int64_t length) -> const AllReduceResult* {
    for (const AllReduceResult& r : results)
      if (r.method == m && r.length == length && r.ran) return &r;
    return nullptr;
  };
  auto has = [&](Method m) { return std::find(p.methods.begin(), p.methods.end(), m) != p.methods.end(); };
  struct Pair {
    Method ring, tree;
    const char* name;
    std::int64_t found = -1;
  };
  std::vector<Pair> pairs;
  if (has(Method::Ring) && has(Method::Tree)) pairs.push_back({Method::Ring, Method::Tree, "ring beats tree"});
  if (has(Method::NcclRing) && has(Method::NcclTree))
    pairs.push_back({Method::NcclRing, Method::NcclTree, "nccl_ring beats nccl_tree"});
  for (std::int64_t length : p.lengths) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%-11s", format_bytes(std::uintmax_t(length) * 4).c_str());
    std::string line = buf;
    for (Method m : p.methods) {
      const AllReduceResult* r = find(m, length);
      std::snprintf(buf, sizeof buf, " %12s ",
                    r ? gbs_cell(is_all_reduce(m) ? r->busbw_gbs : r->algbw_gbs).c_str() : "-");
      line += buf;
    }
    std::string mark;
    for (Pair& pr : pairs) {
      const AllReduceResult *ring = find(pr.ring, length), *tree = find(pr.tree, length);
      if (pr.found < 0 && ring && tree && ring->busbw_gbs > tree->busbw_gbs) {
        pr.found = length;
        mark += std::string(mark.empty() ? "  <- " : ", ") + pr.name;
      }
    }
    line += mark;
    while (!line.empty() && line.back() == ' ') line.pop_back();
    std::printf("%s\n", line.c_str());
  }
  for (const Pair& pr : pairs) {
    if (pr.found < 0)
      std::printf("crossover: %s never beats %s from %s to %s\n", to_string(pr.ring), to_string(pr.tree),
                  format_bytes(std::uintmax_t(p.lengths.front()) * 4).c_str(),
                  format_bytes(std::uintmax_t(p.lengths.back()) * 4).c_str());
    else if (pr.found == p.lengths.front())
      std::printf("crossover: %s beats %s from the smallest size, %s\n", to_string(pr.ring), to_string(pr.tree),
                  format_bytes(std::uintmax_t(pr.found) * 4).c_str());
    else
      std::printf(
          "crossover: %s beats %s from %s on (latency-bound below: fewer steps win; bandwidth-bound above: "
          "fewer bytes win)\n",
          to_string(pr.ring), to_string(pr.tree), format_bytes(std::uintmax_t(pr.found) * 4).c_str());
  }
}

}  // namespace

int cmd_allreduce(const AllReduceOptions& o, bool json) {
  Plan p;
  if (std::string err = make_plan(o, json, p); !err.empty()) {
    std::fprintf(stderr, "warpscope-cli: %s\n", err.c_str());
    return kBadRequest;
  }
  const bool sim = o.backend == BackendKind::Sim;
  Runner runner(o, p);
  if (const int code = runner.open(); code >= 0) return code;
  std::vector<AllReduceResult> results;
  int code = kOk;
  // The table's header: through a worker, once its first answer came (a worker's machine without a GPU is
  // known from that answer, and is one line).
  bool header = !json && !p.sweep;
  if (header && o.gpu.empty()) {
    std::printf("%s", table_header().c_str());
    header = false;
  }
  for (std::int64_t length : p.lengths)
    for (Method m : p.methods) {
      AllReduceRequest q;
      q.method = m;
      q.gpus = p.gpus;
      q.length = length;
      q.warmup = o.warmup;
      q.repeats = o.repeats;
      AllReduceResult r;
      if (const int stop = runner.run(q, r); stop >= 0) return stop;
      if (header) {
        std::printf("%s", table_header().c_str());
        std::fflush(stdout);
        header = false;
      }
      if (!r.ran) {
        std::fprintf(stderr, "warpscope-cli: %s on %d GPUs: %s\n", to_string(m), q.gpus, r.error.c_str());
        code = kFailed;
      } else if (!r.correct) {
        code = kFailed;
      }
      if (!json && !p.sweep) std::printf("%s", table_row(r).c_str());
      std::fflush(stdout);
      results.push_back(std::move(r));
    }
  if (json) {
    std::printf("%s\n", dump_json_text(allreduce_results_to_json(results), 2).c_str());
    return code;
  }
  if (p.sweep) print_sweep(results, p);
  if (sim) std::printf("%s", sim_note(p).c_str());
  if (o.steps) {
    std::vector<Algorithm> shown;
    for (Method m : p.methods) {
      if (!is_all_reduce(m)) continue;
      const Algorithm a = schedule_algorithm(m);
      if (std::find(shown.begin(), shown.end(), a) != shown.end()) continue;
      // The hand-written run's step times when it ran (NCCL's steps are its own: not timed one by one).
      const Method hand = a == Algorithm::Ring ? Method::Ring : Method::Tree;
      const AllReduceResult* timed = nullptr;
      for (const AllReduceResult& r : results)
        if (r.method == hand && r.ran) timed = &r;
      const int gpus = timed ? timed->gpus : p.gpus;
      if (gpus < 1) continue;  // a cuda run that ran nothing
      shown.push_back(a);
      print_steps(a, gpus, p.lengths.front(), timed ? timed->step_ms : std::vector<double>{}, sim, p.link);
    }
  }
  return code;
}

}  // namespace ws::cli
