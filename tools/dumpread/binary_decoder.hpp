#pragma once
// Binary dump -> Dump (docs/dump-format.md). Throws DecodeError naming what is wrong and the byte
// offset where it is.
#include <cstddef>
#include <cstdint>

#include "tools/dumpread/dump.hpp"

namespace pmukit {

Dump decode_dump(const std::uint8_t* data, std::size_t size);

// True if the bytes start with the binary dump magic.
bool has_dump_magic(const std::uint8_t* data, std::size_t size);

}  // namespace pmukit
