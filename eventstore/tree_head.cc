#include "eventstore/tree_head.h"
