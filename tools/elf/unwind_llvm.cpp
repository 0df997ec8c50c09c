#include "tools/elf/unwind_llvm.hpp"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "tools/report/run_program.hpp"

namespace pmukit {
namespace {

// The helper program: $PMUKIT_LLVM_CFI, else pmukit-llvm-cfi beside this executable (the build
// tree and an install both put it there), else the build tree's (for the test programs).
std::string helper_path() {
  if (const char* env = std::getenv("PMUKIT_LLVM_CFI"); env != nullptr && *env != '\0') return env;
  char self[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    std::string dir(self, static_cast<std::size_t>(n));
    dir.resize(dir.rfind('/') + 1);
    if (::access((dir + "pmukit-llvm-cfi").c_str(), X_OK) == 0) return dir + "pmukit-llvm-cfi";
  }
#ifdef PMUKIT_LLVM_CFI_BUILD_PATH
  return PMUKIT_LLVM_CFI_BUILD_PATH;
#else
  return "";
#endif
}

}  // namespace

struct LlvmCfi::Impl {
  std::vector<CfiFde> fdes;  // by lo
  std::string failure;
};

LlvmCfi::LlvmCfi(const std::string& path) : impl_(std::make_unique<Impl>()) {
  // LLVM's reader is not made for hostile files (the ELF fuzzer crashed it) and is large to load:
  // it runs in its own program, pmukit-llvm-cfi, which prints the rules; if it dies or passes a
  // limit, this file loses its MIPS stacks (failure() says why), not the report.
  const std::string helper = helper_path();
  if (helper.empty()) {
    impl_->failure = "pmukit-llvm-cfi not found (beside pmukit, or $PMUKIT_LLVM_CFI)";
    return;
  }
  const ProgramOutput r = run_program({helper, path});
  if (!r.ok) {  // bounded in time, memory and output: a hostile .debug_frame can ask for gigabytes
    impl_->failure = helper + ": " + r.failure;
    return;
  }
  std::istringstream in(r.out);
  for (std::string tag; in >> tag;) {
    if (tag == "F") {
      CfiFde f;
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
  std::sort(impl_->fdes.begin(), impl_->fdes.end(), [](const CfiFde& a, const CfiFde& b) { return a.lo < b.lo; });
}

LlvmCfi::~LlvmCfi() = default;

bool LlvmCfi::any() const { return !impl_->fdes.empty(); }
bool LlvmCfi::crashed() const { return !impl_->failure.empty(); }
const std::string& LlvmCfi::failure() const { return impl_->failure; }
const std::vector<CfiFde>& LlvmCfi::fdes() const { return impl_->fdes; }

std::optional<CfiRow> LlvmCfi::at(std::uint64_t pc) const {
  // The FDE starting last at or before pc (they are sorted by start and do not overlap).
  const auto after = std::upper_bound(impl_->fdes.begin(), impl_->fdes.end(), pc,
                                      [](std::uint64_t a, const CfiFde& f) { return a < f.lo; });
  if (after == impl_->fdes.begin()) return std::nullopt;
  const CfiFde& f = *std::prev(after);
  if (pc >= f.hi) return std::nullopt;
  const CfiRow* found = nullptr;
  for (const auto& [addr, row] : f.rows)
    if (addr <= pc) found = &row;
  if (found == nullptr || found->cfa_reg < 0) return std::nullopt;  // a CFA by expression: unsupported
  return *found;
}

}  // namespace pmukit
