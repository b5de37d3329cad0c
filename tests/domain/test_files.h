// Paths of the data files the domain tests read, compiled in by tests/domain/CMakeLists.txt.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace esign::testing {

inline std::string ExampleTemplatePath(const std::string& name) {
  return std::string(ESIGN_EXAMPLE_TEMPLATES_DIR) + "/" + name;
}

inline std::string TestDataPath(const std::string& name) {
  return std::string(ESIGN_DOMAIN_TEST_DATA_DIR) + "/" + name;
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace esign::testing
