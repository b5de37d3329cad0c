#include "eventstore/merkle.h"
