#pragma once
// The loadable part of a firmware ELF32 for pmusim: its PT_LOAD segments, entry point, machine and
// byte order (System V ABI, "Program Header"). No symbols: the simulator runs code, it does not name it.
#include <cstdint>
#include <string>
#include <vector>

namespace pmusim {

struct Segment {
  std::uint32_t paddr = 0, memsz = 0;
  std::vector<std::uint8_t> bytes;  // p_filesz bytes; the rest of memsz is zero
  bool exec = false;
};

struct ElfImage {
  std::uint16_t machine = 0;  // e_machine: 3 i386, 8 MIPS, 20 PowerPC, 40 ARM
  bool big_endian = false;
  std::uint32_t entry = 0;
  std::uint32_t flags = 0;    // e_flags (MIPS: the ISA level in bits 31:28)
  std::vector<Segment> segments;
};

// Reads `path`; on failure returns false with a message in `error` (never throws).
bool load_elf(const std::string& path, ElfImage& out, std::string& error);

}  // namespace pmusim
