// What the histogram instantiation files share.
#pragma once

#include "bkt/histogram.cuh"
#include "bkt/types.hpp"
