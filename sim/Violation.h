// The exception a unit throws when the running instruction breaks a rule; the core adds context.
#pragma once

#include <stdexcept>

namespace pyasc::sim {

class Violation : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace pyasc::sim
