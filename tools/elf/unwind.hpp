#pragma once
// Call stacks from the dump's STACKS samples (profiler/stack.hpp), unwound with the ELF's DWARF
// call frame information through elfutils libdw (.debug_frame first, then .eh_frame): for each
// frame, dwarf_cfi_addrframe at its pc, the CFA rule and the return-address column's rule read
// from the captured stack. For ARM, MIPS, PowerPC and i386. Where libdw has no frame for a pc
// (Debian 12's elfutils 0.188 reads no MIPS CFI), LLVM's DWARF library gives the rules
// (unwind_llvm.hpp).
// A walk ends cleanly: at an undefined return address (the outermost frame), and otherwise with a
// reason (no CFI for a pc, a read beyond the captured stack, no progress, 64 frames): never a
// crash or an endless walk, whatever the stack bytes or the CFI say.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tools/dumpread/dump.hpp"
#include "tools/report/profile.hpp"

namespace pmukit {

class Unwinder {
 public:
  // Throws ElfError (elf_symbols.hpp) when the file cannot be read; an ELF without CFI gives an
  // unwinder whose walks all stop at the first frame, saying so. llvm_fallback: LLVM's rules where
  // libdw has none (unwind_llvm.hpp: the pmukit-llvm-cfi program, run once per file).
  explicit Unwinder(const std::string& elf_path, bool llvm_fallback = true);
  ~Unwinder();
  Unwinder(const Unwinder&) = delete;
  Unwinder& operator=(const Unwinder&) = delete;

  UnwoundStack unwind(const StackSampleRecord& s, ByteOrder order, unsigned address_bytes) const;
  bool has_cfi() const;
  // Why LLVM's rules were wanted and not had (pmukit-llvm-cfi missing, killed, past a limit): the
  // walks that needed them stopped at their first frame. "" when it worked or was never asked.
  std::string llvm_failure() const;
  static constexpr unsigned kMaxFrames = 64;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pmukit
