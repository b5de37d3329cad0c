#include "app/private_data_directory.h"

#include <sys/stat.h>

#include <cstdio>
#include <filesystem>

namespace esign::app {

void RestrictNewFilesToOwner() { ::umask(077); }

Status RequirePrivateDataDirectory(const std::string& data_dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(data_dir, ec)) {
    fs::create_directories(data_dir, ec);
    if (ec) {
      return Fail(ErrorCode::kStorage,
                  "cannot create the data directory " + data_dir + ": " + ec.message());
    }
    // create_directories honours the umask; the directory itself is made private in any case.
    fs::permissions(data_dir, fs::perms::owner_all, ec);
    if (ec) {
      return Fail(ErrorCode::kStorage,
                  "cannot set the mode of the data directory " + data_dir + ": " + ec.message());
    }
    return {};
  }
  struct stat info {};
  if (::stat(data_dir.c_str(), &info) != 0) {
    return Fail(ErrorCode::kStorage, "cannot read the data directory " + data_dir);
  }
  if ((info.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof(mode), "%04o", static_cast<unsigned>(info.st_mode & 07777));
    return Fail(ErrorCode::kStorage,
                "the data directory " + data_dir + " has mode " + mode +
                    ": other local users can read its records and keys. Run `chmod 700 " +
                    data_dir + "` (and `chmod -R go-rwx " + data_dir +
                    "` for files written before), then start again; nothing was changed");
  }
  return {};
}

}  // namespace esign::app
