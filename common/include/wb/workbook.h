/// @file workbook.h
/// @brief Everything a lesson driver needs, in one include.
#pragma once

#include "wb/args.h"
#include "wb/compare.h"
#include "wb/csv.h"
#include "wb/cuda_check.h"
#include "wb/device.h"
#include "wb/sm_limit.h"
#include "wb/device_buffer.h"
#include "wb/exit_codes.h"
#include "wb/lesson.h"
#include "wb/random.h"
#include "wb/rates.h"
#include "wb/timer.h"
