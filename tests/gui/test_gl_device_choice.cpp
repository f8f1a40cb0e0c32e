// Where the headless picture draws after a GPU faulted (issue 24): never on a GPU with a fault mark while
// anything else can draw, and the status bar says why.
#include <gtest/gtest.h>

#include "gl_device_choice.hpp"

namespace {

using ws::gui::EglDeviceFacts;
using ws::gui::GlDeviceChoice;

EglDeviceFacts nvidia(int index, const std::string& uuid) { return {index, true, false, {uuid, "", ""}}; }
EglDeviceFacts mesa_software(int index) { return {index, false, true, {}}; }
ws::GpuFaultMark mark(const std::string& uuid) {
  return {{uuid, "0000:19:00.0", "NVIDIA H100 80GB HBM3"}, 1000, "an illegal memory access was encountered"};
}

}  // namespace

TEST(GlDeviceChoice, WithoutMarksTheFirstNvidiaGpuDrawsAndNothingIsSaid) {
  const auto c = ws::gui::choose_gl_device({nvidia(0, "GPU-a"), nvidia(1, "GPU-b"), mesa_software(2)}, {}, true, 2000);
  EXPECT_EQ(c.device, 0);
  EXPECT_EQ(c.notice, "");
}

TEST(GlDeviceChoice, WithoutNvidiaDevicesThePlatformOrderStays) {
  // CI and laptops without NVIDIA: Mesa's surfaceless platform as before, even with marks of another machine's GPU.
  EXPECT_EQ(ws::gui::choose_gl_device({mesa_software(0)}, {mark("GPU-a")}, true, 2000).device,
            GlDeviceChoice::kPlatformOrder);
  EXPECT_EQ(ws::gui::choose_gl_device({}, {}, false, 2000).device, GlDeviceChoice::kPlatformOrder);
}

TEST(GlDeviceChoice, AFaultedGpuIsPassedOverForAnotherGpu) {
  const auto c = ws::gui::choose_gl_device({nvidia(0, "GPU-a"), nvidia(1, "GPU-b")}, {mark("GPU-a")}, false, 2000);
  EXPECT_EQ(c.device, 1);
  EXPECT_EQ(c.notice, "");  // still an NVIDIA GPU: nothing the user must know
}

TEST(GlDeviceChoice, OneFaultedGpuLeavesTheDrawingToMesaAndSaysWhy) {
  const auto soft = ws::gui::choose_gl_device({nvidia(0, "GPU-a"), mesa_software(1)}, {mark("GPU-a")}, true, 1180);
  EXPECT_EQ(soft.device, 1);
  EXPECT_EQ(soft.notice.rfind("Drawing on the CPU (Mesa): a CUDA kernel faulted on the NVIDIA H100 80GB HBM3 3 min ago "
                              "(an illegal memory access was encountered)",
                              0),
            0u)
      << soft.notice;
  EXPECT_NE(soft.notice.find("WARPSCOPE_IGNORE_GPU_FAULTS=1"), std::string::npos);
  EXPECT_EQ(soft.notice.find('\n'), std::string::npos);
  // Mesa without its software device listed: its surfaceless platform.
  const auto surfaceless = ws::gui::choose_gl_device({nvidia(0, "GPU-a")}, {mark("GPU-a")}, true, 1010);
  EXPECT_EQ(surfaceless.device, GlDeviceChoice::kSurfaceless);
  EXPECT_NE(surfaceless.notice.find("10 s ago"), std::string::npos);
}

TEST(GlDeviceChoice, NothingElseToDrawOnKeepsTheGpuAndSaysWhatToInstall) {
  const auto c = ws::gui::choose_gl_device({nvidia(0, "GPU-a")}, {mark("GPU-a")}, false, 2000);
  EXPECT_EQ(c.device, 0);
  EXPECT_NE(c.notice.find("The picture may be reset"), std::string::npos);
  EXPECT_NE(c.notice.find("libegl-mesa0"), std::string::npos);
}

TEST(GlDeviceChoice, AnNvidiaDeviceThatCannotBeToldApartCountsAsFaultedWhileAMarkExists) {
  const EglDeviceFacts unknown{0, true, false, {}};
  EXPECT_TRUE(ws::gui::faulted_device(unknown, {mark("GPU-z")}));
  EXPECT_FALSE(ws::gui::faulted_device(unknown, {}));
  EXPECT_FALSE(ws::gui::faulted_device(mesa_software(1), {mark("GPU-z")}));  // Mesa never faults with CUDA
  // Identified by the DRM device's bus id alone.
  const EglDeviceFacts by_bus{0, true, false, {"", "0000:19:00.0", ""}};
  EXPECT_TRUE(ws::gui::faulted_device(by_bus, {mark("GPU-other-uuid")}));
  EXPECT_EQ(ws::gui::choose_gl_device({by_bus, mesa_software(1)}, {mark("GPU-x")}, true, 2000).device, 1);
}
