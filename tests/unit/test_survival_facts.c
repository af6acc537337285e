/* The facts the checkpoint plan reads (core/facts): a Slurm time limit
 * as seconds, the write throughput of the shared file systems gen
 * creates, the interruption figures and whether each is an assumption,
 * a checkpoint's bytes per parameter by each framework's convention,
 * and the signals by the names people write them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "frameworks.h"
#include "interrupts.h"
#include "slurm_time.h"
#include "storage_io.h"

static double secs(const char *s)
{
	double v = -1;
	return slurm_time_seconds(s, strlen(s), &v) ? v : -1;
}

static void slurm_times(void **state)
{
	(void)state;
	assert_true(secs("90") == 90 * 60);          /* minutes */
	assert_true(secs("5:30") == 5 * 60 + 30);    /* MM:SS */
	assert_true(secs("2:05:30") == 2 * 3600 + 5 * 60 + 30);
	assert_true(secs("12-00:00:00") == 12 * 86400);
	assert_true(secs("1-2") == 86400 + 2 * 3600); /* D-HH */
	assert_true(secs("1-2:30") == 86400 + 2 * 3600 + 30 * 60);
	assert_true(secs("UNLIMITED") < 0);
	assert_true(secs("-1") < 0);
	assert_true(secs("1-2-3") < 0);
	assert_true(secs("1:2:3:4") < 0);
	assert_true(secs("12:") < 0);
	assert_true(secs("") < 0);
}

static void write_rates(void **state)
{
	(void)state;
	struct fs_rate r;
	/* 9,600 GiB of PERSISTENT_2 at 250 MB/s per TiB: 2,343.75 MB/s */
	assert_true(fs_write_rate(FS_FSX_LUSTRE, 9600, &r));
	assert_true(r.bytes_per_s == 2343.75e6);
	assert_non_null(strstr(r.source, "docs.aws.amazon.com/fsx"));
	assert_false(fs_write_rate(FS_FSX_LUSTRE, 0, &r));
	assert_true(fs_write_rate(FS_EFS, 100, &r) && r.bytes_per_s == 100 * 1048576.0);
	assert_true(fs_write_rate(FS_EBS, 100, &r) && r.bytes_per_s == 125 * 1048576.0);
}

static void interruption_figures(void **state)
{
	(void)state;
	assert_true(interrupt_fact(INT_SPOT_NOTICE)->value == 120 && !interrupt_fact(INT_SPOT_NOTICE)->assumption);
	assert_true(interrupt_fact(INT_SPOT_POLL)->value == 5);
	/* what no source gives says so */
	assert_true(interrupt_fact(INT_SPOT_RATE)->assumption);
	assert_true(interrupt_fact(INT_SPOT_RETURN)->assumption);
	assert_true(interrupt_fact(INT_RESTART)->assumption);
	/* 419 interruptions over 54 days of 2,048 servers */
	double f = interrupt_fact(INT_NODE_FAULTS)->value;
	assert_true(f > 0.00378 && f < 0.00380);
	for (int i = 0; i < INT__COUNT; i++) {
		const struct interrupt_figure *x = interrupt_fact((enum interrupt_fact)i);
		assert_non_null(x->source);
		assert_true(x->assumption || strstr(x->source, "https://"));
	}
	assert_null(interrupt_fact(INT__COUNT));
}

static void checkpoint_bytes(void **state)
{
	(void)state;
	/* Megatron: bf16 weights + fp32 main weights and two moments */
	assert_true(fw_checkpoint_bytes_per_param(FW_MEGATRON, 1) == 14);
	assert_true(fw_checkpoint_bytes_per_param(FW_MEGATRON, 0) == 14);
	/* torchtitan: fp32 weights and two moments */
	assert_true(fw_checkpoint_bytes_per_param(FW_TORCHTITAN, 3) == 12);
	assert_true(fw_checkpoint_bytes_per_param(FW_NXD, 1) == 14);
}

static void signals(void **state)
{
	(void)state;
	assert_int_equal(fw_signal_number("SIGUSR1", 7), 10);
	assert_int_equal(fw_signal_number("USR1", 4), 10);
	assert_int_equal(fw_signal_number("usr2", 4), 12);
	assert_int_equal(fw_signal_number("15", 2), 15);
	assert_int_equal(fw_signal_number("TERM@600", 4), 15);
	assert_int_equal(fw_signal_number("SIGFOO", 6), 0);
	assert_int_equal(fw_signal_number("", 0), 0);
	assert_int_equal(fw_signal_number("99", 2), 0);
	assert_string_equal(fw_signal_name(10), "SIGUSR1");
	assert_null(fw_signal_name(63));
	/* what gen writes for Megatron is what its flag takes and the watcher sends */
	const struct fw_checkpoint *m = fw_checkpoint(FW_MEGATRON, 0);
	assert_int_equal(fw_signal_number(m->signal_written, strlen(m->signal_written)), m->signal_number);
	assert_non_null(m->saved_marker);
	assert_null(m->resize_flag);
	const struct fw_checkpoint *t = fw_checkpoint(FW_TORCHTITAN, 1);
	assert_null(t->signal_switch);
	assert_string_equal(t->resize_flag, "--checkpoint.exclude_from_loading");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(slurm_times),
		cmocka_unit_test(write_rates),
		cmocka_unit_test(interruption_figures),
		cmocka_unit_test(checkpoint_bytes),
		cmocka_unit_test(signals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
