// Which GPUs of this machine had a CUDA kernel fault since the machine booted (issue 24). After such a
// fault NVIDIA's driver (580.159.04) resets any OpenGL context that lives through CUDA work on that GPU,
// until the GPU is reset (docs/device/gl-after-fault.md). The CUDA backend marks a GPU when one of its
// runs loses the context; the GUI reads the marks before it makes its context and draws elsewhere (another
// GPU, Mesa's software renderer). The marks are files, one per GPU, in a directory of this user; a mark of
// an earlier boot is ignored.
#pragma once
#include <string>
#include <vector>

namespace ws {

/// A GPU as the CUDA driver and EGL both name it. Either field may be "" (unknown).
struct GpuIdentity {
  std::string uuid;        ///< "GPU-1a2b3c4d-...", nvidia-smi's form (16 bytes as 8-4-4-4-12 lower-case hex)
  std::string pci_bus_id;  ///< "0000:19:00.0" (domain:bus:device.function, lower-case hex)
  std::string name;        ///< "NVIDIA H100 80GB HBM3", for messages only
};

/// One GPU's mark: when its last fault was and what CUDA said.
struct GpuFaultMark {
  GpuIdentity gpu;
  long long unix_time = 0;  ///< seconds since the epoch
  std::string why;          ///< CUDA's error string, e.g. "an illegal memory access was encountered"
};

/// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" of 16 UUID bytes (cudaDeviceProp::uuid, EGL_DEVICE_UUID_EXT).
std::string format_gpu_uuid(const unsigned char bytes[16]);

/// A PCI bus id in one form for comparisons: lower case, the domain without leading zeros ("0:19:00.0"
/// for "00000000:19:00.0" and "0000:19:00.0"). "" stays "".
std::string normalize_pci_bus_id(const std::string& id);

/// Whether two identities name the same GPU: equal UUIDs, or (a UUID unknown) equal PCI bus ids.
bool same_gpu(const GpuIdentity& a, const GpuIdentity& b);

/// The directory of the marks: $WARPSCOPE_GPU_FAULT_MARKS (tests), else $XDG_RUNTIME_DIR/warpscope/gpu-faults,
/// else /tmp/warpscope-UID/gpu-faults.
std::string gpu_fault_marks_dir();

/// The marks directory's modification time in ns (-1 when it does not exist): a new or replaced mark changes
/// it, so a caller polling every frame reads the marks again only when this changes (one stat a call).
long long gpu_fault_marks_stamp();

/// Records that `gpu` faulted now (one file per GPU, replaced atomically; the directory is made with mode
/// 0700 and must belong to this user). Returns "" or one line saying why no mark was written. A GPU with
/// neither UUID nor PCI bus id is not marked (returns a line).
std::string mark_gpu_faulted(const GpuIdentity& gpu, const std::string& why);

/// The marks of this boot (/proc/sys/kernel/random/boot_id), newest first. Unreadable or foreign files
/// and marks of earlier boots are skipped. Empty when WARPSCOPE_IGNORE_GPU_FAULTS is set to a non-empty value
/// other than "0" (after an administrator reset the GPU).
std::vector<GpuFaultMark> gpu_fault_marks();

/// The mark of `gpu` among `marks`, or nullptr.
const GpuFaultMark* find_fault_mark(const std::vector<GpuFaultMark>& marks, const GpuIdentity& gpu);

}  // namespace ws
