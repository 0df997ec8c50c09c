// libFuzzer target: any bytes as the --elf file. The ELF reader (libelf, libdw behind it) may only
// throw ElfError; a crash, a sanitizer report (ASan sees libdw's reads through the libc calls it
// intercepts), another exception or a hang is a bug. Then the identity check and a profile
// against the fixture dump, as `pmukit report --elf --force-elf` would do, and the unwinder over
// the fixture's stack samples with whatever CFI the bytes hold (issue 17: bogus CFI), also as a
// dump with 8-byte addresses would give them (issue 31).
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "fixtures.hpp"
#include "tools/dumpread/binary_decoder.hpp"
#include "tools/elf/elf_symbols.hpp"
#include "tools/elf/image_check.hpp"
#include "tools/elf/unwind.hpp"
#include "tools/report/profile.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const dumptest::Bytes bytes = dumptest::profile_dump(pmu::dump::ByteOrder::little);
  static const pmukit::Dump dump = pmukit::decode_dump(bytes.data(), bytes.size());
  // libelf reads a file descriptor: an anonymous in-memory file, named through /proc.
  const int fd = memfd_create("fuzz.elf", 0);
  if (fd < 0) return 0;
  for (std::size_t done = 0; done < size;) {
    const ssize_t n = write(fd, data + done, size - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  try {
    const pmukit::ElfImage elf = pmukit::load_elf("/proc/self/fd/" + std::to_string(fd));
    (void)pmukit::check_image(dump, elf.identity);
    (void)pmukit::build_profile(dump, elf.symbols);
    static const dumptest::Bytes stack_bytes = dumptest::stacks_dump(pmu::dump::ByteOrder::big);
    static const pmukit::Dump stacks = pmukit::decode_dump(stack_bytes.data(), stack_bytes.size());
    // libdw's CFI only: LLVM's reader runs in a child process per file (unwind_llvm.hpp), too slow
    // per input; its crash containment is a unit test (Unwinder.LlvmCrashIsContained).
    const pmukit::Unwinder unwinder("/proc/self/fd/" + std::to_string(fd), false);
    for (const pmukit::StackSampleRecord& s : stacks.stacks) {
      const pmukit::UnwoundStack u = unwinder.unwind(s, stacks.byte_order, 4);
      if (u.pcs.empty() || u.pcs.size() > pmukit::Unwinder::kMaxFrames) __builtin_trap();
    }
    // 8-byte addresses with an sp under 8 (issue 31): a rule below the CFA reaches 2^64 - 4.
    static const dumptest::Bytes wide_bytes = dumptest::wide_stacks_dump(pmu::dump::ByteOrder::little);
    static const pmukit::Dump wide = pmukit::decode_dump(wide_bytes.data(), wide_bytes.size());
    (void)pmukit::check_image(wide, elf.identity);
    for (const pmukit::StackSampleRecord& s : wide.stacks) {
      const pmukit::UnwoundStack u = unwinder.unwind(s, wide.byte_order, 8);
      if (u.pcs.empty() || u.pcs.size() > pmukit::Unwinder::kMaxFrames) __builtin_trap();
    }
  } catch (const pmukit::ElfError&) {
  }
  close(fd);
  return 0;
}
