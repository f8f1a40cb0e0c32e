// The all-reduce sim (app/core/collective/allreduce_sim.hpp, link_model.hpp): the alpha-beta times step by
// step, NCCL's and the scalar methods' models, the check against the host reference, refusals.
#include <gtest/gtest.h>

#include <cmath>

#include "collective/allreduce_sim.hpp"

using namespace ws::collective;

namespace {

AllReduceRequest request(Method m, int gpus, std::int64_t length) {
  AllReduceRequest r;
  r.method = m;
  r.gpus = gpus;
  r.length = length;
  return r;
}

constexpr Method kAll[] = {Method::HostAdd, Method::PeerToGpu0, Method::Ring,
                           Method::Tree,    Method::NcclRing,   Method::NcclTree};

}  // namespace

TEST(CollectiveSim, EveryMethodIsCorrectOnAwkwardLengthsAndEveryGpuCount) {
  for (Method m : kAll)
    for (int n = 1; n <= kMaxGpus; ++n)
      for (std::int64_t length : {1, 7, 1000, 4099}) {
        const AllReduceResult r = simulate_allreduce(request(m, n, length), nvlink4_model());
        ASSERT_TRUE(r.ran) << r.error;
        EXPECT_TRUE(r.simulated);
        EXPECT_TRUE(r.correct) << to_string(m) << " n=" << n << " length " << length << ": " << r.detail;
        EXPECT_EQ(r.link, "NVLink 4 x18");
      }
}

TEST(CollectiveSim, RingStepsFollowChunkOverBetaPlusTheAddOnceBeyondAlpha) {
  const LinkModel link = nvlink4_model();
  const std::int64_t length = std::int64_t(1) << 26;  // 256 MiB per GPU
  const AllReduceResult r = simulate_allreduce(request(Method::Ring, 4, length), link);
  ASSERT_EQ(r.step_ms.size(), 6u);
  const double chunk = double(length / 4) * 4.0;
  // 64 MiB chunks: the transfer outlasts the step's fixed cost (44 us), which overlaps it.
  EXPECT_DOUBLE_EQ(step_alpha_ms(link, 4, 4), 0.044);
  const double rs = chunk / (link.peer_gbs * 1e6) + 3 * chunk / (link.hbm_gbs * 1e6);
  const double ag = chunk / (link.peer_gbs * 1e6);
  ASSERT_GT(ag, 0.044);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(r.step_ms[k], rs, 1e-12) << k;
  for (int k = 3; k < 6; ++k) EXPECT_NEAR(r.step_ms[k], ag, 1e-12) << k;
  EXPECT_NEAR(r.median_ms, 3 * rs + 3 * ag, 1e-9);
  EXPECT_NEAR(r.algbw_gbs, algorithm_bandwidth_gbs(length * 4, r.median_ms), 1e-9);
  EXPECT_NEAR(r.busbw_gbs, r.algbw_gbs * 1.5, 1e-9);
  // Large messages: the ring's bus bandwidth approaches the peer copy's, less the adds' share.
  EXPECT_GT(r.busbw_gbs, 0.8 * link.peer_gbs);
  EXPECT_LT(r.busbw_gbs, link.peer_gbs);
}

TEST(CollectiveSim, NcclOnTwoGpusReproducesTheIssuesMeasurement) {
  // issue 30: ncclAllReduce of 64 Mi floats on 2 x H200, 0.89 ms, algbw 300 GB/s (Ring), 309 (Tree).
  const AllReduceResult ring = simulate_allreduce(request(Method::NcclRing, 2, 1 << 26), nvlink4_model());
  const AllReduceResult tree = simulate_allreduce(request(Method::NcclTree, 2, 1 << 26), nvlink4_model());
  EXPECT_NEAR(ring.median_ms, 0.89, 0.02);
  EXPECT_NEAR(ring.algbw_gbs, 300, 5);
  EXPECT_NEAR(tree.algbw_gbs, 309, 5);
  EXPECT_DOUBLE_EQ(ring.algbw_gbs, ring.busbw_gbs);  // 2(n-1)/n = 1
  EXPECT_TRUE(ring.step_ms.empty());
}

