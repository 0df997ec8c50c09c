#pragma once
// The subcommands. Each takes its arguments (after the subcommand name) and returns the exit
// status; errors are thrown (UsageError, DecodeError, ElfError, OutputError) and reported by main.
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace pmukit {

class OutputError : public std::runtime_error {
 public:
  explicit OutputError(const std::string& what) : std::runtime_error(what) {}
};

int run_report(const std::vector<std::string>& args);
int run_decode(const std::vector<std::string>& args);
int run_events(const std::vector<std::string>& args);
int run_encode(const std::vector<std::string>& args);
int run_diff(const std::vector<std::string>& args);
int run_stat(const std::vector<std::string>& args);
int run_annotate(const std::vector<std::string>& args);
int run_conformance(const std::vector<std::string>& args);
int run_help(const std::vector<std::string>& args);
int run_record(const std::vector<std::string>& args);  // tools/cli/live.cpp
int run_top(const std::vector<std::string>& args);

void print_usage(std::ostream& os);
// One command's help ("usage: pmukit report ..."); false for an unknown command.
bool print_command_help(std::ostream& os, const std::string& command);

}  // namespace pmukit
