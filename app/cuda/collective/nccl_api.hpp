// NCCL for the lesson "Reduction across GPUs" (issue 30): the library is opened at run time (dlopen of
// libnccl.so.2), so warpscope's programs start on machines without it and only the NCCL methods answer
// that it is missing; the build needs nccl.h alone (CMake defines WS_HAVE_NCCL when it finds it).
// Communicators are made once per (algorithm, GPU count) and kept for the process: NCCL reads NCCL_ALGO
// when a communicator is created, so each algorithm gets its own. NCCL_NVLS_ENABLE=0 is set before any
// communicator exists (NVLink multicast stays off on the machines this runs on).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

namespace ws::cuda::collective {

/// True when this build was compiled against nccl.h.
bool nccl_built();

/// "NCCL 2.28.9" (the loaded library's version), or "" with `error` set when it cannot be loaded.
std::string nccl_version(std::string& error);

/// The communicators of GPUs 0..gpus-1 (one per GPU, opaque ncclComm_t) for NCCL_ALGO = `algo` ("Ring",
/// "Tree"): made on the first call for that pair (setenv NCCL_NVLS_ENABLE=0 and NCCL_ALGO, then
/// ncclCommInitAll; NCCL_ALGO is restored afterwards), the same ones after. Returns nullptr with `error`
/// set (no NCCL in the build, library missing, init failed). Never throws.
const std::vector<void*>* nccl_communicators(const std::string& algo, int gpus, std::string& error);

/// Enqueues ncclAllReduce(buffers[g], buffers[g], count floats, sum) on streams[g] for every GPU, in
/// place, inside one ncclGroupStart/End. Returns "" or NCCL's error string.
std::string nccl_all_reduce_sum(const std::vector<void*>& comms, const std::vector<float*>& buffers, std::size_t count,
                                const std::vector<cudaStream_t>& streams);

}  // namespace ws::cuda::collective
