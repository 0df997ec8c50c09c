#pragma once
// Where dump bytes go: a function pointer and its context, so a firmware can send them to a
// semihosting file, a memory buffer, a UART text-frame encoder or anything else without a heap.
#include <cstddef>
#include <cstdint>

namespace pmu::dump {

struct Sink {
  // Takes `size` bytes; returns false if they could not be written (the writer then stops).
  bool (*write)(void* ctx, const std::uint8_t* data, std::size_t size);
  void* ctx;
  // Optional: called once by Writer::finish() after the last byte (e.g. to end a text frame).
  void (*close)(void* ctx) = nullptr;
};

// A sink into a caller-provided buffer (e.g. one a debugger dumps later). Fails when full.
struct BufferSink {
  std::uint8_t* data;
  std::size_t capacity;
  std::size_t size = 0;

  Sink sink() { return Sink{&BufferSink::put, this}; }

 private:
  static bool put(void* ctx, const std::uint8_t* bytes, std::size_t n) {
    auto* self = static_cast<BufferSink*>(ctx);
    if (n > self->capacity - self->size) return false;
    for (std::size_t i = 0; i < n; ++i) self->data[self->size + i] = bytes[i];
    self->size += n;
    return true;
  }
};

}  // namespace pmu::dump
