/* `prices import` of a CSV file: the Price List bulk offer file for
 * AmazonEC2 and the Savings Plans offer files (core/prices/import_csv.c
 * over csvscan.c), the input being the whole file. Contracts in
 * prices_hook.h: all or nothing, a malformed file named with its line. */
#include "prices_hook.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_prices_import("", data, size, FUZZ_RAW, "", NULL, 0, false);
	return 0;
}
