// What a test compares to show that a command changed nothing in a directory: every file and
// directory under it with its mtime (ns), size and bytes.
#pragma once

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace esign::testing {

inline std::string FileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// Keyed by the path relative to `dir`.
inline std::map<std::string, std::string> DirSnapshot(const std::filesystem::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    struct stat st {};
    EXPECT_EQ(::lstat(entry.path().c_str(), &st), 0) << entry.path();
    std::string state = std::to_string(st.st_mtim.tv_sec) + "." +
                        std::to_string(st.st_mtim.tv_nsec) + " " + std::to_string(st.st_size);
    if (entry.is_regular_file()) state += " " + FileBytes(entry.path());
    files[std::filesystem::relative(entry.path(), dir).string()] = std::move(state);
  }
  return files;
}

}  // namespace esign::testing
