#!/bin/sh
# The spot watcher `gen` writes for a mixed fleet, run for real against a
# stand-in metadata service on loopback (tests/watcher/fake_imds.py) and a
# stand-in scontrol that records what it is asked. Every run names the
# loopback endpoint: the real metadata address is never contacted.
# Prints RESULT lines. ok and no only print, so "A && ok || no" is an
# if-then-else here; the hostile notice's $( ) is meant literally.
# shellcheck disable=SC2015,SC2016
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh # kills the processes in $pids on exit

for c in curl python3 shellcheck; do
	have "$c" || { no "watcher: $c missing"; exit 1; }
done

spec=examples/jobs/moe-176b-trn2-mixed.yaml
mkdir "$t/o"
"$TF" gen -o "$t/o" "$spec" >/dev/null 2>&1 || { no "watcher: gen of $spec"; exit 1; }
w=$(ls "$t"/o/*-spot-watcher.sh)
[ -f "$w" ] && ok gen-writes-watcher || { no gen-writes-watcher; exit 1; }
shellcheck "$w" >"$t/sc" 2>&1 && ok watcher-shellcheck || { no watcher-shellcheck; cat "$t/sc"; }
bash -n "$w" && ok watcher-bash-n || no watcher-bash-n
grep -q "^endpoint='http://169.254.169.254'\$" "$w" && ok watcher-default-endpoint || no watcher-default-endpoint
grep -q 'Script: "s3://.*-spot-watcher.sh"' "$t"/o/*-cluster.yaml && ok cluster-installs-watcher \
	|| no cluster-installs-watcher

# The stand-ins: a metadata service, scontrol, one worker and one launcher.
state=$t/state
mkdir "$state" "$t/bin"
python3 tests/watcher/fake_imds.py "$t/port" "$state" &
pids="$pids $!"
i=0
while [ ! -s "$t/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$t/port" ] || { no "watcher: fake metadata service did not start"; exit 1; }
ep=http://127.0.0.1:$(cat "$t/port")
cat >"$t/bin/scontrol" <<EOF
#!/bin/sh
echo "\$*" >>"$state/scontrol"
if [ "\$1" = listpids ]; then
	echo "PID      JOBID    STEPID   LOCALID GLOBALID"
	cat "$state/pids"
fi
EOF
chmod +x "$t/bin/scontrol"
cat >"$t/bin/scancel" <<EOF
#!/bin/sh
echo "\$(date +%s.%N) \$*" >>"$state/scancel"
EOF
chmod +x "$t/bin/scancel"
export PATH="$t/bin:$PATH"

# A worker (LOCAL_RANK set, as torchrun sets it) and its launcher (not).
env LOCAL_RANK=0 sh -c "trap 'echo usr1 >>$state/worker' USR1; while :; do sleep 0.1; done" &
worker=$!
env -u LOCAL_RANK sh -c "trap 'echo usr1 >>$state/launcher' USR1; while :; do sleep 0.1; done" &
launcher=$!
pids="$pids $worker $launcher"
printf '%s 7 0 0 0\n%s 7 0 1 1\n' "$launcher" "$worker" >"$state/pids"

# Between checks: the stand-in worker writes its file when its sleep
# ends (up to 0.1 s after the signal), so wait that out before clearing.
reset_state() {
	sleep 0.3
	rm -f "$state/notice" "$state/scontrol" "$state/worker" "$state/scancel"
}

run() { # args...: the watcher, bounded; the unit stopped at once unless told
	timeout 20 bash "$w" --endpoint "$ep" --node spot-dy-trn2-1 --stop-after 0 "$@"
}

# No notice: one poll, nothing drained.
: >"$state/requests"
run --once >"$t/out" 2>&1; rc=$?
[ $rc = 0 ] && [ ! -e "$state/scontrol" ] && ok once-without-notice || { no "once-without-notice ($rc)"; cat "$t/out"; }
grep -q '^PUT /latest/api/token 200$' "$state/requests" && grep -q '^GET /latest/meta-data/spot/instance-action 404$' "$state/requests" \
	&& ok imdsv2-token-then-read || { no imdsv2-token-then-read; cat "$state/requests"; }
grep -q ' 401$' "$state/requests" && no never-unauthorised || ok never-unauthorised

# A notice, where no save fits in it (the reference job, as generated:
# signal=none): drain the node, stop the unit's step at once, signal no
# worker. SIGTERM to the step, once.
grep -q '^signal=none$' "$w" && ok default-no-save-signal || no default-no-save-signal
printf '{"action": "terminate", "time": "2026-11-30T16:00:00Z"}' >"$state/notice"
run --once >"$t/out" 2>&1; rc=$?
sleep 0.5
[ $rc = 0 ] && ok once-with-notice || { no "once-with-notice ($rc)"; cat "$t/out"; }
grep -q '^update nodename=spot-dy-trn2-1 state=DRAIN reason=spot interruption notice: .*terminate.*2026-11-30T16:00:00Z' "$state/scontrol" \
	&& ok drains-the-node || { no drains-the-node; cat "$state/scontrol" "$t/out"; }
[ ! -e "$state/worker" ] && ok no-save-no-signal || { no no-save-no-signal; cat "$t/out"; }
[ ! -e "$state/launcher" ] && ok launcher-spared || no launcher-spared
[ "$(cut -d' ' -f2- "$state/scancel" 2>/dev/null)" = "--signal=TERM 7.0" ] && grep -q 'stopped step 7.0' "$t/out" \
	&& ok stops-the-unit-step || { no stops-the-unit-step; cat "$state/scancel" "$t/out"; }
reset_state

# Where a save fits (--signal USR1, as the plan writes then): the workers
# get the signal, the launcher does not, and a worker still running
# --stop-after seconds after the notice has its step stopped.
printf '{"action": "terminate", "time": "2026-11-30T16:00:00Z"}' >"$state/notice"
before=$(date +%s.%N)
run --once --signal USR1 --stop-after 2 >"$t/out" 2>&1; rc=$?
waited=$(awk -v a="$before" '{print $1 - a; exit}' "$state/scancel" 2>/dev/null)
[ $rc = 0 ] && [ -s "$state/worker" ] && [ ! -e "$state/launcher" ] && grep -q 'sent SIGUSR1 to 1 worker(s)' "$t/out" \
	&& ok save-signal-to-workers || { no save-signal-to-workers; cat "$t/out"; }
awk -v w="${waited:-0}" 'BEGIN {exit !(w >= 1.9)}' && grep -q 'the workers run still after 2s' "$t/out" \
	&& ok stop-after-waits || { no "stop-after-waits (stopped after ${waited:-never} s)"; cat "$t/out"; }
reset_state

# A worker that saves and exits on the signal: nothing left to stop.
env LOCAL_RANK=1 sh -c "trap 'echo usr1 >>$state/saver; exit 0' USR1; while :; do sleep 0.1; done" &
saver=$!
pids="$pids $saver"
cp "$state/pids" "$state/pids.keep"
printf '%s 7 0 2 2\n' "$saver" >>"$state/pids"
kill -STOP "$worker"
sed -i "/^$worker /d" "$state/pids"
printf '{"action": "terminate", "time": "2026-11-30T16:00:00Z"}' >"$state/notice"
run --once --signal USR1 --stop-after 10 >"$t/out" 2>&1
[ -s "$state/saver" ] && grep -q 'the workers saved and exited' "$t/out" && [ ! -e "$state/scancel" ] \
	&& ok saved-workers-not-stopped || { no saved-workers-not-stopped; cat "$t/out" "$state/scancel" 2>/dev/null; }
kill -CONT "$worker"
mv "$state/pids.keep" "$state/pids"
reset_state

# A step without workers (torchrun between rounds' starts): stopped all the same.
mv "$state/pids" "$state/pids.keep"
printf '%s 7 0 0 0\n' "$launcher" >"$state/pids"
printf '{"action": "terminate", "time": "2026-11-30T16:00:00Z"}' >"$state/notice"
run --once --signal USR1 >"$t/out" 2>&1
[ "$(cut -d' ' -f2- "$state/scancel" 2>/dev/null)" = "--signal=TERM 7.0" ] && ok step-without-workers-stopped \
	|| { no step-without-workers-stopped; cat "$t/out"; }
# No job step at all (between two rounds): the drain is all.
: >"$state/pids"
rm -f "$state/scancel"
run --once >"$t/out" 2>&1
[ ! -e "$state/scancel" ] && grep -q 'no job step on spot-dy-trn2-1' "$t/out" && ok no-step-no-stop || { no no-step-no-stop; cat "$t/out"; }
mv "$state/pids.keep" "$state/pids"
reset_state

# Watching: the notice appears after a few polls and is acted on once.
run --foreground --interval 1 --signal USR1 >"$t/out" 2>&1 &
watch=$!
pids="$pids $watch"
sleep 2.5
[ ! -e "$state/scontrol" ] && ok watch-waits || no watch-waits
printf '{"action": "stop", "time": "2026-11-30T16:05:00Z"}' >"$state/notice"
i=0
while kill -0 "$watch" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -0 "$watch" 2>/dev/null && { no watch-acts-and-exits; kill "$watch"; } || ok watch-acts-and-exits
[ "$(grep -c '^update ' "$state/scontrol" 2>/dev/null)" = 1 ] && ok watch-drains-once || { no watch-drains-once; cat "$t/out"; }
i=0
while [ ! -s "$state/worker" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$state/worker" ] && ok watch-signals-worker || no watch-signals-worker
reset_state

# A hostile notice body is data: the drain reason keeps only plain
# characters, nothing in it runs, and a megabyte of it does not hang.
{ printf '{"action": "$(touch %s/pwned)`touch %s/pwned2`;\"' "$t" "$t"; head -c 1048576 /dev/zero | tr '\0' x; printf '"}'; } >"$state/notice"
run --once >"$t/out" 2>&1; rc=$?
reason=$(sed -n 's/^update nodename=spot-dy-trn2-1 state=DRAIN reason=//p' "$state/scontrol")
[ $rc = 0 ] && [ ! -e "$t/pwned" ] && [ ! -e "$t/pwned2" ] && [ -n "$reason" ] && [ ${#reason} -le 160 ] \
	&& ! printf '%s' "$reason" | grep -q '[$`;"(]' && ok hostile-notice-is-data || { no hostile-notice-is-data; printf '%s\n' "$reason" | head -c 300; }
reset_state

# The metadata service down: no action, no hang.
run --once --endpoint http://127.0.0.1:9 >"$t/out" 2>&1; rc=$?
[ $rc = 0 ] && [ ! -e "$state/scontrol" ] && ok service-down-no-action || { no "service-down-no-action ($rc)"; cat "$t/out"; }

# Bad arguments are refused.
run --interval soon >"$t/out" 2>&1; [ $? = 2 ] && ok bad-interval || no bad-interval
run --interval 0 >"$t/out" 2>&1; [ $? = 2 ] && ok zero-interval || no zero-interval
run --what >"$t/out" 2>&1; [ $? = 2 ] && ok unknown-option || no unknown-option
run --stop-after later >"$t/out" 2>&1; [ $? = 2 ] && ok bad-stop-after || no bad-stop-after
run --signal 10 >"$t/out" 2>&1; [ $? = 2 ] && ok bad-signal || no bad-signal

# As CustomActions run it: it installs a copy and starts it in the
# background (no systemd here), then returns; the copy acts on a notice.
mkdir "$t/home"
if [ -d /run/systemd/system ]; then
	skip "install-starts-background: systemd runs here; the install would start a real unit"
else
	SPOT_WATCHER_HOME=$t/home timeout 20 bash "$w" --endpoint "$ep" --interval 1 --node spot-dy-trn2-1 >"$t/out" 2>&1; rc=$?
	installed=$(ls "$t"/home/*-spot-watcher.sh 2>/dev/null)
	[ $rc = 0 ] && [ -x "$installed" ] && ok install-copies-and-returns || { no "install-copies-and-returns ($rc)"; cat "$t/out"; }
	printf '{"action": "terminate", "time": "2026-11-30T16:10:00Z"}' >"$state/notice"
	i=0
	while ! { [ -s "$state/scancel" ] && grep -qs '^update ' "$state/scontrol"; } && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s "$state/scancel" ] && grep -q '^update nodename=spot-dy-trn2-1 state=DRAIN' "$state/scontrol" \
		&& ok installed-copy-acts || { no installed-copy-acts; cat "$t/home/spot-watcher.log" 2>/dev/null; }
	pkill -f "$t/home/" 2>/dev/null
fi
exit 0
