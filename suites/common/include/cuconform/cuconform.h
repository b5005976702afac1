// Everything a test file needs.
#pragma once

#include "cuconform/buffer.h"
#include "cuconform/check.h"
#include "cuconform/compare.h"
#include "cuconform/compiler.h"
#include "cuconform/device.h"
#include "cuconform/documented.h"
#include "cuconform/gate.h"
#include "cuconform/metric.h"
#include "cuconform/profile.h"
#include "cuconform/rule.h"
#ifdef __CUDACC__
#include "cuconform/launch.h"
#endif
