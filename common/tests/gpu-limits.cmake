# A GPU that another job already fills: each program must then end with "error: ... needs X GiB
# of device memory; only Y of Z GiB are free" and exit 2, never crash or print garbage.
# hold-device-memory takes a share of the free device memory and runs the program meanwhile.
# Included after the lessons (it names their programs); the GPU check runs these (label gpu).
# They run alone (RUN_SERIAL): memory held here must not starve another test's GPU program.
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
  # A 12000 x 12000 SciddicaT grid on one rank (3.2 GiB of state), with 3 % of the memory left.
  workbook_expect_error(NAME common.gpu-limits.grid-larger-than-free-device-memory MESSAGE "${_full_message}"
    COMMAND hold-device-memory 0.97 $<TARGET_FILE:08-sciddicat-multigpu-solution> --check --sizes 12000x12000
            --no-tessina --steps 1
    LABELS "gpu;solution;common" TIMEOUT 300)
endif()
if(TARGET 03-tiled-matmul-solution)
  # Almost nothing left: not even room for the program's CUDA context.
  workbook_expect_error(NAME common.gpu-limits.no-room-to-start
    MESSAGE "too little free memory to start this program"
    COMMAND hold-device-memory 0.9995 $<TARGET_FILE:03-tiled-matmul-solution> --check --sizes 2000
    LABELS "gpu;solution;common")
endif()
workbook_expect_error(NAME common.gpu-limits.hold-rejects-bad-fraction MESSAGE "FRACTION must be between 0 and 1"
  COMMAND hold-device-memory 1.5 true LABELS "cpu;unit;common")
foreach(_test common.gpu-limits.full-device-02-naive common.gpu-limits.full-device-07-toward-cublas
               common.gpu-limits.grid-larger-than-free-device-memory common.gpu-limits.no-room-to-start)
  if(TEST ${_test})
    set_tests_properties(${_test} PROPERTIES RUN_SERIAL TRUE)
  endif()
endforeach()
