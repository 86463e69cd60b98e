// SciddicaT grid files: reading and checking the header and values, atomic writes of results.
#include "sciddicat/grid_io.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

#include "wb/device.h"
#include "wb/temporary_files.h"

namespace sciddicat {

namespace {

// Memory per cell while simulating: altitude, source, thickness, four outflows, a copy of the
// state, and the text of one output line (about 10 bytes a value).
constexpr std::size_t kBytesPerCell = 10 * sizeof(double) + 12;
// The values the model accepts: altitudes of any terrain on Earth with a wide margin, and debris
// thicknesses of real landslides (tens of metres) with a wide margin. Larger values are typing
// errors (1e308 would overflow the height differences to infinity).
constexpr double kMaxAltitude = 100000.0;
constexpr double kMaxThickness = 10000.0;

[[noreturn]] void fail(const std::string& path, long line, const std::string& what) {
    std::string where = path;
    if (line > 0) where += ":" + std::to_string(line);
    throw InputError(where + ": " + what);
}

bool parse_number(const std::string& token, double& value) {
    if (token.empty()) return false;
    errno = 0;
    char* end = nullptr;
    value = std::strtod(token.c_str(), &end);
    return end == token.c_str() + token.size() && errno == 0 && std::isfinite(value);
}

std::vector<std::string> tokens_of(const std::string& line) {
    std::vector<std::string> tokens;
    std::istringstream stream(line);
    std::string token;
    while (stream >> token) tokens.push_back(token);
    return tokens;
}

bool file_exists(const std::string& path) {
    std::ifstream file(path);
    return file.good();
}

// Opening a folder as a file succeeds on Linux and then reads nothing; say what it is instead.
void require_regular_file(const std::string& path, const char* what) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        fail(path, 0, std::string("cannot open the ") + what + ": " + std::strerror(errno));
    if (S_ISDIR(info.st_mode)) fail(path, 0, std::string("is a folder, not a ") + what);
}

long long file_size(const std::string& path) {
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0 ? static_cast<long long>(info.st_size) : -1;
}

// Writes `text` to `file` (opened as `path`) and closes it; on a failed write, flush or close
// removes `remove_on_failure` (when not empty) and fails with the cause.
void write_and_close(std::FILE* file, const std::string& path, const std::string& text,
                     const std::string& remove_on_failure, int slot) {
    errno = 0;
    const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size() && std::fflush(file) == 0;
    const std::string cause = errno ? std::strerror(errno) : "write error";
    const bool closed = std::fclose(file) == 0;
    if (!written || !closed) {
        const std::string why = written ? std::strerror(errno) : cause;
        if (!remove_on_failure.empty()) std::remove(remove_on_failure.c_str());
        wb::forget_temporary(slot);
        fail(path, 0, "cannot write: " + why);
    }
}

// Writes `text` to a temporary file beside `path` (remembered for Ctrl-C); returns its name.
// A `path` that exists and is not a regular file (a device such as /dev/stdout, a pipe) is
// written directly, since a rename would replace it: the name returned is then empty.
std::string write_temporary(const std::string& path, const std::string& text, int& slot) {
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode) && !S_ISDIR(info.st_mode)) {
        slot = -1;
        std::FILE* file = std::fopen(path.c_str(), "w");
        if (!file) fail(path, 0, std::string("cannot write: ") + std::strerror(errno));
        write_and_close(file, path, text, "", slot);
        return "";
    }
    const std::string temporary = wb::temporary_name(path);
    slot = wb::remember_temporary(temporary);
    std::FILE* file = std::fopen(temporary.c_str(), "w");
    if (!file) {
        wb::forget_temporary(slot);
        fail(path, 0, std::string("cannot write: ") + std::strerror(errno));
    }
    write_and_close(file, path, text, temporary, slot);
    return temporary;
}

// Writes several files all or nothing: every one goes to a temporary file first, and only when
// all are written are they renamed into place. A failure (or Ctrl-C) leaves none of them.
void write_all_or_nothing(const std::vector<std::pair<std::string, std::string>>& files) {
    std::vector<std::string> temporaries;
    std::vector<int> slots;
    auto discard = [&] {
        for (std::size_t i = 0; i < temporaries.size(); ++i) {
            if (!temporaries[i].empty()) std::remove(temporaries[i].c_str());
            wb::forget_temporary(slots[i]);
        }
    };
    try {
        for (const auto& [path, text] : files) {
            int slot = -1;
            temporaries.push_back(write_temporary(path, text, slot));
            slots.push_back(slot);
        }
    } catch (...) {
        discard();
        throw;
    }
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (temporaries[i].empty()) continue;  // written directly
        if (std::rename(temporaries[i].c_str(), files[i].first.c_str()) != 0) {
            const std::string why = std::strerror(errno);
            discard();
            fail(files[i].first, 0, "cannot write: " + why);
        }
        wb::forget_temporary(slots[i]);
    }
}

