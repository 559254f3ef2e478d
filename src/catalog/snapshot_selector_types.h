// (temporary in this branch until the catalog split lands)
#pragma once
#include "catalog/snapshot_selector.h"
