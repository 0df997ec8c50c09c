#pragma once
// A folder of a test's own (mkdtemp in the test's temporary directory), removed with everything
// in it: the device nodes, FIFOs, links and helper scripts the tests make never touch anything
// of the machine's.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

namespace dumptest {

struct TempFolder {
  std::string path;  // empty if mkdtemp failed
  explicit TempFolder(const std::string& prefix = "pmukit") {
    std::string t = ::testing::TempDir() + prefix + "_XXXXXX";
    if (::mkdtemp(t.data()) != nullptr) path = t;
  }
  ~TempFolder() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  std::string operator/(const std::string& name) const { return path + "/" + name; }
};

}  // namespace dumptest
