#include "tools/cli/args.hpp"

namespace pmukit {

std::string Args::get(const std::string& name, const std::string& fallback) const {
  auto it = options.find(name);
  return it == options.end() ? fallback : it->second;
}

std::size_t Args::number(const std::string& name, std::size_t fallback) const {
  if (!has(name)) return fallback;
  const std::string v = get(name);
  if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos)
    throw UsageError(name + " wants a number, not '" + v + "'");
  return std::stoul(v);
}

Args parse_args(const std::vector<std::string>& argv, const std::vector<OptionSpec>& specs) {
  Args a;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (arg.size() < 2 || arg[0] != '-') {  // "-" alone is a positional (standard input)
      a.positionals.push_back(arg);
      continue;
    }
    const std::size_t eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    const OptionSpec* spec = nullptr;
    for (const OptionSpec& s : specs)
      if (name == s.name) spec = &s;
    if (spec == nullptr) throw UsageError("unknown option '" + name + "'");
    if (a.has(name)) throw UsageError("option " + name + " given twice");
    std::string value;
    if (spec->takes_value) {
      if (eq != std::string::npos) {
        value = arg.substr(eq + 1);
      } else {
        if (i + 1 >= argv.size()) throw UsageError("option " + name + " needs a value");
        value = argv[++i];
      }
    } else if (eq != std::string::npos) {
      throw UsageError("option " + name + " takes no value");
    }
    a.options[name] = value;
  }
  return a;
}

}  // namespace pmukit
