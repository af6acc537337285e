/* `aws ec2 describe-instance-types` output: the input is the value of
 * InstanceTypes; what it holds extends or corrects the catalog, which
 * price_find then reads through the store (catalog_overlay.c).
 * Contracts in prices_hook.h. */
#include "prices_hook.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_prices_import("{\"InstanceTypes\": ", data, size, FUZZ_RAW, "}\n", NULL, 0, false);
	return 0;
}
