#include "tools/elf/unwind_llvm.hpp"

#include <llvm/DebugInfo/DWARF/DWARFContext.h>
#include <llvm/DebugInfo/DWARF/DWARFDebugFrame.h>
#include <llvm/Object/ObjectFile.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

namespace pmukit {
namespace {

// One FDE's rows, as the parent keeps them.
struct Fde {
  std::uint64_t lo = 0, hi = 0;
  int ra = -1;                                         // the CIE's return address column
  std::vector<std::pair<std::uint64_t, CfiRow>> rows;  // by address
};

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

struct LlvmCfi::Impl {
  std::vector<Fde> fdes;  // by lo
  bool crashed = false;
};

LlvmCfi::LlvmCfi(const std::string& path) : impl_(std::make_unique<Impl>()) {
  // LLVM's reader is not made for hostile files (the ELF fuzzer crashed it): it runs in a child,
  // which sends the rules back as text; a child that dies costs the MIPS stacks, not the report.
  int fds[2];
  if (::pipe(fds) != 0) return;
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return;
  }
  if (pid == 0) {
    ::close(fds[0]);
    std::FILE* out = ::fdopen(fds[1], "w");
    if (out != nullptr) {
      dump_rules(path, out);
      std::fclose(out);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    impl_->crashed = true;
    return;
  }
  std::istringstream in(text);
  for (std::string tag; in >> tag;) {
    if (tag == "F") {
      Fde f;
      in >> f.lo >> f.hi >> f.ra;
      impl_->fdes.push_back(std::move(f));
    } else if (tag == "R" && !impl_->fdes.empty()) {
      std::uint64_t addr = 0;
      CfiRow row;
      std::size_t n = 0;
      in >> addr >> row.cfa_reg >> row.cfa_offset >> n;
      row.ra = impl_->fdes.back().ra;
      for (std::size_t i = 0; i < n && in; ++i) {
        unsigned reg = 0;
        int kind = 0;
        CfiRule rule;
        in >> reg >> kind >> rule.reg >> rule.offset;
        rule.kind = static_cast<CfiRule::Kind>(std::clamp(kind, 0, static_cast<int>(CfiRule::unsupported)));
        row.rules[static_cast<int>(reg)] = rule;
      }
      impl_->fdes.back().rows.emplace_back(addr, std::move(row));
    } else {
      break;
    }
  }
  std::sort(impl_->fdes.begin(), impl_->fdes.end(), [](const Fde& a, const Fde& b) { return a.lo < b.lo; });
}

LlvmCfi::~LlvmCfi() = default;

bool LlvmCfi::any() const { return !impl_->fdes.empty(); }
bool LlvmCfi::crashed() const { return impl_->crashed; }

std::optional<CfiRow> LlvmCfi::at(std::uint64_t pc) const {
  for (const Fde& f : impl_->fdes) {
    if (pc < f.lo || pc >= f.hi) continue;
    const CfiRow* found = nullptr;
    for (const auto& [addr, row] : f.rows)
      if (addr <= pc) found = &row;
    if (found == nullptr || found->cfa_reg < 0) return std::nullopt;  // a CFA by expression: unsupported
    return *found;
  }
  return std::nullopt;
}

}  // namespace pmukit