void write_atomically(const std::string& path, const std::string& text) { write_all_or_nothing({{path, text}}); }

std::string header_text(const Header& header) {
    char text[512];
    std::snprintf(text, sizeof text,
                  "ncols        %d\nnrows        %d\nxllcorner    %.10g\nyllcorner    %.10g\n"
                  "cellsize     %.10g\nNODATA_value %.10g\n",
                  header.cols, header.rows, header.xll, header.yll, header.cellsize, header.nodata);
    return text;
}

std::string values_text(const Header& header, const std::vector<double>& values) {
    std::string text;
    text.reserve(values.size() * 10);
    char number[64];
    for (int i = 0; i < header.rows; ++i) {
        for (int j = 0; j < header.cols; ++j) {
            std::snprintf(number, sizeof number, j + 1 < header.cols ? "%.6f " : "%.6f\n",
                          values[static_cast<std::size_t>(i) * header.cols + j]);
            text += number;
        }
    }
    return text;
}

std::string strip_suffix(const std::string& path, const std::string& suffix) {
    if (path.size() > suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0)
        return path.substr(0, path.size() - suffix.size());
    return path;
}

}  // namespace

Header read_header(const std::string& path) {
    require_regular_file(path, "header file");
    std::ifstream file(path);
    if (!file) fail(path, 0, "cannot open the header file");
    std::map<std::string, double> values;
    std::map<std::string, long> line_of;
    const char* keys[] = {"ncols", "nrows", "xllcorner", "yllcorner", "cellsize", "NODATA_value"};
    std::string line;
    long number = 0;
    while (std::getline(file, line)) {
        ++number;
        const auto tokens = tokens_of(line);
        if (tokens.empty()) continue;
        if (tokens.size() != 2) fail(path, number, "expected 'key value', found '" + line + "'");
        bool known = false;
        for (const char* key : keys) known = known || tokens[0] == key;
        if (!known) fail(path, number, "unknown key '" + tokens[0] + "'");
        double value = 0.0;
        if (!parse_number(tokens[1], value)) fail(path, number, "'" + tokens[1] + "' is not a number");
        values[tokens[0]] = value;
        line_of[tokens[0]] = number;
    }
    for (const char* key : keys)
        if (!values.count(key)) fail(path, 0, std::string("missing key '") + key + "'");
    Header header;
    for (const char* key : {"ncols", "nrows"}) {
        const double v = values[key];
        if (v != std::floor(v) || v < 1 || v > 100000)
            fail(path, line_of[key], std::string(key) + " must be a whole number in 1..100000");
    }
    header.cols = static_cast<int>(values["ncols"]);
    header.rows = static_cast<int>(values["nrows"]);
    header.xll = values["xllcorner"];
    header.yll = values["yllcorner"];
    header.cellsize = values["cellsize"];
    header.nodata = values["NODATA_value"];
    if (header.rows < 3 || header.cols < 3)
        fail(path, line_of[header.rows < 3 ? "nrows" : "ncols"],
             "grid " + std::to_string(header.rows) + " x " + std::to_string(header.cols) +
                 " is smaller than 3 x 3 (the border ring alone)");
    return header;
}

std::vector<double> read_values(const std::string& path, const Header& header) {
    require_regular_file(path, "values file");
    // Every value takes at least two bytes (a digit and a separator): a header that promises far
    // more values than the file can hold is wrong, and is caught before any memory is reserved.
    // (Small grids are read and get the exact line and count of what is missing.)
    const long long cells = static_cast<long long>(header.rows) * header.cols;
    const long long bytes = file_size(path);
    if (cells > 1000000 && bytes >= 0 && bytes < 2 * cells - 1)
        fail(path, 0,
             "the header promises " + std::to_string(header.rows) + " x " + std::to_string(header.cols) + " = " +
                 std::to_string(cells) + " values, but the file has only " + std::to_string(bytes) + " bytes");
    require_memory_for_grid(header.rows, header.cols, path);
    std::ifstream file(path);
    if (!file) fail(path, 0, "cannot open the values file");
    std::vector<double> values;
    values.reserve(static_cast<std::size_t>(header.rows) * header.cols);
    std::string line;
    long number = 0;
    int rows_read = 0;
    while (std::getline(file, line)) {
        ++number;
        const auto tokens = tokens_of(line);
        if (tokens.empty()) continue;
        if (rows_read == header.rows)
            fail(path, number, "more than the header's " + std::to_string(header.rows) + " rows");
        if (static_cast<int>(tokens.size()) != header.cols)
            fail(
                path, number,
                "expected " + std::to_string(header.cols) + " numbers (ncols), found " + std::to_string(tokens.size()));
        for (std::size_t t = 0; t < tokens.size(); ++t) {
            double value = 0.0;
            if (!parse_number(tokens[t], value))
                fail(path, number, "'" + tokens[t] + "' (column " + std::to_string(t + 1) + ") is not a number");
            values.push_back(value);
        }
        ++rows_read;
    }
    if (rows_read == 0)
        fail(path, 0,
             "the file is empty (expected " + std::to_string(header.rows) + " rows of " + std::to_string(header.cols) +
                 " numbers)");
    if (rows_read != header.rows)
        fail(path, number,
             "expected " + std::to_string(header.rows) + " rows (nrows), found " + std::to_string(rows_read));
    return values;
}

