// The all-reduce JSON (app/core/collective/allreduce_json.hpp): results written and read back unchanged,
// and bad files refused with one line naming what is wrong.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <string>

#include "collective/allreduce_json.hpp"
#include "collective/allreduce_sim.hpp"
#include "collective/schedule.hpp"

using namespace ws::collective;
using nlohmann::json;

namespace {

AllReduceResult sample(Method m, int gpus) {
  AllReduceRequest q;
  q.method = m;
  q.gpus = gpus;
  q.length = 4099;
  return simulate_allreduce(q, nvlink4_model());
}

std::string refusal(const json& file) {
  try {
    allreduce_results_from_json(file);
  } catch (const std::exception& e) { return e.what(); }
  return "";
}

json one_result_file(const std::function<void(json&)>& edit) {
  json f = allreduce_results_to_json({sample(Method::Ring, 4)});
  edit(f["results"][0]);
  return f;
}

}  // namespace

TEST(CollectiveJson, ResultsRoundTrip) {
  std::vector<AllReduceResult> in;
  for (Method m : {Method::HostAdd, Method::PeerToGpu0, Method::Ring, Method::Tree, Method::NcclRing, Method::NcclTree})
    for (int n : {1, 2, 4, 8}) in.push_back(sample(m, n));
  AllReduceResult gpu = sample(Method::Ring, 2);  // as a GPU run would fill it
  gpu.simulated = false;
  gpu.device_names = {"NVIDIA H200", "NVIDIA H200"};
  in.push_back(gpu);
  AllReduceResult refused;  // a run that could not happen
  refused.gpus = 0;
  refused.length = 10;
  refused.error = "this build has no CUDA backend";
  in.push_back(refused);
  const json j = allreduce_results_to_json(in);
  EXPECT_EQ(j["format"], "warpscope-allreduce");
  EXPECT_EQ(j["version"], 1);
  const std::vector<AllReduceResult> out = allreduce_results_from_json(json::parse(j.dump()));
  ASSERT_EQ(out.size(), in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(out[i].method, in[i].method) << i;
    EXPECT_EQ(out[i].gpus, in[i].gpus) << i;
    EXPECT_EQ(out[i].length, in[i].length) << i;
    EXPECT_EQ(out[i].ran, in[i].ran) << i;
    EXPECT_EQ(out[i].simulated, in[i].simulated) << i;
    EXPECT_EQ(out[i].correct, in[i].correct) << i;
    EXPECT_EQ(out[i].error, in[i].error) << i;
    EXPECT_EQ(out[i].median_ms, in[i].median_ms) << i;
    EXPECT_EQ(out[i].step_ms, in[i].step_ms) << i;
    EXPECT_EQ(out[i].algbw_gbs, in[i].algbw_gbs) << i;
    EXPECT_EQ(out[i].busbw_gbs, in[i].busbw_gbs) << i;
    EXPECT_EQ(out[i].peer_gbs, in[i].peer_gbs) << i;
    EXPECT_EQ(out[i].link_gbs, in[i].link_gbs) << i;
    EXPECT_EQ(out[i].link, in[i].link) << i;
    EXPECT_EQ(out[i].device_names, in[i].device_names) << i;
  }
}

TEST(CollectiveJson, BadFilesAreRefusedWithOneLine) {
  const std::vector<std::pair<json, std::string>> cases = {
      {json::array(), "not a warpscope all-reduce file"},
      {json{{"format", "warpscope-report"}, {"version", 1}, {"results", json::array()}}, "not a warpscope all-reduce"},
      {json{{"format", "warpscope-allreduce"}, {"results", json::array()}}, "missing field 'version'"},
      {json{{"format", "warpscope-allreduce"}, {"version", 2}, {"results", json::array()}}, "newer than this build"},
      {json{{"format", "warpscope-allreduce"}, {"version", 1.5}, {"results", json::array()}}, "positive integer"},
      {json{{"format", "warpscope-allreduce"}, {"version", 1}}, "'results' must be an array"},
      {one_result_file([](json& r) { r["method"] = "butterfly"; }), "result 0: unknown method 'butterfly'"},
      {one_result_file([](json& r) { r.erase("median_ms"); }), "missing field 'median_ms'"},
      {one_result_file([](json& r) { r["gpus"] = 9; }), "gpus"},
      {one_result_file([](json& r) { r["gpus"] = 0; }), "gpus"},
      {one_result_file([](json& r) { r["length"] = 0; }), "length"},
      {one_result_file([](json& r) { r["bytes"] = 12; }), "length * 4"},
      {one_result_file([](json& r) { r["median_ms"] = -1; }), "median_ms"},
      {one_result_file([](json& r) { r["busbw_gbs"] = "fast"; }), "busbw_gbs"},
      {one_result_file([](json& r) { r["step_ms"].push_back(0.1); }), "has 6 steps"},
      {one_result_file([](json& r) { r["step_ms"][2] = -0.5; }), "step_ms[2]"},
      {one_result_file([](json& r) { r["ran"] = "yes"; }), "ran"},
      {one_result_file([](json& r) { r["device_names"] = json::array({1}); }), "device_names[0]"},
  };
  for (const auto& [file, needle] : cases) {
    const std::string why = refusal(file);
    EXPECT_NE(why.find(needle), std::string::npos) << file.dump() << "\n-> " << why;
    EXPECT_EQ(why.find('\n'), std::string::npos) << why;
  }
  // A scalar method has no step times.
  json f = allreduce_results_to_json({sample(Method::HostAdd, 2)});
  f["results"][0]["step_ms"] = json::array({0.1});
  EXPECT_NE(refusal(f).find("only a run of ring or tree"), std::string::npos) << refusal(f);
}

