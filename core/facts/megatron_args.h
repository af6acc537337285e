/* The flags every Megatron-LM entry point (pretrain_gpt.py and the
 * others) shares: they all parse one argument set, built in
 * megatron/training/arguments.py (docs/frameworks.md, "Megatron-LM's
 * flags"). The table is of one commit; flags added later are not in it,
 * so a flag outside it is only reported when it is a near miss of one in it. */
#ifndef TF_MEGATRON_ARGS_H
#define TF_MEGATRON_ARGS_H

#include <stdbool.h>
#include <stddef.h>

struct megatron_flag {
	const char *name;  /* "--log-interval" */
	size_t len;        /* of name */
	bool is_switch;    /* store_true or store_false: takes no value */
};

/* flag[0..len), exactly; NULL when the table lacks it. */
const struct megatron_flag *megatron_flag_find(const char *flag, size_t len);
/* The table's flag a flag outside it misspells (the same but for - and
 * _, or one edit away, two for long flags, with no other as near), or NULL. */
const struct megatron_flag *megatron_flag_near(const char *flag);
size_t megatron_flag_count(void);
const struct megatron_flag *megatron_flag_at(size_t i);

#endif
