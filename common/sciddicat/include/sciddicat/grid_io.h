/// @file grid_io.h
/// @brief SciddicaT grid files: the ESRI ASCII header, values files, whole terrains and results.
///
/// A terrain PREFIX is three files: PREFIX_header.txt (the six keys ncols, nrows, xllcorner,
/// yllcorner, cellsize, NODATA_value), PREFIX_dem.txt (altitude) and PREFIX_source.txt (initial
/// debris thickness), each values file nrows lines of ncols numbers.
#pragma once

#include "wb/lesson.h"

#include <string>
#include <vector>

namespace sciddicat {

/// Grid geometry as in an ESRI ASCII header.
struct Header {
    int cols = 0;             ///< ncols
    int rows = 0;             ///< nrows
    double xll = 0.0;         ///< xllcorner
    double yll = 0.0;         ///< yllcorner
    double cellsize = 1.0;    ///< cellsize (m)
    double nodata = -9999.0;  ///< NODATA_value
};

/// A malformed, missing or unwritable file; what() names the file and, where known, the line.
/// A wb::InputError, so that wb::lesson_main reports it as "error: ..." with exit code 2.
class InputError : public wb::InputError {
public:
    using wb::InputError::InputError;
};

/// One simulation input: header, altitude (DEM, including the debris) and initial thickness.
/// (sciddicat/terrain.h builds synthetic ones and the initial state.)
struct Terrain {
    Header header;               ///< geometry
    std::vector<double> dem;     ///< altitude of each cell (m)
    std::vector<double> source;  ///< initial debris thickness (m)
    std::string name;            ///< e.g. "tessina" or "synthetic"
};

/// Reads a header file with the six keys (any order). Throws InputError.
Header read_header(const std::string& path);
/// Reads rows lines of cols numbers. Throws InputError (too few/many numbers, bad tokens).
std::vector<double> read_values(const std::string& path, const Header& header);

/// Reads PREFIX_header.txt, PREFIX_dem.txt and PREFIX_source.txt; the grid must be at least
/// 3 x 3, altitudes within +-100 km and debris thicknesses within 0..10 km (anything else is a
/// typing error). Throws InputError.
Terrain read_terrain(const std::string& prefix);
/// True when all three files of PREFIX exist.
bool terrain_exists(const std::string& prefix);

/// The prefix of the real tessina grid (DATA_DIR/sciddicat/tessina) when DATA_DIR holds its three
/// files, else "" (no data dir given, or the data is absent: tests that need it skip).
std::string tessina_prefix(const std::string& data_dir);

/// Throws InputError, saying what was asked and what fits, when a rows x cols grid cannot be
/// simulated in this machine's memory. Called before anything is reserved.
void require_memory_for_grid(long rows, long cols, const std::string& what);

/// Throws InputError unless `path` can be written (a name, not a folder, in a writable folder).
/// Call it before long work, so that an output error is found before the work, not after.
/// Also installs the handler that removes half-written temporary files on Ctrl-C.
void require_writable(const std::string& path);
/// The header path that write_result writes beside VALUES_PATH.
std::string result_header_path(const std::string& values_path);

/// Writes values (rows lines of cols numbers) atomically: to a temporary file, then renamed.
/// Throws InputError on failure, leaving no partial file.
void write_values(const std::string& path, const Header& header, const std::vector<double>& values);
/// Writes the header file atomically (same format as the inputs).
void write_header(const std::string& path, const Header& header);
/// Writes PREFIX_header.txt, PREFIX_dem.txt and PREFIX_source.txt, all or none.
void write_terrain(const std::string& prefix, const Terrain& terrain);
/// Writes a result grid: VALUES_PATH (values only), its header beside it (".txt" replaced by
/// "_header.txt", or "_header.txt" appended) and a one-file ESRI grid VALUES_PATH's stem + ".asc"
/// that GIS tools open directly; all three or none (a failure or Ctrl-C leaves nothing). Returns
/// the header's path.
std::string write_result(const std::string& values_path, const Header& header, const std::vector<double>& values);

}  // namespace sciddicat
