#pragma once
// Binary dump -> Dump (docs/dump-format.md). Throws DecodeError naming what is wrong and the byte
// offset where it is.
#include <cstddef>
#include <cstdint>

#include "tools/dumpread/dump.hpp"

namespace pmukit {

struct DecodeOptions {
  bool raw_samples = true;  // also keep every record in Dump::samples (decode's JSON lists them)
  // Called with byte ranges the decoder has finished reading, in order, so a file mapped in
  // memory can drop its pages as it goes (load_dump_file): peak memory then stays the distinct
  // samples, not the file. May be null.
  void (*consumed)(const std::uint8_t* data, std::size_t size) = nullptr;
};

Dump decode_dump(const std::uint8_t* data, std::size_t size, const DecodeOptions& options = {});

// True if the bytes start with the binary dump magic.
bool has_dump_magic(const std::uint8_t* data, std::size_t size);

}  // namespace pmukit
