#pragma once
// Identity of the running program for the dump's IMAGE chunk, so `pmukit report --elf` can refuse
// an ELF of another build or architecture instead of printing 100% [unknown].
//
// Two optional sources, both from the linker script (see docs/dump-format.md, "IMAGE"):
//   __pmukit_build_id_start/_end  around .note.gnu.build-id (link with -Wl,--build-id)
//   __pmukit_image_start/_end     code and read-only data as loaded; hashed here with CRC-32
// The symbols are weak: a linker script without them gives a dump without that check.
// Freestanding: no heap, no hosted headers.
#include <cstddef>
#include <cstdint>

#include "profiler/dump/crc32.hpp"
#include "profiler/dump/writer.hpp"

extern "C" {
[[gnu::weak]] extern const std::uint8_t __pmukit_build_id_start[];
[[gnu::weak]] extern const std::uint8_t __pmukit_build_id_end[];
[[gnu::weak]] extern const std::uint8_t __pmukit_image_start[];
[[gnu::weak]] extern const std::uint8_t __pmukit_image_end[];
}

namespace pmu::dump {

// e_machine of the code being compiled (System V ABI, ELF header; values from elf.h).
constexpr std::uint16_t elf_machine() {
#if defined(__arm__)
  return 40;  // EM_ARM
#elif defined(__powerpc64__)
  return 21;  // EM_PPC64
#elif defined(__powerpc__)
  return 20;  // EM_PPC
#elif defined(__mips__)
  return 8;  // EM_MIPS
#elif defined(__x86_64__)
  return 62;  // EM_X86_64
#elif defined(__i386__)
  return 3;  // EM_386
#elif defined(__aarch64__)
  return 183;  // EM_AARCH64
#else
  return 0;
#endif
}

// The build-id from a GNU note in the target's byte order: namesz, descsz, type (3 =
// NT_GNU_BUILD_ID), "GNU\0", then the id. Anything else (no note, another note, a torn one)
// gives no id rather than a wrong one.
inline bool parse_build_id_note(const std::uint8_t* p, const std::uint8_t* end, ImageInfo& out) {
  constexpr std::uint32_t kNtGnuBuildId = 3;
  if (p == nullptr || end == nullptr || end < p || static_cast<std::size_t>(end - p) < 16) return false;
  auto word = [](const std::uint8_t* q) {
    std::uint32_t v;
    __builtin_memcpy(&v, q, 4);
    return v;
  };
  const std::uint32_t namesz = word(p), descsz = word(p + 4), type = word(p + 8);
  if (namesz != 4 || type != kNtGnuBuildId || p[12] != 'G' || p[13] != 'N' || p[14] != 'U' || p[15] != 0)
    return false;
  if (descsz == 0 || descsz > kMaxBuildId || descsz > static_cast<std::size_t>(end - p) - 16) return false;
  out.build_id = p + 16;
  out.build_id_len = static_cast<std::uint8_t>(descsz);
  return true;
}

// CRC-32 of [lo, hi) as it is in memory now.
inline std::uint32_t crc_of_memory(const std::uint8_t* lo, const std::uint8_t* hi) {
  Crc32 crc;
  crc.update(lo, static_cast<std::size_t>(hi - lo));
  return crc.value();
}

// This program's identity from the linker-script symbols above (each part only if present).
// Not for an interrupt handler: it reads the whole image (tens of KB) once, when the dump is written.
inline ImageInfo this_image() {
  ImageInfo im{elf_machine(), nullptr, 0, 0, 0, 0};
  parse_build_id_note(__pmukit_build_id_start, __pmukit_build_id_end, im);
  const std::uint8_t* lo = __pmukit_image_start;
  const std::uint8_t* hi = __pmukit_image_end;
  if (lo != nullptr && hi != nullptr && lo < hi) {
    im.code_lo = reinterpret_cast<std::uintptr_t>(lo);
    im.code_hi = reinterpret_cast<std::uintptr_t>(hi);
    im.code_crc = crc_of_memory(lo, hi);
  }
  return im;
}

}  // namespace pmu::dump
