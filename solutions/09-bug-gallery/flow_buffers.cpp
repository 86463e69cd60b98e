// Bug gallery, program border-ring: reference version. The border ring is never computed but
// is read by its neighbours' width update, so every cell of every layer starts at zero.
#include "flow_buffers.h"

// >>> FIX: flows that start at zero, so the thickness stays right up to the grid's edge
void init_flows(double* flows, int rows, int cols) {
    const long cells = static_cast<long>(kFlowLayers) * rows * cols;
    for (long k = 0; k < cells; ++k) flows[k] = 0.0;
}
// <<< FIX
