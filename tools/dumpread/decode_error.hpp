#pragma once
// The one exception the decoders throw: its message says what is wrong and where.
#include <stdexcept>
#include <string>

namespace pmukit {

class DecodeError : public std::runtime_error {
 public:
  explicit DecodeError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace pmukit