void require_memory_for_grid(long rows, long cols, const std::string& what) {
    const std::size_t needed = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols) * kBytesPerCell;
    const std::size_t available = wb::host_memory_bytes();
    if (available != 0 && needed > available / 2) {
        char text[256];
        std::snprintf(text, sizeof text,
                      "a %ld x %ld grid needs about %.1f GiB of memory to simulate; this machine has %.1f GiB "
                      "(at most about %.0f million cells fit)",
                      rows, cols, wb::gib(needed), wb::gib(available),
                      static_cast<double>(available / 2 / kBytesPerCell) / 1e6);
        fail(what, 0, text);
    }
}

void check_value_ranges(const Terrain& terrain, const std::string& prefix) {
    const int cols = terrain.header.cols;
    auto where = [&](std::size_t i) {
        return " at row " + std::to_string(i / cols + 1) + ", column " + std::to_string(i % cols + 1);
    };
    for (std::size_t i = 0; i < terrain.dem.size(); ++i)
        if (std::fabs(terrain.dem[i]) > kMaxAltitude)
            fail(prefix + "_dem.txt", static_cast<long>(i / cols + 1),
                 "altitude " + std::to_string(terrain.dem[i]) + where(i) + " is outside -" +
                     std::to_string(static_cast<int>(kMaxAltitude)) + ".." +
                     std::to_string(static_cast<int>(kMaxAltitude)) + " m");
    for (std::size_t i = 0; i < terrain.source.size(); ++i)
        if (terrain.source[i] < 0.0 || terrain.source[i] > kMaxThickness)
            fail(prefix + "_source.txt", static_cast<long>(i / cols + 1),
                 "debris thickness " + std::to_string(terrain.source[i]) + where(i) + " is outside 0.." +
                     std::to_string(static_cast<int>(kMaxThickness)) + " m");
}

bool terrain_exists(const std::string& prefix) {
    return file_exists(prefix + "_header.txt") && file_exists(prefix + "_dem.txt") &&
           file_exists(prefix + "_source.txt");
}

std::string tessina_prefix(const std::string& data_dir) {
    const std::string prefix = data_dir + "/sciddicat/tessina";
    return !data_dir.empty() && terrain_exists(prefix) ? prefix : "";
}

Terrain read_terrain(const std::string& prefix) {
    Terrain terrain;
    terrain.header = read_header(prefix + "_header.txt");
    terrain.dem = read_values(prefix + "_dem.txt", terrain.header);
    terrain.source = read_values(prefix + "_source.txt", terrain.header);
    check_value_ranges(terrain, prefix);
    const auto slash = prefix.find_last_of('/');
    terrain.name = slash == std::string::npos ? prefix : prefix.substr(slash + 1);
    return terrain;
}

void write_values(const std::string& path, const Header& header, const std::vector<double>& values) {
    write_atomically(path, values_text(header, values));
}

void write_header(const std::string& path, const Header& header) { write_atomically(path, header_text(header)); }

void write_terrain(const std::string& prefix, const Terrain& terrain) {
    write_all_or_nothing({{prefix + "_header.txt", header_text(terrain.header)},
                          {prefix + "_dem.txt", values_text(terrain.header, terrain.dem)},
                          {prefix + "_source.txt", values_text(terrain.header, terrain.source)}});
}

std::string result_header_path(const std::string& values_path) {
    return strip_suffix(values_path, ".txt") + "_header.txt";
}

std::string write_result(const std::string& values_path, const Header& header, const std::vector<double>& values) {
    const std::string stem = strip_suffix(values_path, ".txt");
    const std::string header_path = result_header_path(values_path);
    const std::string values_text_ = values_text(header, values);
    write_all_or_nothing({{values_path, values_text_},
                          {header_path, header_text(header)},
                          {stem + ".asc", header_text(header) + values_text_}});
    return header_path;
}

void require_writable(const std::string& path) {
    if (path.empty()) fail("(empty name)", 0, "an output file needs a name");
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) fail(path, 0, "is a folder, not a file name");
    wb::install_temporary_cleanup();
    const std::string probe = wb::temporary_name(path);
    std::FILE* file = std::fopen(probe.c_str(), "w");
    if (!file) fail(path, 0, std::string("cannot write here: ") + std::strerror(errno));
    std::fclose(file);
    std::remove(probe.c_str());
}

}  // namespace sciddicat