TEST(CollectiveJson, FilesAreReadWithinBoundsAndErrorsNameTheFile) {
  const std::string dir = ::testing::TempDir();
  std::vector<AllReduceResult> out;
  const std::string good = dir + "allreduce_good.json";
  std::ofstream(good) << allreduce_results_to_json({sample(Method::Tree, 4), sample(Method::Ring, 2)}).dump(2);
  EXPECT_EQ(read_allreduce_file(good, out), "");
  EXPECT_EQ(out.size(), 2u);
  const std::string broken = dir + "allreduce_broken.json";
  std::ofstream(broken) << "{\"format\": \"warpscope-allreduce\", ";
  const std::string why = read_allreduce_file(broken, out);
  EXPECT_NE(why.find("allreduce_broken.json"), std::string::npos) << why;
  EXPECT_NE(why.find("not valid JSON"), std::string::npos) << why;
  const std::string missing = read_allreduce_file(dir + "no_such_allreduce.json", out);
  EXPECT_NE(missing.find("no_such_allreduce.json"), std::string::npos) << missing;
  const std::string other = dir + "allreduce_other.json";
  std::ofstream(other) << "{\"format\": \"warpscope-report\", \"version\": 1}";
  EXPECT_NE(read_allreduce_file(other, out).find("allreduce_other.json': not a warpscope all-reduce file"),
            std::string::npos)
      << read_allreduce_file(other, out);
}

// The reports recorded on 2 and 4 H200s (scripts/device-multi.sh, docs/device/h200-allreduce.md) and bundled
// for students without GPUs: they read through the bounded reader, every run ran on real GPUs and was
// correct, the ring's and the tree's measured steps are the schedule's, and the hand-written ring reached
// the goal against NCCL's ring in the same run (busbw >= 0.9x).
TEST(CollectiveJson, TheBundledTwoAndFourGpuReportsAreMeasuredCorrectAndStepwise) {
  const std::string root = std::string(WS_TEST_DIR) + "/../assets/allreduce/";
  for (int gpus : {2, 4}) {
    std::vector<AllReduceResult> runs;
    const std::string file = root + "nvidia-h200x" + std::to_string(gpus) + ".json";
    ASSERT_EQ(read_allreduce_file(file, runs), "") << file;
    ASSERT_EQ(runs.size(), 6u) << file;  // host_add, peer_to_gpu0, ring, tree, nccl_ring, nccl_tree
    double ring = 0, nccl_ring = 0;
    for (const AllReduceResult& r : runs) {
      EXPECT_TRUE(r.ran && r.correct && !r.simulated) << file << ": " << to_string(r.method);
      EXPECT_EQ(r.gpus, gpus);
      EXPECT_EQ(r.length, std::int64_t(1) << 26);  // 256 MiB per GPU
      if (r.method == Method::Ring || r.method == Method::Tree) {
        const Schedule s = make_schedule(r.method == Method::Ring ? Algorithm::Ring : Algorithm::Tree, gpus);
        EXPECT_EQ(r.step_ms.size(), s.steps.size()) << to_string(r.method);
      }
      if (r.method == Method::Ring) ring = r.busbw_gbs;
      if (r.method == Method::NcclRing) nccl_ring = r.busbw_gbs;
    }
    ASSERT_GT(nccl_ring, 0);
    EXPECT_GE(ring / nccl_ring, 0.9) << gpus << " GPUs";
    std::vector<AllReduceResult> sweep;
    ASSERT_EQ(read_allreduce_file(root + "nvidia-h200x" + std::to_string(gpus) + "-sweep.json", sweep), "");
    EXPECT_EQ(sweep.size(), 19u * 6u) << "4 KiB to 1 GiB doubling, every method";
    for (const AllReduceResult& r : sweep) EXPECT_TRUE(r.ran && r.correct) << r.length << " " << to_string(r.method);
  }
}
