/* `aws pricing get-products` output: each PriceList item is a product
 * written as a JSON string, parsed a second time. The input is one item's
 * text, escaped into {"PriceList": ["..."]}, so the fuzzer works on the
 * inner document. Contracts in prices_hook.h. */
#include "prices_hook.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_prices_import("{\"FormatVersion\": \"aws_v1\", \"PriceList\": [\"", data, size, FUZZ_JSON_STRING,
			   "\"]}\n", NULL, 0, false);
	return 0;
}
