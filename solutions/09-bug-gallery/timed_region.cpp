// Bug gallery, program timed-region: reference version.
#include "timed_region.h"

// >>> FIX: the time of the kernel alone, in milliseconds
double time_the_kernel(const ProductSteps& steps, const StopWatch& watch) {
    steps.allocate();
    steps.copy_inputs();
    watch.start();  // only the kernel between the two events
    steps.multiply();
    const double kernel_ms = watch.stop_ms();
    steps.copy_result();
    steps.release();
    return kernel_ms;
}
// <<< FIX
