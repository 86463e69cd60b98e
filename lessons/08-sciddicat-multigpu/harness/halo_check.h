/// @file halo_check.h
/// @brief Lesson 08 harness: the halo exchange checked on its own, one exchange of rows whose
/// values say where they come from.
#pragma once

#include "decomposition.h"

/// Fills this rank's owned rows with their global position (row * 1e6 + column, exact in a
/// double) and its halo rows with -1, calls exchange_halos once and checks that each halo row
/// now holds the neighbour's edge row it stands for (a rank without a neighbour on one side
/// keeps -1 there). Each rank prints its first wrong value, e.g.
/// `rank 1: halo row 499 (from rank 0) [3] = -1 (expected 499000003)`; true on every rank when
/// every rank's halos are right.
bool check_one_exchange(const Subdomain& sub, ncclComm_t comm);
