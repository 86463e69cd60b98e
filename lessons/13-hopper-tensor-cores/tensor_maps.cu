// Lesson 13: building TMA tensor maps (see tensor_maps.h).
#include "tensor_maps.h"

#include "wb/workbook.h"

#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled

#include <string>

namespace {

// cuTensorMapEncodeTiled belongs to the driver API. The runtime hands out its address, so the
// course need not link the driver library (libcuda) itself.
PFN_cuTensorMapEncodeTiled_v12000 encode_function() {
    static PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
        void* function = nullptr;
        cudaDriverEntryPointQueryResult found{};
        WB_CUDA_CHECK(
            cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, &found));
        if (found != cudaDriverEntryPointSuccess || function == nullptr)
            throw wb::InputError("this driver has no cuTensorMapEncodeTiled (TMA needs a CUDA 12 driver or newer)");
        return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
    }();
    return encode;
}

}  // namespace

CUtensorMap make_tile_map(const __nv_bfloat16* matrix, int rows, int k, int tile_rows) {
    CUtensorMap map{};
    // Dimensions and box sizes are listed innermost first: k (contiguous), then rows.
    const cuuint64_t size[2] = {static_cast<cuuint64_t>(k), static_cast<cuuint64_t>(rows)};
    const cuuint64_t row_bytes[1] = {static_cast<cuuint64_t>(k) * sizeof(__nv_bfloat16)};
    const cuuint32_t box[2] = {static_cast<cuuint32_t>(kTileK), static_cast<cuuint32_t>(tile_rows)};
    const cuuint32_t element_steps[2] = {1, 1};
    const CUresult result =
        encode_function()(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<__nv_bfloat16*>(matrix), size,
                          row_bytes, box, element_steps, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                          CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (result != CUDA_SUCCESS)
        throw wb::InputError("cuTensorMapEncodeTiled refused a " + std::to_string(rows) + " x " + std::to_string(k) +
                             " map with " + std::to_string(tile_rows) + "-row tiles (CUresult " +
                             std::to_string(static_cast<int>(result)) + ")");
    return map;
}

CUtensorMap make_output_map(float* matrix, int rows, int cols, int chunk_rows) {
    CUtensorMap map{};
    const cuuint64_t size[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
    const cuuint64_t row_bytes[1] = {static_cast<cuuint64_t>(cols) * sizeof(float)};
    const cuuint32_t box[2] = {static_cast<cuuint32_t>(kChunkCols), static_cast<cuuint32_t>(chunk_rows)};
    const cuuint32_t element_steps[2] = {1, 1};
    const CUresult result = encode_function()(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, matrix, size, row_bytes, box,
                                              element_steps, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                              CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (result != CUDA_SUCCESS)
        throw wb::InputError("cuTensorMapEncodeTiled refused a " + std::to_string(rows) + " x " + std::to_string(cols) +
                             " float map with " + std::to_string(chunk_rows) + "-row chunks (CUresult " +
                             std::to_string(static_cast<int>(result)) + ")");
    return map;
}
