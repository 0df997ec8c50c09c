#include "tools/sim/elf_image.hpp"

#include <fstream>

namespace pmusim {
namespace {

struct Reader {
  const std::vector<std::uint8_t>& d;
  bool be;
  bool ok(std::size_t off, std::size_t n) const { return off <= d.size() && n <= d.size() - off; }
  std::uint32_t u(std::size_t off, unsigned n) const {
    std::uint32_t v = 0;
    for (unsigned i = 0; i < n; ++i) v |= std::uint32_t{d[off + (be ? n - 1 - i : i)]} << (8 * i);
    return v;
  }
};

}  // namespace

bool load_elf(const std::string& path, ElfImage& out, std::string& error) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    error = "cannot open '" + path + "'";
    return false;
  }
  // Firmware is kilobytes to megabytes: a device or an endless pipe named here is refused, not read
  // until memory runs out.
  constexpr std::size_t kMaxBytes = std::size_t{256} << 20;
  std::vector<std::uint8_t> d;
  char buf[1 << 16];
  while (f.read(buf, sizeof buf) || f.gcount() > 0) {
    d.insert(d.end(), buf, buf + f.gcount());
    if (d.size() > kMaxBytes) {
      error = "'" + path + "' is larger than 256 MiB: not a firmware image";
      return false;
    }
  }
  if (d.size() < 52 || d[0] != 0x7f || d[1] != 'E' || d[2] != 'L' || d[3] != 'F') {
    error = "'" + path + "' is not an ELF file";
    return false;
  }
  if (d[4] != 1) {
    error = "'" + path + "' is not ELF32 (pmusim runs 32-bit firmware)";
    return false;
  }
  const Reader r{d, d[5] == 2};
  out.big_endian = r.be;
  out.machine = static_cast<std::uint16_t>(r.u(18, 2));
  out.entry = r.u(24, 4);
  out.flags = r.u(36, 4);
  const std::uint32_t phoff = r.u(28, 4), phentsize = r.u(42, 2), phnum = r.u(44, 2);
  if (phentsize < 32 || !r.ok(phoff, std::size_t{phentsize} * phnum)) {
    error = "'" + path + "': program headers out of the file";
    return false;
  }
  for (std::uint32_t i = 0; i < phnum; ++i) {
    const std::size_t p = phoff + std::size_t{i} * phentsize;
    if (r.u(p, 4) != 1) continue;  // PT_LOAD only
    Segment s;
    const std::uint32_t offset = r.u(p + 4, 4), filesz = r.u(p + 16, 4);
    s.paddr = r.u(p + 12, 4);
    s.memsz = r.u(p + 20, 4);
    s.exec = (r.u(p + 24, 4) & 1u) != 0;
    if (filesz > s.memsz || !r.ok(offset, filesz)) {
      error = "'" + path + "': a PT_LOAD segment lies outside the file";
      return false;
    }
    s.bytes.assign(d.begin() + offset, d.begin() + offset + filesz);
    out.segments.push_back(std::move(s));
  }
  if (out.segments.empty()) {
    error = "'" + path + "' has no loadable segment";
    return false;
  }
  return true;
}

}  // namespace pmusim
