#include "eventstore/event_record.h"
