#!/bin/bash
# Checks scripts/slurm-rate.sbatch on a real single-node Slurm: installs
# Debian's slurmctld, slurmd and munge when they are missing (apt-get, as
# root), starts a private cluster on this machine (its own configuration
# and state in a temporary folder), rates N puzzles made by
# `ruledoku generate` as a job array of SHARDS tasks, merges the shards,
# compares the merged output with one single run byte for byte, prints the
# figures, and stops the cluster. Not part of the test suite (it installs
# packages and takes minutes).
#
#   scripts/slurm-check.sh                 # 5 shards of 10,000 puzzles, rules sfin
#   N=50000 SHARDS=5 RULES=w scripts/slurm-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-50000}
SHARDS=${SHARDS:-5}
RULES=${RULES:-sfin}
SEED=${SEED:-27}
BIN=${RULEDOKU:-$(pwd)/target/release/ruledoku}
[ -x "$BIN" ] || cargo build --release
WORK=$(mktemp -d /tmp/ruledoku-slurm.XXXXXX)
echo "work folder: $WORK"

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurmctld slurmd slurm-client munge
fi

# munge: Slurm's authentication (a key of its own if none is installed).
if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
    chown munge:munge /etc/munge/munge.key 2>/dev/null || true
    chmod 400 /etc/munge/munge.key
fi
mkdir -p /run/munge && chown munge:munge /run/munge 2>/dev/null || true
if ! munge -n >/dev/null 2>&1; then
    if id munge >/dev/null 2>&1; then
        runuser -u munge -- /usr/sbin/munged --force
    else
        /usr/sbin/munged --force
    fi
    sleep 1
fi

HOST=$(hostname -s)
CPUS=$(nproc)
MEM=$(awk '/MemTotal/ {print int($2 / 1024 * 0.8)}' /proc/meminfo)
mkdir -p "$WORK/state" "$WORK/spool" "$WORK/out"
cat >"$WORK/slurm.conf" <<CONF
ClusterName=ruledoku-check
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
SlurmctldPort=${SLURMCTLD_PORT:-16817}
SlurmdPort=${SLURMD_PORT:-16818}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
MpiDefault=none
ReturnToService=2
KillWait=30
NodeName=$HOST CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
PartitionName=check Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$WORK/slurm.conf
stop() {
    # The jobs first (their steps outlive slurmd), then the daemons.
    [ -n "${JOB:-}" ] && scancel --full --signal=KILL "$JOB" 2>/dev/null && sleep 2
    for p in slurmd slurmctld; do
        [ -s "$WORK/$p.pid" ] && kill "$(cat "$WORK/$p.pid")" 2>/dev/null || true
    done
}
trap stop EXIT
slurmctld -i
slurmd
for _ in $(seq 60); do
    sinfo -h -o '%t' 2>/dev/null | grep -q idle && break
    sleep 1
done
sinfo

echo "== $N puzzles (generate --seed $SEED)"
"$BIN" generate --seed "$SEED" -n "$N" -j 0 >"$WORK/puzzles.txt"

echo "== job array: $SHARDS shards, rules $RULES"
export INPUT=$WORK/puzzles.txt OUT=$WORK/out RULES=$RULES RATE_OPTS="--no-time" RULEDOKU=$BIN SHARDS
wait_for() { while [ -n "$(squeue -h -j "$1" 2>/dev/null)" ]; do sleep 1; done; }
T0=$(date +%s.%N)
JOB=$(sbatch --parsable --array=1-"$SHARDS" --chdir="$WORK" --mem=200M scripts/slurm-rate.sbatch)
if [ "${INTERRUPT:-1}" = 1 ] && [ "$SHARDS" -ge 2 ]; then
    # Task 1 is cancelled as at a time limit (SIGTERM: it stops cleanly,
    # status 5) and task 2 is killed as by a node failure (SIGKILL, no
    # warning) once they are under way; both are resubmitted and resume.
    until [ -s "$WORK/out/shard-1.txt.part" ] && [ -s "$WORK/out/shard-2.txt.part" ]; do sleep 0.2; done
    sleep "${INTERRUPT_AFTER:-3}"
    # A running task has a job id of its own (`%A`; `%K` is its index).
    task_id() { squeue -h -r -j "$JOB" -o '%A %K' | awk -v k="$1" '$2 == k {print $1}'; }
    T1ID=$(task_id 1) T2ID=$(task_id 2)
    # (scancel may report a failure for a signal it delivered: not checked.)
    scancel --batch --signal=TERM "$T1ID" || true
    scancel --batch --signal=KILL "$T2ID" || true
    wait_for "$JOB"
    for i in 1 2; do
        python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print('shard', sys.argv[2], 'after the signal: done', s['done'], 'interrupted', s['interrupted'], 'records', s['records'])" \
            "$WORK/out/shard-$i.txt.summary.json" "$i"
    done
    sbatch --wait --array=1-2 --chdir="$WORK" --mem=200M scripts/slurm-rate.sbatch
fi
wait_for "$JOB"
T1=$(date +%s.%N)
"$BIN" merge "$WORK"/out/shard-*.txt --output "$WORK/merged.txt"

echo "== one single run"
T2=$(date +%s.%N)
"$BIN" rate "$WORK/puzzles.txt" --rules "$RULES" --no-time -j 1 --output "$WORK/single.txt"
T3=$(date +%s.%N)
if cmp "$WORK/merged.txt" "$WORK/single.txt"; then
    echo "IDENTICAL: merged job array = single run ($(wc -l <"$WORK/single.txt") lines)"
else
    echo "DIFFERENT: $WORK/merged.txt $WORK/single.txt"
    exit 1
fi
python3 - "$WORK" "$T0" "$T1" "$T2" "$T3" <<'PY'
import json, glob, sys
w, t0, t1, t2, t3 = sys.argv[1], *map(float, sys.argv[2:])
shards = [json.load(open(f)) for f in sorted(glob.glob(w + "/out/shard-*.txt.summary.json"))]
merged = json.load(open(w + "/merged.txt.summary.json"))
single = json.load(open(w + "/single.txt.summary.json"))
for s in shards:
    print(f"shard {s['slice']['shard']}: {s['records']} records, {s['cpu_seconds']:.1f} CPU-s, max RSS {s['max_rss_kib']/1024:.1f} MiB")
print(f"job array: {t1-t0:.1f} s wall; merged {merged['records']} records, {merged['cpu_seconds']:.1f} CPU-s "
      f"({1000*merged['cpu_seconds']/merged['records']:.2f} CPU-s per 1,000)")
print(f"single run: {t3-t2:.1f} s wall, {single['cpu_seconds']:.1f} CPU-s, max RSS {single['max_rss_kib']/1024:.1f} MiB")
print("by stop:", merged["by_stop"])
PY
