/// @file temporary_files.h
/// @brief Output files written whole or not at all, even when the run is interrupted.
///
/// Programs write a result to a temporary name beside it and rename it into place once it is
/// complete. The temporary names are remembered here, and removed when the program ends before
/// the rename: on Ctrl-C (SIGINT), SIGTERM, or std::exit after an error. So an interrupted
/// benchmark or simulation never leaves a partial CSV or grid behind.
#pragma once

#include <cstdio>
#include <string>

namespace wb {

/// "PATH.partial.PID": the temporary name of PATH for this process.
std::string temporary_name(const std::string& path);

/// Remembers `temporary` for removal if the program stops before forget_temporary(); installs
/// the SIGINT/SIGTERM handler and the exit handler on first use. Returns a slot for
/// forget_temporary (-1 when all slots are taken: the file is then not removed on Ctrl-C).
int remember_temporary(const std::string& temporary);

/// The file was renamed into place or removed: nothing to clean up any more.
void forget_temporary(int slot);

/// Creates the folders above `path` that do not exist yet (as mkdir -p of its folder); a folder
/// that cannot be made is left for the caller's open to report.
void make_parent_folders(const std::string& path);

/// Closes a finished output `file` and, where it was written under `temporary`, renames it to
/// `path` and forgets its `slot`. `file` is null afterwards (so that a failure handler does not
/// close it again); on a failure `temporary` is left set, for that handler to remove. Returns ""
/// or the cause of the failure.
std::string close_into_place(std::FILE*& file, std::string& temporary, const std::string& path, int& slot);

/// Installs the handlers now (before long work), without remembering a file yet.
void install_temporary_cleanup();

}  // namespace wb
