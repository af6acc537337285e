#!/bin/sh
# A mixed reserved + spot fleet: the plan's checks at the smallest and the
# largest fleet, the accumulation at each, the costs of both fleets and
# what a lost spot node costs; the files gen writes for it (two queues, a
# job that trains in rounds with its spot units as jobs of their own, the
# spot watcher), clean under the linter and under shellcheck too. Prints
# RESULT lines.
# shellcheck disable=SC2015,SC2016 # patterns match the script's own $VARS
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/plan/lib.sh
. tests/plan/lib.sh
err_has() { has "$1" "$2" "$t/err"; } # name, pattern: the last command's stderr

# ---- the plan ------------------------------------------------------------
expect_rc p5-plans 0 "$TF" plan -v --format json $S/fleet-p5.yaml
check p5-both-ends '
assert (f["reserved"], f["spot"]) == (2, 2), f
assert d["nodes"] == 4 and d["data"] == 4 and d["microBatchesPerStep"] == 6, d
assert f["smallest"] == {"nodes": 2, "world": 16, "data": 2, "microBatchesPerStep": 12}, f["smallest"]
assert f["countsThatCannotTrain"] == 0 and f["maxRestarts"] == 2, f
assert f["spotStrategy"] == "price-capacity-optimized", f'
check p5-costs '
od = d["estimates"][0]["cost"]["onDemand"]["usdPerNodeHour"]
assert abs(f["reservedUsdPerHour"] - 2 * od) < 1e-6, (f, od)
assert abs(f["spotUsdPerHour"] - 2 * od * 0.5) < 1e-6, (f, od)
assert abs(f["usdPerHour"] - 3 * od) < 1e-6
assert abs(f["blendedUsdPerNodeHour"] - 0.75 * od) < 1e-6'
check p5-lost-node '
assert (f["spotUnitNodes"], f["spotUnits"]) == (1, 2), f
assert f["afterOneLossNodes"] == 3, f
assert abs(f["stepFactorOneLoss"] - 4 / 3) < 1e-9 and f["stepFactorAllLost"] == 2, f'
"$TF" plan -v $S/fleet-p5.yaml >"$t/out" 2>&1
grep -q 'smallest fleet   2 nodes x 8 = world 16 -> DP 2; micro 1 x DP 2 x 12 micro-batches = global 24' "$t/out" \
	&& ok p5-text-accumulation || { no p5-text-accumulation; cat "$t/out"; }
grep -q 'spot loss        step .* at 3 nodes (one spot unit of 1 lost).*one unit adds [0-9.]* h to the' "$t/out" \
	&& ok p5-text-loss-hours || no p5-text-loss-hours

expect_rc reference-plans 0 "$TF" plan -v --format json examples/jobs/moe-176b-trn2-mixed.yaml
check reference-fleet '
assert f["smallest"]["data"] == 96 and f["smallest"]["microBatchesPerStep"] == 16, f
assert d["data"] == 128 and d["microBatchesPerStep"] == 12, d
assert f["countsThatCannotTrain"] == 15 and f["afterOneLossNodes"] == 48, f
assert (f["spotUnitNodes"], f["spotUnits"]) == (16, 1), f
# trn2.48xlarge has no on-demand price (only Capacity Block rates), so
# neither the on-demand reserved nodes nor the discounted spot ones do.
assert f["reservedUsdPerHour"] is None and f["spotUsdPerHour"] is None, f'
# What the plan says the reference job does when one spot node goes.
"$TF" plan -v examples/jobs/moe-176b-trn2-mixed.yaml >"$t/out" 2>&1
grep -q '^  spot units       one unit of all 16 spot nodes' "$t/out" && grep -q '^  spot loss        a reclaim notice for one spot node stops all 16 .*training goes on at 48 nodes from the latest checkpoint' "$t/out" \
	&& ok reference-spot-loss-line || { no reference-spot-loss-line; cat "$t/out"; }

# Groups: the smallest unit at which every count trains.
expect_rc groups-plans 0 "$TF" plan -v --format json $S/fleet-groups.yaml
check groups-unit '
assert (f["spotUnitNodes"], f["spotUnits"]) == (2, 2), f
assert f["countsThatCannotTrain"] == 2 and f["afterOneLossNodes"] == 4, f
assert f["stepFactorOneLoss"] == 1.5 and f["stepFactorAllLost"] == 3, f'
"$TF" plan -v $S/fleet-groups.yaml >"$t/out" 2>&1
grep -q '^  spot units       2 groups of 2 nodes' "$t/out" && grep -q 'stops its group of 2 .*training goes on at 4 nodes' "$t/out" \
	&& ok groups-spot-loss-line || { no groups-spot-loss-line; cat "$t/out"; }