TEST(CollectiveSim, TreeWinsSmallMessagesAndRingLargeOnFourGpus) {
  const LinkModel link = nvlink4_model();
  EXPECT_LT(model_ms(Method::Tree, 4, 1024, link), model_ms(Method::Ring, 4, 1024, link));
  EXPECT_LT(model_ms(Method::Ring, 4, 1 << 26, link), model_ms(Method::Tree, 4, 1 << 26, link));
  // Small messages are all alpha: 6 ring steps of 4 GPUs and 4 moves, 4 tree steps of 4 GPUs and 2, 1, 1, 2 moves.
  EXPECT_NEAR(model_ms(Method::Ring, 4, 1024, link), 6 * 0.044, 1e-12);
  EXPECT_NEAR(model_ms(Method::Tree, 4, 1024, link), 2 * 0.032 + 2 * 0.026, 1e-12);
  // Two GPUs: the same two steps, the ring's carry half the bytes but two moves each: the tree leads until
  // its whole-vector transfer outlasts the ring's alpha.
  EXPECT_LT(model_ms(Method::Tree, 2, 1024, link), model_ms(Method::Ring, 2, 1024, link));
  EXPECT_LT(model_ms(Method::Ring, 2, 1 << 26, link), model_ms(Method::Tree, 2, 1 << 26, link));
}

TEST(CollectiveSim, PcieIsSlowerThanNvlink) {
  for (Method m : {Method::Ring, Method::Tree, Method::NcclRing, Method::NcclTree})
    EXPECT_GT(model_ms(m, 4, 1 << 24, pcie5_model()), model_ms(m, 4, 1 << 24, nvlink4_model())) << to_string(m);
  LinkModel l;
  EXPECT_TRUE(link_model_by_name("pcie5", l));
  EXPECT_EQ(l.name, "PCIe 5 x16");
  EXPECT_FALSE(link_model_by_name("infiniband", l));
}

TEST(CollectiveSim, ScalarMethodsAreLocalReductionsPlusLatency) {
  const LinkModel link = nvlink4_model();
  const std::int64_t length = 1 << 26;
  const double local = double(length) * 4 / (link.hbm_gbs * 1e6);
  EXPECT_NEAR(model_ms(Method::HostAdd, 4, length, link), local + (link.step_alpha_us + link.host_sync_us) / 1e3,
              1e-12);
  EXPECT_NEAR(model_ms(Method::PeerToGpu0, 4, length, link), local + 2 * link.step_alpha_us / 1e3, 1e-12);
  const AllReduceResult r = simulate_allreduce(request(Method::HostAdd, 4, length), link);
  EXPECT_TRUE(r.step_ms.empty());
  EXPECT_TRUE(r.correct) << r.detail;
}

TEST(CollectiveSim, OneGpuMovesNothing) {
  const AllReduceResult r = simulate_allreduce(request(Method::Ring, 1, 1000), nvlink4_model());
  EXPECT_TRUE(r.ran);
  EXPECT_TRUE(r.step_ms.empty());
  EXPECT_EQ(r.median_ms, 0);
  EXPECT_EQ(r.busbw_gbs, 0);
  EXPECT_EQ(r.peer_gbs, 0);
}

TEST(CollectiveSim, LargeVectorsCheckAPrefix) {
  EXPECT_EQ(sim_checked_elements(10), 10);
  EXPECT_EQ(sim_checked_elements(std::int64_t(1) << 28), kSimCheckElements);
  const AllReduceResult r = simulate_allreduce(request(Method::Ring, 8, std::int64_t(1) << 28), nvlink4_model());
  EXPECT_TRUE(r.correct) << r.detail;
  EXPECT_EQ(r.step_ms.size(), 14u);
}

TEST(CollectiveSim, BadRequestsComeBackWithOneLineAndRanFalse) {
  for (const AllReduceRequest& q :
       {request(Method::Ring, 0, 10), request(Method::Ring, 9, 10), request(Method::Tree, 2, 0)}) {
    const AllReduceResult r = simulate_allreduce(q, nvlink4_model());
    EXPECT_FALSE(r.ran);
    EXPECT_FALSE(r.correct);
    EXPECT_FALSE(r.error.empty());
    EXPECT_EQ(r.error.find('\n'), std::string::npos);
  }
  EXPECT_THROW(schedule_algorithm(Method::HostAdd), std::invalid_argument);
}
