/* `prices import` of a JSON file: the Price List and Savings Plans offer
 * files as JSON (core/prices/import_json.c over jsonscan.c; products,
 * then terms, or terms first and a second pass), the input being the
 * whole file. Contracts in prices_hook.h. */
#include "prices_hook.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_prices_import("", data, size, FUZZ_RAW, "", NULL, 0, false);
	return 0;
}