grep -q 'JS2014' "$t/out" && no groups-layout-unit-no-js2014 || ok groups-layout-unit-no-js2014

expect_rc capacity-block-plans 0 "$TF" plan -v --format json $S/fleet-capacity-block.yaml
check capacity-block-priced-in-region '
# The reserved nodes at the Capacity Block rate of the spec region
# (p5.48xlarge, us-east-1: 41.528 USD/h); spot has no price to discount.
assert f["reservedCapacity"] == "capacity-block", f
assert abs(f["reservedUsdPerHour"] - 2 * 41.528) < 1e-9, f
assert d["capacityBlockRegion"] == "us-east-1" and abs(d["capacityBlockPerHour"] - 4 * 41.528) < 1e-9, d
assert f["spotUsdPerHour"] is None and f["usdPerHour"] is None, f'
"$TF" plan -v $S/fleet-capacity-block.yaml >"$t/out" 2>&1
grep -q 'spot unknown (no spot price known: import spot price history, or set capacity.prices.spot or capacity.spot_discount)' "$t/out" \
	&& ok unknown-spot-says-why || no unknown-spot-says-why

expect_rc single-fleet-null 0 "$TF" plan -v --format json $S/minimal.yaml
check single-fleet-is-null 'assert f is None'

# ---- what the plan refuses --------------------------------------------
expect_rc smallest-batch 1 "$TF" plan -v $S/fleet-min-batch.yaml
err_has smallest-batch-js2003 'error: at the smallest fleet (5 reserved nodes, DP 5), global batch 24 is not a multiple of micro 1 x DP 5 = 5 \[JS2003\]'
err_has smallest-batch-help 'a global batch that divides at both ends is a multiple of 30'
expect_rc smallest-layout 1 "$TF" plan -v $S/fleet-min-layout.yaml
err_has smallest-layout-js2001 'at the smallest fleet (3 reserved nodes x 8 processes = 24), TP 8 x PP 2 x CP 1 = 16 does not divide the world \[JS2001\]'
expect_rc no-watcher-url 1 "$TF" plan -v $S/fleet-no-watcher-url.yaml
err_has no-watcher-url-js5014 'gen writes the spot watcher for the cluster.s nodes to run as root, and they need a place to fetch it from \[JS5014\]'

spec_with() { # extra top-level YAML lines -> $t/spec.yaml: fleet-p5 plus them
	grep -v '^capacity:' $S/fleet-p5.yaml >"$t/spec.yaml"
	printf '%s\n' "$@" >>"$t/spec.yaml"
}
spec_with 'capacity: {reserved: 2, spot: 2, placement_group: fleet-pg}' 'nodes: 5'
expect_rc nodes-mismatch 1 "$TF" plan -v "$t/spec.yaml"
err_has nodes-mismatch-js0006 'nodes 5 differs from capacity.reserved 2 + capacity.spot 2 \[JS0006\]'
spec_with 'capacity: {reserved: 2, spot: 2, placement_group: fleet-pg}' 'nodes: 4'
expect_rc nodes-agree 0 "$TF" plan -v "$t/spec.yaml"
spec_with 'capacity: {reserved: 2, spot: 2, placement_group: fleet-pg}' 'parallel: {tensor: 8, data: 4}'
sed -i '/^parallel: {tensor: 8}$/d' "$t/spec.yaml"
expect_rc data-pinned 1 "$TF" plan -v "$t/spec.yaml"
err_has data-pinned-js0006 'parallel.data cannot pin it \[JS0006\]'
spec_with 'capacity: {reserved: 2, spot: 2, placement_group: fleet-pg}'
sed -i 's/^framework: megatron$/framework: nxd/' "$t/spec.yaml"
expect_rc nxd-refused 1 "$TF" plan -v "$t/spec.yaml"
err_has nxd-refused-js0006 'nxd takes a batch per data-parallel rank'
spec_with 'capacity: {reserved: 2, spot: 2, placement_group: fleet-pg}'
sed -i 's/queue: gpu}/queue: a-very-long-queue-name}/' "$t/spec.yaml"
expect_rc long-queue 1 "$TF" plan -v "$t/spec.yaml"
err_has long-queue-js0005 "a-very-long-queue-name-reserved would pass ParallelCluster's 25 characters"
spec_with 'capacity: {reserved: 2}'
expect_rc reserved-alone 1 "$TF" plan -v "$t/spec.yaml"
err_has reserved-alone-message 'a mixed fleet needs both reserved and spot node counts'
spec_with 'capacity: {type: spot, reserved: 2, spot: 2}'
expect_rc type-spot-with-spot 1 "$TF" plan -v "$t/spec.yaml"
err_has type-spot-message 'type cannot be spot'
spec_with 'capacity: {spot_strategy: lowest-price}' 'nodes: 2'
expect_rc strategy-without-fleet 1 "$TF" plan -v "$t/spec.yaml"
err_has strategy-without-fleet-message 'belong to a mixed fleet'

