#include "collective/allreduce_json.hpp"

#include <exception>
#include <stdexcept>

#include "collective/schedule.hpp"
#include "json_read.hpp"
#include "limits.hpp"

namespace ws::collective {

namespace {

constexpr std::int64_t kMaxLength = std::int64_t(1) << 30;  // as kMaxN: 2^30 elements
constexpr double kMaxMs = 1e9;                              // about 11 days
constexpr double kMaxGbs = 1e6;                             // 1 PB/s: far above any link or memory
constexpr std::uintmax_t kMaxFileBytes = std::uintmax_t(64) << 20;

const nlohmann::json& field(const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) throw std::runtime_error(std::string("missing field '") + key + "'");
  return j.at(key);
}

std::string where(const char* key) { return std::string("field '") + key + "'"; }

}  // namespace

nlohmann::json allreduce_result_to_json(const AllReduceResult& r) {
  nlohmann::json j;
  j["method"] = to_string(r.method);
  j["gpus"] = r.gpus;
  j["length"] = r.length;
  j["bytes"] = r.length * 4;
  j["ran"] = r.ran;
  j["simulated"] = r.simulated;
  j["correct"] = r.correct;
  j["error"] = r.error;
  j["detail"] = r.detail;
  j["median_ms"] = r.median_ms;
  j["step_ms"] = r.step_ms;
  j["algbw_gbs"] = r.algbw_gbs;
  j["busbw_gbs"] = r.busbw_gbs;
  j["peer_gbs"] = r.peer_gbs;
  j["link_gbs"] = r.link_gbs;
  j["link"] = r.link;
  j["device_names"] = r.device_names;
  return j;
}

AllReduceResult allreduce_result_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::runtime_error("not an object");
  AllReduceResult r;
  const std::string method = json_string(field(j, "method"), where("method"));
  if (!parse_method(method, r.method))
    throw std::runtime_error("unknown method '" + method +
                             "' (host_add, peer_to_gpu0, ring, tree, nccl_ring or nccl_tree)");
  r.ran = json_bool(field(j, "ran"), where("ran"));
  r.gpus = int(json_int(field(j, "gpus"), r.ran ? 1 : 0, kMaxGpus, where("gpus")));
  r.length = json_int(field(j, "length"), 1, kMaxLength, where("length"));
  if (j.contains("bytes") && json_int(j["bytes"], 4, kMaxLength * 4, where("bytes")) != r.length * 4)
    throw std::runtime_error("field 'bytes' must be length * 4 = " + std::to_string(r.length * 4));
  r.simulated = json_bool(field(j, "simulated"), where("simulated"));
  r.correct = json_bool(field(j, "correct"), where("correct"));
  r.error = json_string(field(j, "error"), where("error"));
  r.detail = json_string(field(j, "detail"), where("detail"));
  r.median_ms = json_number(field(j, "median_ms"), 0, kMaxMs, where("median_ms"));
  const nlohmann::json& steps = field(j, "step_ms");
  if (!steps.is_array()) throw std::runtime_error("field 'step_ms' must be an array of times");
  for (std::size_t k = 0; k < steps.size() && k < 64; ++k)
    r.step_ms.push_back(json_number(steps[k], 0, kMaxMs, "step_ms[" + std::to_string(k) + "]"));
  const bool scheduled = r.ran && (r.method == Method::Ring || r.method == Method::Tree);
  const std::size_t expected =
      scheduled ? make_schedule(r.method == Method::Ring ? Algorithm::Ring : Algorithm::Tree, r.gpus).steps.size() : 0;
  if (steps.size() != expected)
    throw std::runtime_error("field 'step_ms' holds " + std::to_string(steps.size()) + " times; " +
                             (scheduled ? "the " + std::string(to_string(r.method)) + " on " + std::to_string(r.gpus) +
                                              " GPUs has " + std::to_string(expected) + " steps"
                                        : std::string("only a run of ring or tree has step times")));
  r.algbw_gbs = json_number(field(j, "algbw_gbs"), 0, kMaxGbs, where("algbw_gbs"));
  r.busbw_gbs = json_number(field(j, "busbw_gbs"), 0, kMaxGbs, where("busbw_gbs"));
  r.peer_gbs = json_number(field(j, "peer_gbs"), 0, kMaxGbs, where("peer_gbs"));
  r.link_gbs = json_number(field(j, "link_gbs"), 0, kMaxGbs, where("link_gbs"));
  r.link = json_string(field(j, "link"), where("link"));
  const nlohmann::json& names = field(j, "device_names");
  if (!names.is_array() || names.size() > std::size_t(kMaxGpus))
    throw std::runtime_error("field 'device_names' must be an array of at most " + std::to_string(kMaxGpus) + " names");
  for (std::size_t k = 0; k < names.size(); ++k)
    r.device_names.push_back(json_string(names[k], "device_names[" + std::to_string(k) + "]"));
  return r;
}

nlohmann::json allreduce_results_to_json(const std::vector<AllReduceResult>& results) {
  nlohmann::json j;
  j["format"] = kAllReduceFormat;
  j["version"] = kAllReduceVersion;
  j["results"] = nlohmann::json::array();
  for (const AllReduceResult& r : results) j["results"].push_back(allreduce_result_to_json(r));
  return j;
}

std::vector<AllReduceResult> allreduce_results_from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("format") || !j["format"].is_string() ||
      j["format"].get<std::string>() != kAllReduceFormat)
    throw std::runtime_error(std::string("not a warpscope all-reduce file (missing \"format\": \"") + kAllReduceFormat +
                             "\")");
  if (!j.contains("version")) throw std::runtime_error("all-reduce file: missing field 'version'");
  if (!j["version"].is_number_integer() || j["version"].get<std::int64_t>() < 1)
    throw std::runtime_error("all-reduce file: field 'version' must be a positive integer (got " + j["version"].dump() +
                             ")");
  if (j["version"].get<std::int64_t>() > kAllReduceVersion)
    throw std::runtime_error("all-reduce file version " + j["version"].dump() + " is newer than this build reads (" +
                             std::to_string(kAllReduceVersion) + "): update warpscope");
  if (!j.contains("results") || !j["results"].is_array())
    throw std::runtime_error("all-reduce file: 'results' must be an array");
  const nlohmann::json& a = j["results"];
  if (a.size() > kMaxAllReduceResults)
    throw std::runtime_error("all-reduce file: 'results' holds " + std::to_string(a.size()) + " entries, more than " +
                             std::to_string(kMaxAllReduceResults));
  std::vector<AllReduceResult> out;
  out.reserve(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    try {
      out.push_back(allreduce_result_from_json(a[i]));
    } catch (const std::exception& e) {
      throw std::runtime_error("all-reduce file: result " + std::to_string(i) + ": " + e.what());
    }
  }
  return out;
}

std::string read_allreduce_file(const std::string& path, std::vector<AllReduceResult>& out) {
  std::string text;
  if (std::string err = read_file_bounded(path, kMaxFileBytes, "all-reduce file", text); !err.empty()) return err;
  try {
    out = allreduce_results_from_json(parse_json_bounded(text, "all-reduce file '" + path + "'", JsonBounds{}));
  } catch (const std::exception& e) {
    const std::string what = e.what();
    return what.rfind("all-reduce file '", 0) == 0 ? what : "all-reduce file '" + path + "': " + what;
  }
  return "";
}

}  // namespace ws::collective
