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

#include <unistd.h>

namespace sciddicat {

namespace {

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

// Writes `text` to path via a temporary file in the same folder and a rename, so that readers
// never see a half-written file and a failure leaves nothing behind.
void write_atomically(const std::string& path, const std::string& text) {
    const std::string temporary = path + ".tmp." + std::to_string(::getpid());
    std::FILE* file = std::fopen(temporary.c_str(), "w");
    if (!file) fail(path, 0, std::string("cannot write: ") + std::strerror(errno));
    const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
    const bool closed = std::fclose(file) == 0;
    if (!written || !closed || std::rename(temporary.c_str(), path.c_str()) != 0) {
        std::remove(temporary.c_str());
        fail(path, 0, "write failed");
    }
}

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
    if (rows_read != header.rows)
        fail(path, number,
             "expected " + std::to_string(header.rows) + " rows (nrows), found " + std::to_string(rows_read));
    return values;
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
    const auto slash = prefix.find_last_of('/');
    terrain.name = slash == std::string::npos ? prefix : prefix.substr(slash + 1);
    return terrain;
}

void write_values(const std::string& path, const Header& header, const std::vector<double>& values) {
    write_atomically(path, values_text(header, values));
}

void write_header(const std::string& path, const Header& header) { write_atomically(path, header_text(header)); }

void write_terrain(const std::string& prefix, const Terrain& terrain) {
    write_header(prefix + "_header.txt", terrain.header);
    write_values(prefix + "_dem.txt", terrain.header, terrain.dem);
    write_values(prefix + "_source.txt", terrain.header, terrain.source);
}

std::string write_result(const std::string& values_path, const Header& header, const std::vector<double>& values) {
    const std::string stem = strip_suffix(values_path, ".txt");
    const std::string header_path = stem + "_header.txt";
    write_values(values_path, header, values);
    write_header(header_path, header);
    write_atomically(stem + ".asc", header_text(header) + values_text(header, values));
    return header_path;
}

}  // namespace sciddicat
