#include "eventstore/merkle.h"

#include <gtest/gtest.h>
