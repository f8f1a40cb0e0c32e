// The marks the CUDA backend leaves when a GPU faulted, which the GUI reads before it makes its GL context
// (issue 24, docs/device/gl-after-fault.md).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "gpu_fault_marks.hpp"

namespace {

/// A fresh marks directory for one test, named by WARPSCOPE_GPU_FAULT_MARKS while the test runs.
class MarksDir {
 public:
  MarksDir() {
    char tmpl[] = "/tmp/ws-fault-marks-XXXXXX";
    path_ = ::mkdtemp(tmpl);
    ::setenv("WARPSCOPE_GPU_FAULT_MARKS", path_.c_str(), 1);
    ::unsetenv("WARPSCOPE_IGNORE_GPU_FAULTS");
  }
  ~MarksDir() {
    ::unsetenv("WARPSCOPE_GPU_FAULT_MARKS");
    std::system(("rm -rf '" + path_ + "'").c_str());
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

ws::GpuIdentity h100() { return {"GPU-8a1b2c3d-0000-1111-2222-333344445555", "00000000:19:00.0", "NVIDIA H100"}; }

}  // namespace

TEST(GpuFaultMarks, UuidBytesAreWrittenAsNvidiaSmiDoes) {
  const unsigned char bytes[16] = {0x8a, 0x1b, 0x2c, 0x3d, 0,    0,    0x11, 0x11,
                                   0x22, 0x22, 0x33, 0x33, 0x44, 0x44, 0x55, 0x55};
  EXPECT_EQ(ws::format_gpu_uuid(bytes), "GPU-8a1b2c3d-0000-1111-2222-333344445555");
}

TEST(GpuFaultMarks, PciBusIdsOfCudaSysfsAndNvidiaSmiCompareEqual) {
  EXPECT_EQ(ws::normalize_pci_bus_id("00000000:19:00.0"), "0:19:00.0");  // nvidia-smi
  EXPECT_EQ(ws::normalize_pci_bus_id("0000:19:00.0"), "0:19:00.0");      // cudaDeviceGetPCIBusId, sysfs
  EXPECT_EQ(ws::normalize_pci_bus_id("0001:1A:00.0"), "1:1a:00.0");
  EXPECT_EQ(ws::normalize_pci_bus_id(""), "");
  EXPECT_TRUE(ws::same_gpu({"", "0000:19:00.0", ""}, {"", "00000000:19:00.0", ""}));
  EXPECT_FALSE(ws::same_gpu({"", "0000:19:00.0", ""}, {"", "0000:1a:00.0", ""}));
  EXPECT_FALSE(ws::same_gpu({}, {}));  // nothing known names no GPU
  // A UUID on both sides decides, whatever the bus ids say.
  EXPECT_TRUE(ws::same_gpu({"GPU-AB", "0:1:0.0", ""}, {"gpu-ab", "0:2:0.0", ""}));
  EXPECT_FALSE(ws::same_gpu({"GPU-ab", "0:1:0.0", ""}, {"GPU-cd", "0:1:0.0", ""}));
}

TEST(GpuFaultMarks, AMarkIsFoundByUuidOrBusIdAndOtherGpusAreNot) {
  MarksDir dir;
  EXPECT_TRUE(ws::gpu_fault_marks().empty());
  ASSERT_EQ(ws::mark_gpu_faulted(h100(), "an illegal memory access was encountered"), "");
  const auto marks = ws::gpu_fault_marks();
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(marks[0].why, "an illegal memory access was encountered");
  EXPECT_EQ(marks[0].gpu.name, "NVIDIA H100");
  EXPECT_GT(marks[0].unix_time, 1700000000);
  EXPECT_NE(ws::find_fault_mark(marks, {"GPU-8A1B2C3D-0000-1111-2222-333344445555", "", ""}), nullptr);
  EXPECT_NE(ws::find_fault_mark(marks, {"", "0000:19:00.0", ""}), nullptr);  // EGL gave only the DRM device's bus
  EXPECT_EQ(ws::find_fault_mark(marks, {"GPU-00000000-0000-0000-0000-000000000000", "", ""}), nullptr);
  EXPECT_EQ(ws::find_fault_mark(marks, {"", "0000:1a:00.0", ""}), nullptr);
  // A second fault of the same GPU replaces its mark: still one.
  ASSERT_EQ(ws::mark_gpu_faulted(h100(), "unspecified launch failure"), "");
  ASSERT_EQ(ws::gpu_fault_marks().size(), 1u);
  EXPECT_EQ(ws::gpu_fault_marks()[0].why, "unspecified launch failure");
}

TEST(GpuFaultMarks, MarksOfAnEarlierBootAndForeignFilesAreIgnored) {
  MarksDir dir;
  std::ofstream(dir.path() + "/GPU-old.json")
      << R"({"format":"warpscope-gpu-fault","boot_id":"not-this-boot","time":1,"uuid":"GPU-old","why":"x"})";
  std::ofstream(dir.path() + "/garbage.json") << "{not json";
  std::ofstream(dir.path() + "/other.json") << R"({"format":"something else","uuid":"GPU-x"})";
  std::ofstream(dir.path() + "/empty.json") << R"({"format":"warpscope-gpu-fault"})";
  EXPECT_TRUE(ws::gpu_fault_marks().empty());
}

TEST(GpuFaultMarks, IgnoringMarksAfterAGpuResetHidesThem) {
  MarksDir dir;
  ASSERT_EQ(ws::mark_gpu_faulted(h100(), "trap"), "");
  ::setenv("WARPSCOPE_IGNORE_GPU_FAULTS", "1", 1);
  EXPECT_TRUE(ws::gpu_fault_marks().empty());
  ::setenv("WARPSCOPE_IGNORE_GPU_FAULTS", "0", 1);
  EXPECT_EQ(ws::gpu_fault_marks().size(), 1u);
  ::unsetenv("WARPSCOPE_IGNORE_GPU_FAULTS");
}

TEST(GpuFaultMarks, AGpuWithoutIdentityOrAMissingDirectoryIsRefusedInOneLine) {
  MarksDir dir;
  const std::string none = ws::mark_gpu_faulted({}, "x");
  EXPECT_NE(none.find("neither UUID nor PCI bus id"), std::string::npos);
  ::setenv("WARPSCOPE_GPU_FAULT_MARKS", (dir.path() + "/missing/deeper").c_str(), 1);
  const std::string missing = ws::mark_gpu_faulted(h100(), "x");
  EXPECT_EQ(missing.rfind("no GPU fault mark: ", 0), 0u) << missing;
  EXPECT_EQ(missing.find('\n'), std::string::npos);
}
