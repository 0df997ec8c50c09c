#pragma once
// The `nm -C --defined-only` listing that test_elfs.cmake writes next to each test ELF
// (ELF + ".nm"): the independent source of expected function names and addresses.
#include <cstdint>
#include <fstream>
#include <map>
#include <string>

namespace dumptest {

// name -> address
inline std::map<std::string, std::uint64_t> nm_functions(const std::string& elf) {
  std::map<std::string, std::uint64_t> out;
  std::ifstream in(elf + ".nm");
  std::string addr, type, name;
  while (in >> addr >> type && std::getline(in >> std::ws, name))
    out[name] = std::stoull(addr, nullptr, 16);
  return out;
}

}  // namespace dumptest
