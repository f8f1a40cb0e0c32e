#include <cstdio>

#include "backend_factory.hpp"
#include "commands.hpp"
#include "report.hpp"
#include "request.hpp"
#include "table.hpp"

namespace ws::cli {

int cmd_device(bool json, bool csv) {
  std::string err;
  auto backend = open_cuda_backend(err);
  if (!backend) {
    if (json || csv) {
      DeviceInfo none;
      none.error = err;
      if (json)
        std::printf("%s\n", with_format(device_to_json(none), "device").dump(2).c_str());
      else
        std::fputs(csv_table({device_to_json(none)}).c_str(), stdout);
    }
    std::fprintf(stderr, "warpscope-cli: %s\n", no_device_hint(err, true).c_str());
    return kNoDevice;
  }
  const DeviceInfo& d = backend->device();
  if (json) {
    std::printf("%s\n", with_format(device_to_json(d), "device").dump(2).c_str());
    return kOk;
  }
  if (csv) {
    std::fputs(csv_table({device_to_json(d)}).c_str(), stdout);
    return kOk;
  }
  std::printf("device            %s (compute capability %d.%d)\n", d.name.c_str(), d.cc_major, d.cc_minor);
  std::printf("SMs               %d (%d threads each), peak clock %.0f MHz\n", d.sm_count, d.max_threads_per_sm,
              d.sm_clock_mhz);
  std::printf("memory            %.1f GiB, %.0f MHz, %d-bit bus\n", d.memory_gib, d.mem_clock_mhz, d.bus_width_bits);
  std::printf("theoretical       %.0f GB/s (2 x clock x bus width / 8)\n", d.theoretical_gbps);
  std::printf("device copy       %.0f GB/s measured (bytes read + written)\n", d.copy_gbps);
  std::printf("driver / runtime  %s / %s\n", d.driver.c_str(), d.runtime.c_str());
  return kOk;
}

}  // namespace ws::cli
