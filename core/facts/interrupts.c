#include "interrupts.h"

#include <stddef.h>

#define EC2_NOTICES "EC2 User Guide, Spot Instance interruption notices <https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/spot-instance-termination-notices.html>"

static const struct interrupt_figure facts[INT__COUNT] = {
	[INT_SPOT_NOTICE] = { 120, "s", "the notice before a spot instance is reclaimed",
			      EC2_NOTICES ": \"a warning that is issued two minutes before Amazon EC2 stops or terminates your Spot Instance\", emitted on a best-effort basis",
			      false },
	[INT_SPOT_POLL] = { 5, "s", "how often to poll for the notice",
			    EC2_NOTICES ": \"We recommend that you check for these interruption notices every 5 seconds\"",
			    false },
	/* The Advisor publishes bands per type and region, which cannot be
	 * looked up offline; large accelerator types are often in its top
	 * bands, so the default is the edge of the highest but one. */
	[INT_SPOT_RATE] = { 0.2, "per node-month", "spot nodes reclaimed per month",
			    "an assumption: the edge of the Spot Instance Advisor's 15-20% band (its \"Frequency of interruption\", the rate at which Spot reclaimed capacity during the trailing month, in bands <5%, 5-10%, 10-15%, 15-20%, >20%) <https://aws.amazon.com/ec2/spot/instance-advisor/>; set capacity.spot_interruption_rate to the Advisor's figure for the type and region",
			    true },
	[INT_SPOT_RETURN] = { 6, "h", "how long reclaimed spot capacity stays away",
			      "an assumption: no public figure; set capacity.spot_return_hours",
			      true },
	/* 419 / (54 days x 2,048 servers) */
	[INT_NODE_FAULTS] = { 419.0 / (54.0 * 2048.0), "per node-day", "interruptions by a failure of the run's own nodes",
			      "Llama Team, The Llama 3 Herd of Models (2024), section 3.3.4 and table 5: 419 unexpected interruptions in a 54-day snapshot of 16,384 H100 GPUs, 2,048 servers of 8 <https://arxiv.org/abs/2407.21783>; for other accelerators an assumption",
			      false },
	[INT_RESTART] = { 600, "s", "a restart besides loading the checkpoint",
			  "an assumption: starting the processes, the rendezvous and building the model, with the compile cache warm",
			  true },
	[INT_NOTICE_MARGIN] = { 15, "s", "left between a save on a notice and the instance's end",
				"the generated job's margin: the unit's processes exit and Slurm ends their step",
				true },
};

const struct interrupt_figure *interrupt_fact(enum interrupt_fact f)
{
	return (unsigned)f < INT__COUNT ? &facts[f] : NULL;
}
