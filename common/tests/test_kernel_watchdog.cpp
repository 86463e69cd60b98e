// How a check's wait for a kernel ends (wb::kernel_wait_end): no GPU needed, the outcome of the
// wait is given.
#include "wb/exit_codes.h"
#include "wb/kernel_watchdog.h"

#include <gtest/gtest.h>

#include <string>

namespace {

const wb::StuckKernelText kText{"its pipeline is deadlocked", "The usual cause is an extra arrival.",
                                "See the hints on the lesson 13 page."};

wb::KernelWaitEnd fault_in_check(cudaError_t fault, const wb::StuckKernelText& text = kText) {
    return wb::kernel_wait_end("03-warp-specialized", 10.0, wb::DeviceWait::faulted, fault, true, text);
}

TEST(KernelWaitEnd, FinishedGoesOn) {
    const wb::KernelWaitEnd end = wb::kernel_wait_end("k", 10.0, wb::DeviceWait::finished, cudaSuccess, true, kText);
    EXPECT_EQ(end.exit_code, wb::kExitPass);
    EXPECT_EQ(end.report, "");
}

TEST(KernelWaitEnd, StillRunningFailsTheCheckWithTheLessonsWords) {
    const wb::KernelWaitEnd end =
        wb::kernel_wait_end("03-warp-specialized", 10.0, wb::DeviceWait::still_running, cudaSuccess, true, kText);
    EXPECT_EQ(end.exit_code, 1);
    EXPECT_EQ(end.report, "  03-warp-specialized  did not finish within 10 s: its pipeline is deadlocked.\n"
                          "FAILED: 03-warp-specialized never finished. See the hints on the lesson 13 page.\n");
}

TEST(KernelWaitEnd, StillRunningFailsOutsideACheckToo) {
    // A benchmark has no overall time limit: a kernel that never ends must not hold it forever.
    const wb::KernelWaitEnd end =
        wb::kernel_wait_end("k", 10.0, wb::DeviceWait::still_running, cudaSuccess, false, kText);
    EXPECT_EQ(end.exit_code, wb::kExitCheckFailed);
}

TEST(KernelWaitEnd, FaultInACheckFailsTheCheckWithTheLessonsWords) {
    const wb::KernelWaitEnd end = fault_in_check(cudaErrorLaunchFailure);
    EXPECT_EQ(end.exit_code, wb::kExitCheckFailed);
    EXPECT_EQ(end.report,
              "  03-warp-specialized  stopped with a fault (unspecified launch failure). The usual cause is an "
              "extra arrival.\n"
              "FAILED: 03-warp-specialized stopped with a fault. See the hints on the lesson 13 page.\n");
}

TEST(KernelWaitEnd, EveryKernelFaultFailsTheCheck) {
    for (cudaError_t fault : {cudaErrorIllegalAddress, cudaErrorMisalignedAddress, cudaErrorInvalidAddressSpace,
                              cudaErrorHardwareStackError, cudaErrorAssert, cudaErrorIllegalInstruction,
                              cudaErrorInvalidPc, cudaErrorLaunchFailure, cudaErrorLaunchTimeout}) {
        EXPECT_TRUE(wb::is_kernel_fault(fault)) << cudaGetErrorName(fault);
        const wb::KernelWaitEnd end = fault_in_check(fault);
        EXPECT_EQ(end.exit_code, wb::kExitCheckFailed) << cudaGetErrorName(fault);
        EXPECT_NE(end.report.find(cudaGetErrorString(fault)), std::string::npos) << end.report;
    }
}

TEST(KernelWaitEnd, FaultOutsideACheckIsACudaError) {
    const wb::KernelWaitEnd end =
        wb::kernel_wait_end("k", 10.0, wb::DeviceWait::faulted, cudaErrorIllegalAddress, false, kText);
    EXPECT_EQ(end.exit_code, 3);
    EXPECT_EQ(end.report, "");
}

TEST(KernelWaitEnd, OtherErrorsStayCudaErrorsInACheck) {
    for (cudaError_t err : {cudaErrorMemoryAllocation, cudaErrorInvalidConfiguration, cudaErrorLaunchOutOfResources,
                            cudaErrorNoKernelImageForDevice, cudaErrorECCUncorrectable, cudaErrorInvalidValue}) {
        EXPECT_FALSE(wb::is_kernel_fault(err)) << cudaGetErrorName(err);
        EXPECT_EQ(fault_in_check(err).exit_code, wb::kExitCudaError) << cudaGetErrorName(err);
    }
}

TEST(KernelWaitEnd, WithoutTheLessonsWordsTheFaultsUsualCause) {
    wb::StuckKernelText text = kText;
    text.fault = "";
    const std::string report = fault_in_check(cudaErrorIllegalAddress, text).report;
    EXPECT_NE(report.find("(an illegal memory access was encountered). The usual cause is an\n"
                          "                       index outside an array"),
              std::string::npos)
        << report;
    EXPECT_NE(fault_in_check(cudaErrorMisalignedAddress, text).report.find("vector access (float4"), std::string::npos);
}

TEST(KernelWaitEnd, GeneralWordsNameTheLikelyCauses) {
    // Outside lesson_main's check no lesson page is known: the verdict ends at its period.
    const wb::KernelWaitEnd end = wb::kernel_wait_end("matmul_tiled_kernel", 20.0, wb::DeviceWait::still_running,
                                                      cudaSuccess, true, wb::general_kernel_text());
    EXPECT_EQ(end.report,
              "  matmul_tiled_kernel  did not finish within 20 s: a loop that runs far too many times (a bound\n"
              "                       multiplied where it should be divided) or never ends, or threads waiting\n"
              "                       for something that never comes (each case needs well under a second).\n"
              "FAILED: matmul_tiled_kernel never finished.\n");
}

TEST(KernelWaitEnd, LongNamesAreNotCut) {
    const wb::KernelWaitEnd end = wb::kernel_wait_end("single_pass_scan_kernel (tiles of 128)", 20.0,
                                                      wb::DeviceWait::still_running, cudaSuccess, true, kText);
    EXPECT_EQ(end.report.rfind("  single_pass_scan_kernel (tiles of 128) did not finish within 20 s: ", 0), 0u)
        << end.report;
}

}  // namespace
