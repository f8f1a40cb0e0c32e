// Where the headless picture draws after a GPU faulted (issue 24): never on a GPU with a fault mark while
// anything else can draw, and the status bar says why.
#include <gtest/gtest.h>

#include "gl_device_choice.hpp"

namespace {

using ws::gui::EglDeviceFacts;
using ws::gui::GlDeviceChoice;

EglDeviceFacts nvidia(int index, const std::string& uuid, bool left = false) {
  return {index, true, false, {uuid, "", ""}, left};
}
EglDeviceFacts mesa_software(int index) { return {index, false, true, {}, false}; }
ws::GpuFaultMark mark(const std::string& uuid) {
  return {{uuid, "0000:19:00.0", "NVIDIA H100 80GB HBM3"}, 1000, "an illegal memory access was encountered"};
}

}  // namespace

TEST(GlDeviceChoice, WithoutMarksTheFirstNvidiaGpuDrawsAndNothingIsSaid) {
  const auto c = ws::gui::choose_gl_device({nvidia(0, "GPU-a"), nvidia(1, "GPU-b"), mesa_software(2)}, {}, 2000);
  EXPECT_EQ(c.device, 0);
  EXPECT_EQ(c.notice, "");
}

TEST(GlDeviceChoice, WithoutNvidiaDevicesThePlatformOrderStays) {
  // CI and laptops without NVIDIA: Mesa's surfaceless platform as before, even with marks of another machine's GPU.
  EXPECT_EQ(ws::gui::choose_gl_device({mesa_software(0)}, {mark("GPU-a")}, 2000).device,
            GlDeviceChoice::kPlatformOrder);
  EXPECT_EQ(ws::gui::choose_gl_device({}, {}, 2000).device, GlDeviceChoice::kPlatformOrder);
}

TEST(GlDeviceChoice, AFaultedGpuIsPassedOverForAnotherGpu) {
  const auto c = ws::gui::choose_gl_device({nvidia(0, "GPU-a"), nvidia(1, "GPU-b")}, {mark("GPU-a")}, 2000);
  EXPECT_EQ(c.device, 1);
  EXPECT_EQ(c.notice, "");  // still an NVIDIA GPU: nothing the user must know
}

TEST(GlDeviceChoice, OneFaultedGpuLeavesTheDrawingToMesaAndSaysWhy) {
  const auto soft = ws::gui::choose_gl_device({nvidia(0, "GPU-a"), mesa_software(1)}, {mark("GPU-a")}, 1180);
  EXPECT_EQ(soft.device, 1);
  EXPECT_EQ(soft.notice.rfind("Drawing on the CPU (Mesa): a CUDA kernel faulted on the NVIDIA H100 80GB HBM3 3 min ago "
                              "(an illegal memory access was encountered)",
                              0),
            0u)
      << soft.notice;
  EXPECT_NE(soft.notice.find("WARPSCOPE_IGNORE_GPU_FAULTS=1"), std::string::npos);
  EXPECT_EQ(soft.notice.find('\n'), std::string::npos);
}

TEST(GlDeviceChoice, MesasSurfacelessPlatformIsNeverTakenForMesa) {
  // NVIDIA's EGL answers EGL_MESA_platform_surfaceless too (seen on the H100: "EGL surfaceless (NVIDIA H100 ...)"),
  // so only Mesa's software device stands for Mesa: without it the faulted GPU stays, with a notice.
  const auto c = ws::gui::choose_gl_device({nvidia(0, "GPU-a")}, {mark("GPU-a")}, 1010);
  EXPECT_EQ(c.device, 0);
  EXPECT_NE(c.notice.find("10 s ago"), std::string::npos);
}

TEST(GlDeviceChoice, TheDeviceBeingLeftIsPassedOverWithoutAMarkAndNothingIsSaid) {
  // After a reset, or before a user's kernel runs: another GPU first, else Mesa; the caller says why.
  EXPECT_EQ(ws::gui::choose_gl_device({nvidia(0, "GPU-a", true), nvidia(1, "GPU-b")}, {}, 2000).device, 1);
  const auto soft = ws::gui::choose_gl_device({nvidia(0, "GPU-a", true), mesa_software(1)}, {}, 2000);
  EXPECT_EQ(soft.device, 1);
  EXPECT_EQ(soft.notice, "");
  // Nothing else: the same GPU again, saying the picture may be reset.
  const auto same = ws::gui::choose_gl_device({nvidia(0, "GPU-a", true)}, {}, 2000);
  EXPECT_EQ(same.device, 0);
  EXPECT_NE(same.notice.find("nothing but this NVIDIA GPU can draw it"), std::string::npos);
}

TEST(GlDeviceChoice, NothingElseToDrawOnKeepsTheGpuAndSaysWhatToInstall) {
  const auto c = ws::gui::choose_gl_device({nvidia(0, "GPU-a")}, {mark("GPU-a")}, 2000);
  EXPECT_EQ(c.device, 0);
  EXPECT_NE(c.notice.find("The picture may be reset"), std::string::npos);
  EXPECT_NE(c.notice.find("libegl-mesa0"), std::string::npos);
}

TEST(GlDeviceChoice, AnNvidiaDeviceThatCannotBeToldApartCountsAsFaultedWhileAMarkExists) {
  const EglDeviceFacts unknown{0, true, false, {}, false};
  EXPECT_TRUE(ws::gui::faulted_device(unknown, {mark("GPU-z")}));
  EXPECT_FALSE(ws::gui::faulted_device(unknown, {}));
  EXPECT_FALSE(ws::gui::faulted_device(mesa_software(1), {mark("GPU-z")}));  // Mesa never faults with CUDA
  // Identified by the DRM device's bus id alone.
  const EglDeviceFacts by_bus{0, true, false, {"", "0000:19:00.0", ""}, false};
  EXPECT_TRUE(ws::gui::faulted_device(by_bus, {mark("GPU-other-uuid")}));
  EXPECT_EQ(ws::gui::choose_gl_device({by_bus, mesa_software(1)}, {mark("GPU-x")}, 2000).device, 1);
}
