// Bug gallery, program border-ring. After a few steps the debris thickness next to the
// grid's edge is wrong: find out why.   scripts/check 09-bug-gallery.border-ring
// Hints: docs page "Lesson 09: bug gallery", or  scripts/progress hint 09-bug-gallery.border-ring
#include "flow_buffers.h"

// >>> FIX: flows that start at zero, so the thickness stays right up to the grid's edge
void init_flows(double* flows, int rows, int cols) {
    // Every step recomputes the outflows of the active cells (rows 1..rows-2, columns
    // 1..cols-2), so start them from zero like the reset pass does.
    for (int layer = 0; layer < kFlowLayers; ++layer)
        for (int i = 1; i < rows - 1; ++i)
            for (int j = 1; j < cols - 1; ++j) flows[flow_index(layer, i, j, rows, cols)] = 0.0;
}
// <<< FIX
