#pragma once
// Command-line parsing: "--name value", "--name=value", "-o value", flags, and positionals.
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace pmukit {

class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& what) : std::runtime_error(what) {}
};

struct OptionSpec {
  const char* name;  // "--elf", "-o"
  bool takes_value;
};

struct Args {
  std::map<std::string, std::string> options;  // flags map to ""
  std::vector<std::string> positionals;

  bool has(const std::string& name) const { return options.count(name) != 0; }
  std::string get(const std::string& name, const std::string& fallback = "") const;
  // A non-negative integer option; UsageError if it is not one.
  std::size_t number(const std::string& name, std::size_t fallback) const;
};

// Throws UsageError for an unknown option, a missing value or a repeated option.
Args parse_args(const std::vector<std::string>& argv, const std::vector<OptionSpec>& specs);

}  // namespace pmukit