# ---- what gen writes -----------------------------------------------------
mkdir "$t/o"
expect_rc p5-gen 0 "$TF" gen -o "$t/o" $S/fleet-p5.yaml
c=$t/o/fleet-p5-cluster.yaml b=$t/o/fleet-p5.sbatch w=$t/o/fleet-p5-spot-watcher.sh
py_check two-queues "$c" <<'PY'
import sys, yaml
q = yaml.safe_load(open(sys.argv[1]))["Scheduling"]["SlurmQueues"]
assert [x["Name"] for x in q] == ["gpu-reserved", "gpu-spot"], q
r, s = q
assert r["CapacityType"] == "ONDEMAND" and "AllocationStrategy" not in r, r
assert r["ComputeResources"][0]["InstanceType"] == "p5.48xlarge" and r["ComputeResources"][0]["MaxCount"] == 2
assert s["CapacityType"] == "SPOT" and s["AllocationStrategy"] == "price-capacity-optimized", s
assert s["ComputeResources"][0]["Instances"] == [{"InstanceType": "p5.48xlarge"}], s
assert s["ComputeResources"][0]["MaxCount"] == 2
for x in q:
    assert x["ComputeResources"][0]["Efa"] == {"Enabled": True}, x
    assert x["Networking"]["PlacementGroup"] == {"Name": "fleet-pg"}, x
    assert x["Networking"]["SubnetIds"] == ["subnet-0123456789abcdef0"]
ca = s["CustomActions"]["OnNodeConfigured"]
assert ca["Script"] == "s3://fleet-p5-bootstrap/trainforge/fleet-p5-spot-watcher.sh", ca
assert ca["Args"] == ["--endpoint", "http://169.254.169.254", "--interval", "5"], ca
assert "CustomActions" not in r
assert {"BucketName": "fleet-artifacts", "EnableWriteAccess": True} in s["Iam"]["S3Access"], s
# the watcher's place is read-only, and the reserved queue does not need it
assert {"BucketName": "fleet-p5-bootstrap", "KeyName": "trainforge/*", "EnableWriteAccess": False} in s["Iam"]["S3Access"], s
assert all(a["BucketName"] != "fleet-p5-bootstrap" for a in r["Iam"]["S3Access"]), r
PY
# The reserved nodes are the job; each spot unit a job of its own that
# this one submits and starts its steps in (docs/jobspec.md, "Mixed fleet").
! grep -q '^#SBATCH hetjob' "$b" && [ "$(grep -c '^#SBATCH --partition=' "$b")" = 1 ] \
	&& grep -q '^#SBATCH --partition=gpu-reserved$' "$b" && grep -q '^#SBATCH --nodes=2$' "$b" \
	&& grep -q '^#SBATCH --no-kill$' "$b" && ok script-reserved-job || no script-reserved-job
grep -q -- '--partition=gpu-spot --nodes="$UNIT" --ntasks-per-node=1 --exclusive --no-requeue' "$b" \
	&& grep -q '^readonly RESERVED=2 UNIT=1 UNITS=2 MAX_FAILURES=2$' "$b" && ok script-unit-jobs || no script-unit-jobs
