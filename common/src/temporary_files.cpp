#include "wb/temporary_files.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>

#include <sys/stat.h>
#include <unistd.h>

namespace wb {

namespace {

// Fixed-size storage: a signal handler may only read plain memory and call unlink and _exit.
constexpr int kSlots = 8;
char g_temporaries[kSlots][4096];

void remove_all() {
    for (auto& name : g_temporaries)
        if (name[0]) ::unlink(name), name[0] = '\0';
}

extern "C" void on_signal(int signal_number) {
    remove_all();
    ::_exit(128 + signal_number);  // the shell's convention: 130 after Ctrl-C
}

extern "C" void on_exit_call() { remove_all(); }

}  // namespace

std::string temporary_name(const std::string& path) { return path + ".partial." + std::to_string(::getpid()); }

void install_temporary_cleanup() {
    static bool installed = false;
    if (installed) return;
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    std::atexit(on_exit_call);
    installed = true;
}

int remember_temporary(const std::string& temporary) {
    install_temporary_cleanup();
    for (int i = 0; i < kSlots; ++i) {
        if (g_temporaries[i][0] || temporary.size() >= sizeof g_temporaries[i]) continue;
        std::memcpy(g_temporaries[i], temporary.c_str(), temporary.size() + 1);
        return i;
    }
    return -1;
}

void forget_temporary(int slot) {
    if (slot >= 0 && slot < kSlots) g_temporaries[slot][0] = '\0';
}

void make_parent_folders(const std::string& path) {
    for (std::size_t pos = path.find('/', 1); pos != std::string::npos; pos = path.find('/', pos + 1)) {
        const std::string folder = path.substr(0, pos);
        if (::mkdir(folder.c_str(), 0755) != 0 && errno != EEXIST) return;
    }
}

std::string close_into_place(std::FILE*& file, std::string& temporary, const std::string& path, int& slot) {
    std::FILE* closing = file;
    file = nullptr;
    errno = 0;
    if (std::fclose(closing) != 0) return std::strerror(errno);
    if (!temporary.empty()) {
        if (std::rename(temporary.c_str(), path.c_str()) != 0) return std::strerror(errno);
        forget_temporary(slot);
        slot = -1;
        temporary.clear();
    }
    return "";
}

}  // namespace wb
