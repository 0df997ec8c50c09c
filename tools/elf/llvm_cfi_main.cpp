// pmukit-llvm-cfi FILE: prints the call frame information rules of every FDE of FILE, as LLVM's
// DWARF library (Debian's llvm-14-dev) reads them, for the unwinder (tools/elf/unwind_llvm.hpp).
// A separate program so that pmukit itself does not load LLVM (its start-up time is part of the
// symbolization benchmark), and so that a file which crashes LLVM's reader costs only this process.
// Exit status 0 with whatever it printed; a crash is the caller's to notice.
#include <llvm/DebugInfo/DWARF/DWARFContext.h>
#include <llvm/DebugInfo/DWARF/DWARFDebugFrame.h>
#include <llvm/Object/ObjectFile.h>

#include <cstdio>
#include <vector>

#include "tools/elf/unwind_llvm.hpp"

namespace pmukit {
namespace {

CfiRule rule_of(const llvm::dwarf::UnwindLocation& loc) {
  using llvm::dwarf::UnwindLocation;
  CfiRule rule;
  switch (loc.getLocation()) {
    case UnwindLocation::Undefined: rule.kind = CfiRule::undefined; break;
    case UnwindLocation::Same: rule.kind = CfiRule::same; break;
    case UnwindLocation::CFAPlusOffset:
      rule.offset = loc.getOffset();
      rule.kind = loc == UnwindLocation::createAtCFAPlusOffset(loc.getOffset()) ? CfiRule::at_cfa : CfiRule::is_cfa;
      break;
    case UnwindLocation::RegPlusOffset:
      rule.reg = static_cast<int>(loc.getRegister());
      rule.kind = loc.getOffset() == 0 && loc == UnwindLocation::createIsRegisterPlusOffset(loc.getRegister(), 0)
                      ? CfiRule::in_register
                      : CfiRule::unsupported;
      break;
    default: rule.kind = CfiRule::unsupported; break;
  }
  return rule;
}

// In the child: every FDE of the file's .debug_frame (or .eh_frame where that is empty) as text,
// "F lo hi ra" then "R addr cfa_reg cfa_offset n" and n "reg kind reg offset" lines per row.
void dump_rules(const std::string& path, std::FILE* out) {
  using llvm::dwarf::UnwindLocation;
  auto binary = llvm::object::ObjectFile::createObjectFile(path);
  if (!binary) {
    llvm::consumeError(binary.takeError());
    return;
  }
  std::unique_ptr<llvm::DWARFContext> context = llvm::DWARFContext::create(*binary->getBinary());
  // One table: LLVM 14's getEHFrame() parses into the context's .debug_frame slot, freeing the
  // table getDebugFrame() returned, so .eh_frame is asked for only when .debug_frame is empty.
  const llvm::DWARFDebugFrame* table = nullptr;
  auto debug = context->getDebugFrame();
  if (debug && !(*debug)->empty()) {
    table = *debug;
  } else {
    if (!debug) llvm::consumeError(debug.takeError());
    auto eh = context->getEHFrame();
    if (!eh) {
      llvm::consumeError(eh.takeError());
      return;
    }
    table = *eh;
  }
  for (const llvm::dwarf::FrameEntry& e : table->entries()) {
    const auto* fde = llvm::dyn_cast<llvm::dwarf::FDE>(&e);
    if (fde == nullptr) continue;
    auto rows = llvm::dwarf::UnwindTable::create(fde);
    if (!rows) {
      llvm::consumeError(rows.takeError());
      continue;
    }
    const int ra = fde->getLinkedCIE() ? static_cast<int>(fde->getLinkedCIE()->getReturnAddressRegister()) : -1;
    std::fprintf(out, "F %llu %llu %d\n", static_cast<unsigned long long>(fde->getInitialLocation()),
                 static_cast<unsigned long long>(fde->getInitialLocation() + fde->getAddressRange()), ra);
    for (const llvm::dwarf::UnwindRow& r : *rows) {
      const UnwindLocation& cfa = r.getCFAValue();
      const bool plain = cfa.getLocation() == UnwindLocation::RegPlusOffset &&
                         cfa == UnwindLocation::createIsRegisterPlusOffset(cfa.getRegister(), cfa.getOffset());
      std::vector<std::pair<std::uint32_t, CfiRule>> regs;
      for (std::uint32_t n = 0; n < 128; ++n)
        if (const auto loc = r.getRegisterLocations().getRegisterLocation(n)) regs.emplace_back(n, rule_of(*loc));
      std::fprintf(out, "R %llu %d %lld %zu\n", static_cast<unsigned long long>(r.hasAddress() ? r.getAddress() : 0),
                   plain ? static_cast<int>(cfa.getRegister()) : -1, static_cast<long long>(cfa.getOffset()),
                   regs.size());
      for (const auto& [n, rule] : regs)
        std::fprintf(out, "%u %d %d %lld\n", n, static_cast<int>(rule.kind), rule.reg, static_cast<long long>(rule.offset));
    }
  }
}

}  // namespace
}  // namespace pmukit

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: pmukit-llvm-cfi ELF\n");
    return 2;
  }
  pmukit::dump_rules(argv[1], stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}
