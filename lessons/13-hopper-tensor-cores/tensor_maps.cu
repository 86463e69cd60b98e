// Lesson 13: the tensor maps of the kernels (see tensor_maps.h); wb/tensor_maps.h builds them.
#include "tensor_maps.h"

#include "wb/tensor_maps.h"

CUtensorMap make_tile_map(const __nv_bfloat16* matrix, int rows, int k, int tile_rows) {
    return wb::make_bf16_tile_map(matrix, rows, k, tile_rows);
}

CUtensorMap make_output_map(float* matrix, int rows, int cols, int chunk_rows) {
    return wb::make_swizzled_map(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, sizeof(float), matrix, rows, cols, kChunkCols,
                                 chunk_rows, CU_TENSOR_MAP_L2_PROMOTION_NONE, " float", "chunks");
}
