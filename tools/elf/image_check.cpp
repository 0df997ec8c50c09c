#include "tools/elf/image_check.hpp"

#include "tools/report/text_util.hpp"

namespace pmukit {
namespace {

// Format 1.0 dumps: the e_machine of the example targets, by target id.
unsigned machine_of_target(const std::string& id) {
  if (id == "xscale") return 40;
  if (id == "e500") return 20;
  if (id == "mips" || id == "mips-cps" || id == "rm7000") return 8;
  if (id == "netburst") return 3;
  return 0;
}

}  // namespace

std::string machine_name(unsigned m) {
  switch (m) {
    case 3: return "i386";
    case 8: return "MIPS";
    case 20: return "PowerPC";
    case 21: return "PowerPC64";
    case 40: return "ARM";
    case 62: return "x86-64";
    case 183: return "AArch64";
  }
  return "e_machine " + std::to_string(m);
}

ImageCheck check_image(const Dump& d, const ElfIdentity& elf) {
  ImageCheck c;
  const unsigned want = d.image ? d.image->elf_machine : machine_of_target(d.target.id);
  if (want != 0 && want != elf.machine)
    c.mismatches.push_back("the dump comes from " + machine_name(want) + " code, the ELF is " +
                           machine_name(elf.machine));
  // Also for the unwinder: it reads stack slots of the dump's address size.
  if (d.target.address_bytes != elf.address_bytes)
    c.mismatches.push_back("the dump has " + std::to_string(d.target.address_bytes) + "-byte addresses, the ELF " +
                           std::to_string(elf.address_bytes) + "-byte ones (ELFCLASS" +
                           std::to_string(8 * elf.address_bytes) + ")");
  if (!d.image) {
    c.warnings.push_back("the dump carries no build-id or code CRC (format " +
                         std::to_string(d.version_major) + "." + std::to_string(d.version_minor) +
                         "): cannot check that this ELF wrote it");
    return c;
  }
  const Image& im = *d.image;
  if (!im.build_id.empty()) {
    if (elf.build_id.empty())
      c.mismatches.push_back("the dump has build-id " + hex_bytes(im.build_id) +
                             ", the ELF has none (linked without --build-id?)");
    else if (elf.build_id != im.build_id)
      c.mismatches.push_back("build-id differs: dump " + hex_bytes(im.build_id) + ", ELF " +
                             hex_bytes(elf.build_id));
  }
  if (im.has_code) {
    const unsigned digits = 2 * d.target.address_bytes;
    const std::string range = "[" + hex(im.code_lo, digits) + ", " + hex(im.code_hi, digits) + ")";
    const std::optional<std::uint32_t> crc = elf.crc(im.code_lo, im.code_hi);
    if (!crc)
      c.mismatches.push_back("the ELF's loadable segments do not hold the dump's code range " + range);
    else if (*crc != im.code_crc)
      c.mismatches.push_back("code CRC-32 over " + range + " differs: dump " + hex(im.code_crc, 8) +
                             ", ELF " + hex(*crc, 8));
  }
  if (im.build_id.empty() && !im.has_code)
    c.warnings.push_back("the dump carries no build-id or code CRC: cannot check that this ELF wrote it");
  return c;
}

}  // namespace pmukit
