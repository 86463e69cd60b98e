// Building TMA tensor maps (see wb/tensor_maps.h).
#include "wb/tensor_maps.h"

#include "wb/driver_entry.h"
#include "wb/lesson.h"

#include <cuda_runtime.h>
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled

#include <string>

namespace wb {

namespace {

// cuTensorMapEncodeTiled belongs to the driver API (wb/driver_entry.h finds it).
PFN_cuTensorMapEncodeTiled_v12000 encode_function() {
    static PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
        void* function = driver_entry_point("cuTensorMapEncodeTiled", 12000);
        if (function == nullptr)
            throw InputError("this driver has no cuTensorMapEncodeTiled (TMA needs a CUDA 12 driver or newer)");
        return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
    }();
    return encode;
}

}  // namespace

CUtensorMap make_swizzled_map(CUtensorMapDataType type, std::size_t element_bytes, void* matrix, int rows, int cols,
                              int box_cols, int box_rows, CUtensorMapL2promotion promotion, const char* kind,
                              const char* boxes) {
    CUtensorMap map{};
    // Dimensions and box sizes are listed innermost first: the columns (contiguous), then rows.
    const cuuint64_t size[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
    const cuuint64_t row_bytes[1] = {static_cast<cuuint64_t>(cols) * element_bytes};
    const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_cols), static_cast<cuuint32_t>(box_rows)};
    const cuuint32_t element_steps[2] = {1, 1};
    const CUresult result =
        encode_function()(&map, type, 2, matrix, size, row_bytes, box, element_steps, CU_TENSOR_MAP_INTERLEAVE_NONE,
                          CU_TENSOR_MAP_SWIZZLE_128B, promotion, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (result != CUDA_SUCCESS)
        throw InputError("cuTensorMapEncodeTiled refused a " + std::to_string(rows) + " x " + std::to_string(cols) +
                         kind + " map with " + std::to_string(box_rows) + "-row " + boxes + " (CUresult " +
                         std::to_string(static_cast<int>(result)) + ")");
    return map;
}

CUtensorMap make_bf16_tile_map(const void* matrix, int rows, int cols, int tile_rows) {
    return make_swizzled_map(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<void*>(matrix), rows, cols,
                             kSwizzledBf16Cols, tile_rows, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, "", "tiles");
}

}  // namespace wb
