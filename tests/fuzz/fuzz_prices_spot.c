/* `aws ec2 describe-spot-price-history` output: the input is the value of
 * SpotPriceHistory (an array of records, times in any ISO 8601 offset).
 * Contracts in prices_hook.h. */
#include "prices_hook.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_prices_import("{\"SpotPriceHistory\": ", data, size, FUZZ_RAW, "}\n", NULL, 0, false);
	return 0;
}
