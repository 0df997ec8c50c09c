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

// Two sinks fed the same bytes: the primary (the console's text frames) and a secondary (a file,
// or a buffer a debugger dumps). A failure of the primary fails the write; a failure of the
// secondary only drops it from then on (secondary_failed() says so), so it never costs the
// primary its dump. A secondary whose write is null is not used.
struct TeeSink {
  Sink primary{}, secondary{};

  TeeSink() = default;
  explicit TeeSink(Sink p, Sink s = Sink{}) : primary(p), secondary(s) {}

  Sink sink() { return Sink{&TeeSink::put, this, &TeeSink::close_both}; }
  bool secondary_failed() const { return failed_; }

 private:
  static bool put(void* ctx, const std::uint8_t* bytes, std::size_t n) {
    auto* self = static_cast<TeeSink*>(ctx);
    Sink& s = self->secondary;
    if (s.write != nullptr && !self->failed_ && !s.write(s.ctx, bytes, n)) self->failed_ = true;
    return self->primary.write(self->primary.ctx, bytes, n);
  }
  static void close_both(void* ctx) {
    auto* self = static_cast<TeeSink*>(ctx);
    if (self->primary.close != nullptr) self->primary.close(self->primary.ctx);
    if (self->secondary.write != nullptr && self->secondary.close != nullptr) self->secondary.close(self->secondary.ctx);
  }
  bool failed_ = false;
};

}  // namespace pmu::dump
