#pragma once
// A dump written straight into a file on the host, through ARM semihosting (QEMU -semihosting, or
// a debugger: OpenOCD `arm semihosting enable`). docs/capture.md shows it in use.
//
//   pmu::dump::SemihostingFileSink file;
//   if (file.open("profile.pmud")) {                    // false: no file (nothing serves it)
//     pmu::dump::Writer w{file.sink()};  ...  w.finish(); // finish() closes the file
//   }
// The path is the host's, relative to the emulator's or debugger's working directory.
#include <cstddef>
#include <cstdint>

#include "hal/core/bus/semihosting.hpp"
#include "profiler/dump/sink.hpp"

namespace pmu::dump {

class SemihostingFileSink {
 public:
  // Creates (or truncates) the file. False when semihosting refused it or this is not ARM.
  bool open(const char* path) {
    if (!semihosting::kAvailable) return false;
    std::size_t n = 0;
    while (path[n] != '\0') ++n;
    const std::uint32_t block[3] = {static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(path)),
                                    semihosting::kModeWriteBinary, static_cast<std::uint32_t>(n)};
    handle_ = semihosting::call(semihosting::kSysOpen, block);
    return handle_ != kNone;
  }
  bool is_open() const { return handle_ != kNone; }
  // The writer's sink; a write to a file that is not open fails (the writer then stops).
  Sink sink() { return Sink{&SemihostingFileSink::put, this, &SemihostingFileSink::close}; }

 private:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  static bool put(void* ctx, const std::uint8_t* data, std::size_t size) {
    auto* self = static_cast<SemihostingFileSink*>(ctx);
    if (self->handle_ == kNone) return false;
    const std::uint32_t block[3] = {self->handle_, static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(data)),
                                    static_cast<std::uint32_t>(size)};
    return semihosting::call(semihosting::kSysWrite, block) == 0;  // 0 bytes left unwritten
  }
  static void close(void* ctx) {
    auto* self = static_cast<SemihostingFileSink*>(ctx);
    if (self->handle_ == kNone) return;
    const std::uint32_t block[1] = {self->handle_};
    (void)semihosting::call(semihosting::kSysClose, block);
    self->handle_ = kNone;
  }
  std::uint32_t handle_ = kNone;
};

}  // namespace pmu::dump
