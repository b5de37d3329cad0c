#include "app/file_text.h"

#include <fstream>
#include <sstream>

namespace esign::app {

Result<std::string> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Fail(ErrorCode::kStorage, "cannot open " + path);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Fail(ErrorCode::kStorage, "cannot read " + path);
  return text.str();
}

}  // namespace esign::app
