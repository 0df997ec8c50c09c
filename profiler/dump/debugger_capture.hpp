#pragma once
// A dump kept in target memory for a debugger to copy out (GDB `dump binary memory`, OpenOCD
// `dump_image`; docs/capture.md has the commands). The symbols are fixed so the commands are too:
//   pmukit_dump_buffer    the bytes (pmukit_dump_capacity of them)
//   pmukit_dump_size      how many are valid: 0 until a dump is complete
//   pmukit_dump_ready()   called once it is complete: the place for a breakpoint
// One file of the firmware defines them: PMUKIT_DEFINE_DEBUGGER_CAPTURE(bytes). Then
//   pmu::dump::DebuggerCaptureSink cap;   pmu::dump::Writer w{cap.sink()};  ...  w.finish();
// A dump larger than the buffer fails (the writer stops, pmukit_dump_size stays 0).
#include "hal/core/bus/barrier.hpp"
#include <cstddef>
#include <cstdint>

#include "profiler/dump/sink.hpp"

extern "C" {
extern std::uint8_t pmukit_dump_buffer[];
extern const std::uint32_t pmukit_dump_capacity;
extern volatile std::uint32_t pmukit_dump_size;
void pmukit_dump_ready(void);
}

#define PMUKIT_DEFINE_DEBUGGER_CAPTURE(bytes)                                          \
  extern "C" {                                                                         \
  std::uint8_t pmukit_dump_buffer[bytes];                                              \
  const std::uint32_t pmukit_dump_capacity = (bytes);                                  \
  volatile std::uint32_t pmukit_dump_size = 0;                                         \
  [[gnu::noinline, gnu::used]] void pmukit_dump_ready(void) {                          \
    pmu::compiler_barrier(); /* a call that stays a call */ \
  }                                                                                    \
  }

namespace pmu::dump {

class DebuggerCaptureSink {
 public:
  Sink sink() {
    pmukit_dump_size = 0;
    buffer_ = BufferSink{pmukit_dump_buffer, pmukit_dump_capacity};
    failed_ = false;
    return Sink{&DebuggerCaptureSink::put, this, &DebuggerCaptureSink::close};
  }

 private:
  static bool put(void* ctx, const std::uint8_t* data, std::size_t size) {
    auto* self = static_cast<DebuggerCaptureSink*>(ctx);
    if (!self->buffer_.sink().write(&self->buffer_, data, size)) self->failed_ = true;
    return !self->failed_;
  }
  static void close(void* ctx) {
    auto* self = static_cast<DebuggerCaptureSink*>(ctx);
    if (self->failed_) return;
    pmukit_dump_size = static_cast<std::uint32_t>(self->buffer_.size);
    pmukit_dump_ready();
  }
  BufferSink buffer_{nullptr, 0};
  bool failed_ = false;
};

}  // namespace pmu::dump
