#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A single-node Slurm cluster on loopback (Debian 12, as root) for testing `stacksim sweep --slurm`.
#
# Usage: scripts/slurm_local.sh install | start | stop | run CMD [ARG...]
#   install  installs slurmctld, slurmd, slurm-client and munge (only those missing; sudo -n when not root)
#   start    writes /etc/slurm/slurm.conf, starts munged (unless running), slurmctld and slurmd,
#            and waits until the node is idle; refuses when a cluster already answers
#   stop     cancels every job, shuts the daemons down and removes their pid files; stops
#            munged if `start` started it
#   run      start, then CMD, then stop (also on a failure, Ctrl-C or TERM); exits with CMD's code
# No systemd is needed (the daemons are started directly, as on CI machines without it).
set -euo pipefail

name=localhost
conf=/etc/slurm/slurm.conf
marker="# Written by stacksim scripts/slurm_local.sh"
state=/run/stacksim-slurm-munged  # exists when `start` started munged
packages=(slurmctld slurmd slurm-client munge)

log() { echo "slurm_local: $*" >&2; }

install_packages() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo -n)  # as scripts/bootstrap.sh, but never prompting
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 ||
    { "${sudo_cmd[@]}" apt-get update -qq && "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2; }
}

# Waits up to $1 tenths of a second for "$2..." to succeed.
wait_for() {
  local tenths=$1
  shift
  for _ in $(seq "$tenths"); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  return 1
}

# True while the process in pid file $1 runs (a zombie counts as gone).
alive() {
  local pid
  pid=$(cat "$1" 2>/dev/null) || return 1
  [ -n "$pid" ] && [ -e "/proc/$pid" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$pid/status" 2>/dev/null
}

gone() { ! alive "$1"; }

node_idle() { [ "$(sinfo -h -o %T 2>/dev/null | head -1)" = idle ]; }

start() {
  for d in slurmctld slurmd sbatch munged; do
    command -v "$d" >/dev/null || { log "$d not found (scripts/slurm_local.sh install)"; exit 3; }
  done
  [ "$(id -u)" -eq 0 ] || { log "starting the daemons needs root"; exit 3; }
  if scontrol ping >/dev/null 2>&1; then
    log "a Slurm controller already answers (scontrol ping): not starting another"
    exit 3
  fi
  if [ -e "$conf" ] && ! grep -qF "$marker" "$conf"; then
    log "$conf exists and was not written by this script: not replacing it"
    exit 3
  fi
  mkdir -p /etc/slurm
  cat > "$conf" <<EOF
$marker; removed by nothing, rewritten by every start.
ClusterName=stacksim
SlurmctldHost=$name(127.0.0.1)
NodeName=$name NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
SlurmUser=slurm
AuthType=auth/munge
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MailProg=/bin/true
ReturnToService=2
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
DependencyParameters=kill_invalid_depend
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
EOF
  if ! pgrep -x munged >/dev/null; then
    install -d -o munge -g munge -m 0755 /run/munge
    runuser -u munge -- /usr/sbin/munged
    touch "$state"
  fi
  rm -rf /var/spool/slurmctld /var/spool/slurmd  # a clean state for every start
  install -d -o slurm -g slurm /var/spool/slurmctld /var/log/slurm
  install -d /var/spool/slurmd
  /usr/sbin/slurmctld
  /usr/sbin/slurmd -N "$name"
  if ! wait_for 300 node_idle; then
    log "the node did not become idle within 30 s; see /var/log/slurm/"
    stop
    exit 3
  fi
  log "cluster up: node $name idle, $(nproc) CPUs"
}

stop() {
  if scontrol ping >/dev/null 2>&1; then
    squeue -h -o %i 2>/dev/null | xargs -r scancel 2>/dev/null || true
    scontrol shutdown >/dev/null 2>&1 || true
  fi
  for f in /run/slurmctld.pid /run/slurmd.pid; do
    wait_for 150 gone "$f" || true
    if alive "$f"; then
      log "$(basename "$f" .pid) did not stop: killing it"
      kill -KILL "$(cat "$f")" 2>/dev/null || true
    fi
    rm -f "$f"  # stale pid files make a later `apt-get remove` fail
  done
  if [ -e "$state" ]; then
    [ -e /run/munge/munged.pid ] && kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true
    rm -f "$state"
  fi
  log "cluster stopped"
}

case "${1:-}" in
  install) install_packages ;;
  start) start ;;
  stop) stop ;;
  run)
    shift
    [ $# -gt 0 ] || { echo "usage: $0 run CMD [ARG...]" >&2; exit 2; }
    start
    trap stop EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    "$@"
    ;;
  *) echo "usage: $0 install | start | stop | run CMD [ARG...]" >&2; exit 2 ;;
esac
