# A GPU that another job already fills: each program must then end with "error: ... needs X GiB
# of device memory; only Y of Z GiB are free" and exit 2, never crash or print garbage.
# hold-device-memory takes a share of the free device memory and runs the program meanwhile.
# Included after the lessons (it names their programs); the GPU check runs these (label gpu).
set(_hold "$<TARGET_FILE:hold-device-memory>")
set(_full_message "needs [0-9.]+ GiB of device memory; only [0-9.]+ of [0-9.]+ GiB are free")
if(TARGET 02-naive-matmul-solution)
  # 3 x 20000^2 doubles: 8.9 GiB, with 5 % of the free memory left.
  workbook_expect_error(NAME common.gpu-limits.full-device-02-naive MESSAGE "${_full_message}"
    COMMAND hold-device-memory 0.95 $<TARGET_FILE:02-naive-matmul-solution> --check --sizes 20000
    LABELS "gpu;solution;common")
endif()
if(TARGET 07-toward-cublas-solution)
  workbook_expect_error(NAME common.gpu-limits.full-device-07-toward-cublas MESSAGE "${_full_message}"
    COMMAND hold-device-memory 0.99 $<TARGET_FILE:07-toward-cublas-solution> --check --sizes 8192
    LABELS "gpu;solution;common")
endif()
if(TARGET 08-sciddicat-multigpu-solution)
  # A 20000 x 20000 SciddicaT grid on one rank (several GiB), with 10 % of the memory left.
  workbook_expect_error(NAME common.gpu-limits.grid-larger-than-free-device-memory MESSAGE "${_full_message}"
    COMMAND hold-device-memory 0.9 $<TARGET_FILE:08-sciddicat-multigpu-solution> --check --sizes 20000x20000
            --no-tessina --steps 1
    LABELS "gpu;solution;common" TIMEOUT 300)
endif()
workbook_expect_error(NAME common.gpu-limits.hold-rejects-bad-fraction MESSAGE "FRACTION must be between 0 and 1"
  COMMAND hold-device-memory 1.5 true LABELS "cpu;unit;common")
