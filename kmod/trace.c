// SPDX-License-Identifier: GPL-2.0
/*
 * The one place the eqds tracepoints (trace.h) are defined.
 */
#define CREATE_TRACE_POINTS
#include "trace.h"
