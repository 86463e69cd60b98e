// What the tests of files that must appear, or must not, list in a folder.
#pragma once

#include <string>
#include <vector>

#include <dirent.h>

// The names in `folder` other than . and .. (none when it does not exist).
inline std::vector<std::string> files_in(const std::string& folder) {
    std::vector<std::string> names;
    if (DIR* dir = opendir(folder.c_str())) {
        while (const dirent* entry = readdir(dir))
            if (std::string(entry->d_name) != "." && std::string(entry->d_name) != "..") names.push_back(entry->d_name);
        closedir(dir);
    }
    return names;
}
