// The data directory holds titles, e-mail addresses, secret hashes and signing keys: no other
// local user may read it. The service creates what it writes owner-only (RestrictNewFilesToOwner:
// directories 0700, files 0600, whatever the umask it was started with) and refuses to start on a
// data directory that grants its group or others any access, since files written by an earlier
// version under umask 022 are readable through it (docs/operations.md says how to fix one).
// Thread safety: RestrictNewFilesToOwner changes the process's umask; call it first in main.
#pragma once

#include <string>

#include "domain/result.h"

namespace esign::app {

// Sets the umask to 077: every file and directory the process creates from now on is owner-only.
void RestrictNewFilesToOwner();

// Creates `data_dir` (and missing parents) with mode 0700, or checks that the existing one grants
// nothing to group or others; kStorage naming the directory, its mode and the fix otherwise.
Status RequirePrivateDataDirectory(const std::string& data_dir);

}  // namespace esign::app