# fleet-p5 trains at 2, 3 and 4 nodes (DP 2, 3, 4): each spot node a unit.
grep -q '^declare -A DP_AT=(\[2\]=2 \[3\]=3 \[4\]=4 )$' "$b" && ok script-sizes-table || no script-sizes-table
# Each round at one size, torchrun restarting nothing itself; a unit's
# step in its own job.
grep -q -- '^		--nnodes="$nodes"$' "$b" && grep -q -- '^		--max_restarts=0$' "$b" \
	&& grep -q -- '^		--rdzv_id="$SLURM_JOB_ID.$round"$' "$b" && grep -q -- '--rdzv_backend=c10d' "$b" \
	&& grep -q -- 'srun --jobid="${unit_job\[$k\]}" --nodes="$UNIT"' "$b" && ok script-rounds || no script-rounds
# A size the layout cannot train stops the job with a message; a clean
# exit with nothing asked for is the end, anything else not.
grep -q 'The job stops here rather than start a size that cannot train' "$b" && grep -q '^		exit 1$' "$b" \
	&& grep -q 'training finished at $nodes nodes' "$b" && ok script-stops-untrainable || no script-stops-untrainable
[ "$(grep -c -- '--output="$RUN_DIR/node-%N.log"' "$b")" = 2 ] && ok script-logs-per-host || no script-logs-per-host
! grep -q 'RESUME=latest' "$b" && grep -q -- '--load "$CHECKPOINT_DIR"' "$b" && grep -q -- '--save-interval [0-9]' "$b" \
	&& grep -q -- '--exit-signal SIGUSR1' "$b" && grep -q 'kill -SIGUSR1 "$pid"' "$b" \
	&& ok script-saves-and-resumes || no script-saves-and-resumes
"$TF" lint --select ALL --fail-level info --format concise "$c" "$b" >"$t/lint" 2>&1 \
	&& ok generated-lint-clean || { no generated-lint-clean; cat "$t/lint"; }
shellcheck "$b" "$w" >"$t/sc" 2>&1 && ok generated-shellcheck || { no generated-shellcheck; cat "$t/sc"; }

mkdir "$t/og"
expect_rc groups-gen 0 "$TF" gen -o "$t/og" $S/fleet-groups.yaml
bg=$t/og/fleet-groups.sbatch
grep -q '^readonly RESERVED=2 UNIT=2 UNITS=2 ' "$bg" && grep -q '^declare -A DP_AT=(\[2\]=[0-9]* \[4\]=[0-9]* \[6\]=[0-9]* )$' "$bg" \
	&& ok groups-script-units-of-2 || { no groups-script-units-of-2; grep -e '^readonly RESERVED' -e '^declare -A' "$bg"; }
"$TF" lint --select ALL --fail-level info --format concise "$t/og/fleet-groups-cluster.yaml" "$bg" >"$t/lint" 2>&1 \
	&& ok groups-lint-clean || { no groups-lint-clean; cat "$t/lint"; }
shellcheck "$bg" >"$t/sc" 2>&1 && ok groups-shellcheck || { no groups-shellcheck; cat "$t/sc"; }

mkdir "$t/o2"
expect_rc capacity-block-gen 0 "$TF" gen -o "$t/o2" $S/fleet-capacity-block.yaml
py_check capacity-block-queues "$t/o2/fleet-cb-cluster.yaml" <<'PY'
import sys, yaml
r, s = yaml.safe_load(open(sys.argv[1]))["Scheduling"]["SlurmQueues"]
assert r["CapacityType"] == "CAPACITY_BLOCK" and r["CapacityReservationTarget"] == {"CapacityReservationId": "cr-0123456789abcdef0"}, r
assert r["ComputeResources"][0]["MinCount"] == 2
assert s["CapacityType"] == "SPOT" and "CapacityReservationTarget" not in s, s
assert s["CustomActions"]["OnNodeConfigured"]["Script"] == "https://artifacts.example.com/fleet-cb-spot-watcher.sh"
assert s["CustomActions"]["OnNodeConfigured"]["Args"] == ["--endpoint", "http://127.0.0.1:8111", "--interval", "2"]
assert "Iam" not in s, s
PY
grep -q "^endpoint='http://127.0.0.1:8111'$" "$t/o2/fleet-cb-spot-watcher.sh" && grep -q '^interval=2$' "$t/o2/fleet-cb-spot-watcher.sh" \
	&& ok watcher-defaults-from-spec || no watcher-defaults-from-spec
mkdir "$t/o3"
"$TF" gen -o "$t/o3" $S/minimal.yaml >/dev/null 2>&1
[ -z "$(find "$t/o3" -name '*-spot-watcher.sh')" ] && ok single-fleet-no-watcher || no single-fleet-no-watcher
exit 0
