#!/usr/bin/env bash
# A sweep as a Slurm array: a one-node cluster (Debian's slurm-wlm and
# munge, installed by scripts/deps.sh) is configured and started here on
# localhost, on free ports, with its own munge key and state in a temporary
# folder; `report run --emit slurm` writes the sbatch --array script, sbatch
# runs it, and the merged records must equal a local run's byte for byte.
# Also `make test-cluster`.
set -u
BIN=${LPMPIPE:-build/lpmpipe}
case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac
for c in munged munge slurmctld slurmd sbatch scontrol sinfo; do
  command -v "$c" >/dev/null || { echo "FAIL: $c is not installed (scripts/deps.sh installs slurm-wlm and munge)"; exit 1; }
done
W=$(mktemp -d /tmp/lpmpipe-slurm.XXXXXX)
chmod 755 "$W"
export SLURM_CONF="$W/slurm.conf"
cleanup() {
  scontrol shutdown >/dev/null 2>&1
  for f in "$W/slurmctld.pid" "$W/slurmd.pid" "$W/munge/munged.pid"; do
    [ -s "$f" ] || continue
    p=$(cat "$f")
    for _ in $(seq 1 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill "$p" 2>/dev/null
  done
  rm -rf "$W"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; for l in "$W"/log/*.log; do [ -f "$l" ] && { echo "--- $l"; tail -5 "$l"; }; done; exit 1; }

# munge: a key of our own and a socket in $W
mkdir -p "$W/munge" "$W/state" "$W/spool" "$W/log"
chmod 700 "$W/munge"
head -c 1024 /dev/urandom >"$W/munge/munge.key"
chmod 600 "$W/munge/munge.key"
munged --force --key-file="$W/munge/munge.key" --socket="$W/munge/sock" --pid-file="$W/munge/munged.pid" \
  --log-file="$W/log/munged.log" --seed-file="$W/munge/seed" || fail "munged did not start"
munge -S "$W/munge/sock" -n | unmunge -S "$W/munge/sock" >/dev/null || fail "munge does not work"

# two free ports on loopback
read -r P1 P2 < <(python3 -c 'import socket
s=[socket.socket() for _ in range(2)]
[x.bind(("127.0.0.1", 0)) for x in s]
print(*[x.getsockname()[1] for x in s])')
cat >"$SLURM_CONF" <<EOF
ClusterName=lpmtest
SlurmctldHost=localhost
SlurmctldPort=$P1
SlurmdPort=$P2
AuthType=auth/munge
AuthInfo=socket=$W/munge/sock
CredType=cred/munge
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool/slurmd-%n
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd.pid
SlurmctldLogFile=$W/log/slurmctld.log
SlurmdLogFile=$W/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
InactiveLimit=0
MinJobAge=60
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start"
slurmd -f "$SLURM_CONF" -N localhost || fail "slurmd did not start"
for _ in $(seq 1 300); do
  st=$(sinfo -h -o %T 2>/dev/null)
  [ "$st" = idle ] && break
  sleep 0.1
done
[ "$st" = idle ] || fail "the node is '$st', not idle"
echo "ok: one-node Slurm cluster up on ports $P1, $P2"

D=tests/reports
defs=("$D/small-sim.json" "$D/small-map.json" "$D/small-gpu.json")
"$BIN" report run "${defs[@]}" -o "$W/cluster" --emit slurm >"$W/emit.log" 2>&1 || fail "emit slurm: $(cat "$W/emit.log")"
tasks=$(sed -n 's/^#SBATCH --array=1-//p' "$W/cluster/run-slurm.sbatch")
t0=$SECONDS
job=$(cd "$W/cluster" && sbatch --parsable run-slurm.sbatch 2>"$W/sbatch.log") || fail "sbatch: $(cat "$W/sbatch.log")"
# (sbatch --wait polls with growing pauses; squeue every half second is quicker)
for _ in $(seq 1 1200); do
  [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
  sleep 0.5
done
[ -z "$(squeue -h -j "$job")" ] || fail "the array job $job did not finish in 10 minutes"
grep -l -E 'FAIL|error' "$W"/cluster/slurm/*.out 2>/dev/null && fail "an array task failed: $(cat "$W"/cluster/slurm/*.out | tail -5)"
outs=$(ls "$W"/cluster/slurm/*.out 2>/dev/null | wc -l)
[ "$outs" -eq "$tasks" ] || fail "$outs array task logs, want $tasks"
echo "ok: array job $job: $tasks tasks in $((SECONDS - t0)) s"
"$BIN" report merge "$W/cluster" -o "$W/merged" || fail "merge of the cluster's records"
"$BIN" report run "${defs[@]}" -o "$W/local" --jobs 2 --quiet || fail "local run"
cmp "$W/merged/results.jsonl" "$W/local/results.jsonl" || fail "the Slurm array's records differ from the local run's"
files() { (cd "$1" && find records -name '*.json' | sort | while read -r f; do echo "== $f"; cat "$f"; done); }
[ "$(files "$W/merged")" = "$(files "$W/local")" ] || fail "record files differ"
echo "ok: the Slurm array's merged records equal the local run's ($(wc -l <"$W/local/results.jsonl") records)"
