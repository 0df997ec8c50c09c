#pragma once
// A Sink that turns dump bytes into text frames for a UART log (docs/dump-format.md, "Text
// frames"), through any putc. It buffers one line (32 bytes); the frame's BEGIN line goes out with
// the first byte and its END line when the writer calls close (Writer::finish does).
//
//   @PMUD BEGIN 1
//   @PMUD 0000 504d554404030201...  3fa2      <- sequence, up to 32 bytes as hex, line check
//   @PMUD END 12 367                          <- payload lines, payload bytes
#include <cstddef>
#include <cstdint>

#include "profiler/dump/crc32.hpp"
#include "profiler/dump/format.hpp"
#include "profiler/dump/sink.hpp"

namespace pmu::dump {

class TextFrameSink {
 public:
  using PutChar = void (*)(char c);
  using PutCharCtx = void (*)(void* ctx, char c);

  explicit TextFrameSink(PutChar putc) : putc_(putc) {}
  TextFrameSink(PutCharCtx putc, void* ctx) : putc_ctx_(putc), ctx_(ctx) {}

  Sink sink() { return Sink{&TextFrameSink::write, this, &TextFrameSink::close}; }

 private:
  static bool write(void* ctx, const std::uint8_t* data, std::size_t size) {
    auto* self = static_cast<TextFrameSink*>(ctx);
    if (!self->begun_) self->begin_frame();
    for (std::size_t i = 0; i < size; ++i) {
      self->line_[self->fill_++] = data[i];
      if (self->fill_ == kFrameBytesPerLine) self->flush_line();
    }
    return true;
  }
  static void close(void* ctx) {
    auto* self = static_cast<TextFrameSink*>(ctx);
    if (!self->begun_) self->begin_frame();
    if (self->fill_ != 0) self->flush_line();
    self->text(kFrameTag);
    self->text(" END ");
    self->dec(self->lines_);
    self->put(' ');
    self->dec(self->bytes_);
    self->put('\n');
    self->begun_ = false;  // a later dump through the same sink starts a new frame
  }

  void begin_frame() {
    text(kFrameTag);
    text(" BEGIN ");
    dec(kFrameVersion);
    put('\n');
    begun_ = true;
    seq_ = 0;
    lines_ = 0;
    bytes_ = 0;
    fill_ = 0;
  }

  // One payload line; its check is the low 16 bits of the CRC-32 of the two sequence bytes
  // (big-endian) followed by the line's data bytes.
  void flush_line() {
    const std::uint8_t seq_bytes[2] = {static_cast<std::uint8_t>(seq_ >> 8),
                                       static_cast<std::uint8_t>(seq_)};
    Crc32 check;
    check.update(seq_bytes, 2);
    check.update(line_, fill_);
    text(kFrameTag);
    put(' ');
    hex(seq_, 4);
    put(' ');
    for (std::size_t i = 0; i < fill_; ++i) hex(line_[i], 2);
    put(' ');
    hex(check.value() & 0xFFFFu, 4);
    put('\n');
    ++seq_;  // wraps from 0xffff to 0
    ++lines_;
    bytes_ += static_cast<std::uint32_t>(fill_);
    fill_ = 0;
  }

  void put(char c) {
    if (putc_ != nullptr)
      putc_(c);
    else
      putc_ctx_(ctx_, c);
  }
  void text(const char* s) {
    while (*s != '\0') put(*s++);
  }
  void hex(std::uint32_t v, unsigned digits) {
    static constexpr char kDigits[] = "0123456789abcdef";
    for (unsigned i = digits; i-- > 0;) put(kDigits[(v >> (4 * i)) & 0xFu]);
  }
  void dec(std::uint32_t v) {  // 32-bit: no libgcc division helpers on 32-bit targets
    char buf[10];
    unsigned n = 0;
    do {
      buf[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    while (n != 0) put(buf[--n]);
  }

  PutChar putc_ = nullptr;
  PutCharCtx putc_ctx_ = nullptr;
  void* ctx_ = nullptr;
  std::uint8_t line_[kFrameBytesPerLine] = {};
  std::size_t fill_ = 0;
  std::uint16_t seq_ = 0;
  std::uint32_t lines_ = 0;
  std::uint32_t bytes_ = 0;
  bool begun_ = false;
};

}  // namespace pmu::dump
