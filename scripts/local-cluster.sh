#!/usr/bin/env bash
# A one-node Slurm cluster (munged, slurmctld, slurmd) and an OpenSSH server on this machine, loopback
# only, for the `remote` tests (`--gpu ssh:localhost`, `--gpu slurm:ARGS`) and the worker round-trip
# benchmark. No systemd: the daemons are started directly, with their config, keys, pid and log files in
# one state folder ($WS_CLUSTER_DIR, default /tmp/warpscope-cluster-UID).
#
#   bash scripts/local-cluster.sh install    the Debian packages (slurmctld slurmd slurm-client munge openssh-server)
#   bash scripts/local-cluster.sh up         start what is not running (idempotent); prints the environment to use
#   bash scripts/local-cluster.sh status     what runs; exit 0 when ssh and Slurm both answer
#   bash scripts/local-cluster.sh env        `export SLURM_CONF=...` for srun, sinfo and the tests
#   bash scripts/local-cluster.sh down       stop the daemons it started, remove its ssh client settings
#
# ssh: a throwaway user key and host key; sshd listens on 127.0.0.1 (port 22 when root and free, else
# 2222 or the next free one). `ssh localhost` of the current user is pointed at it (key, port, a
# generated known_hosts) by a `Match originalhost localhost` block: as root in
# /etc/ssh/ssh_config.d/, as a normal user by an Include line at the top of ~/.ssh/config (removed by
# `down`). Slurm: the node is named after `hostname`; the daemons bind the address it resolves to
# (CommunicationParameters=NoInAddrAny,NoCtldInAddrAny): 127.0.0.1 on most machines, a container's
# own address where it names that. munged runs with its own key and socket. slurmd must run as root
# to start job steps, so a normal user gets the ssh part only.
set -euo pipefail

cmd="${1:-status}"
uid=$(id -u)
user=$(id -un)
state="${WS_CLUSTER_DIR:-/tmp/warpscope-cluster-$uid}"
node=$(hostname)
slurm_conf="$state/slurm.conf"
marker="# warpscope local-cluster: scripts/local-cluster.sh down removes this"
root_dropin=/etc/ssh/ssh_config.d/90-warpscope-local-cluster.conf

say() { echo "local-cluster: $*"; }
die() { echo "local-cluster: $*" >&2; exit 1; }

pid_alive() {  # PIDFILE: true when the pid it names runs
  [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null
}

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_for() {  # SECONDS WHAT CMD...: polls CMD every 0.2 s
  local limit=$1 what=$2 t=0
  shift 2
  while ! "$@" >/dev/null 2>&1; do
    sleep 0.2
    t=$((t + 1))
    [ "$t" -ge $((limit * 5)) ] && return 1
  done
  [ -n "$what" ] && say "$what"
  return 0
}

install_packages() {
  local need=() p sudo_cmd=""
  for p in slurmctld slurmd slurm-client munge openssh-server openssh-client; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
  done
  [ ${#need[@]} -eq 0 ] && { say "packages present"; return; }
  [ "$uid" -ne 0 ] && sudo_cmd="sudo"
  say "installing ${need[*]}"
  # The packages' scripts would start the system's sshd (on every address), munged and Slurm through
  # their init scripts; a policy-rc.d that refuses keeps them stopped (Debian's way; a container's own
  # one stays as it is).
  local policy=/usr/sbin/policy-rc.d own_policy=0
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\n# scripts/local-cluster.sh install: no service starts while it installs\nexit 101\n' |
      $sudo_cmd tee "$policy" >/dev/null && $sudo_cmd chmod 755 "$policy" && own_policy=1
  fi
  local rc=0
  $sudo_cmd apt-get update -q && DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q --no-install-recommends "${need[@]}" || rc=$?
  [ "$own_policy" -eq 1 ] && $sudo_cmd rm -f "$policy"
  [ "$rc" -eq 0 ] || die "installing ${need[*]} failed"
}

need_programs() {
  local p
  for p in "$@"; do
    command -v "$p" >/dev/null 2>&1 || [ -x "/usr/sbin/$p" ] ||
      die "$p is missing: run 'bash scripts/local-cluster.sh install' first"
  done
}

# ---------------------------------------------------------------- ssh

ssh_port() { cat "$state/sshd.port" 2>/dev/null || true; }

ssh_client_config() {  # the Match block pointing `ssh localhost` of $user at our sshd
  cat <<EOF
$marker
Match originalhost localhost,127.0.0.1 localuser $user
  HostName 127.0.0.1
  Port $(ssh_port)
  IdentityFile $state/id_ed25519
  IdentitiesOnly yes
  UserKnownHostsFile $state/known_hosts
  StrictHostKeyChecking yes
  HostKeyAlias warpscope-local-cluster
EOF
}

install_ssh_client_config() {
  ssh_client_config >"$state/ssh_config"
  if [ "$uid" -eq 0 ]; then
    mkdir -p /etc/ssh/ssh_config.d
    cp "$state/ssh_config" "$root_dropin"
    return
  fi
  local cfg="$HOME/.ssh/config" line="Include $state/ssh_config"
  mkdir -p "$HOME/.ssh" && chmod 700 "$HOME/.ssh"
  touch "$cfg" && chmod 600 "$cfg"
  # At the top: an Include after a Host block would only apply inside it.
  grep -qxF "$line" "$cfg" || { printf '%s\n%s\n' "$marker" "$line" | cat - "$cfg" >"$cfg.new" && mv "$cfg.new" "$cfg"; }
}

remove_ssh_client_config() {
  if [ "$uid" -eq 0 ]; then
    [ -f "$root_dropin" ] && grep -qF "$marker" "$root_dropin" && rm -f "$root_dropin"
  elif [ -f "$HOME/.ssh/config" ]; then
    grep -vxF -e "$marker" -e "Include $state/ssh_config" "$HOME/.ssh/config" >"$HOME/.ssh/config.new" || true
    chmod 600 "$HOME/.ssh/config.new" && mv "$HOME/.ssh/config.new" "$HOME/.ssh/config"
  fi
  return 0
}

ssh_works() {
  ssh -o BatchMode=yes -o ConnectTimeout=5 localhost true
}

start_sshd() {
  need_programs sshd ssh ssh-keygen
  if pid_alive "$state/sshd.pid"; then
    say "sshd runs (pid $(cat "$state/sshd.pid"), 127.0.0.1:$(ssh_port))"
  else
    [ -f "$state/ssh_host_ed25519_key" ] || ssh-keygen -q -t ed25519 -N "" -C "warpscope-local-cluster host" -f "$state/ssh_host_ed25519_key"
    [ -f "$state/id_ed25519" ] || ssh-keygen -q -t ed25519 -N "" -C "warpscope-local-cluster $user" -f "$state/id_ed25519"
    cp "$state/id_ed25519.pub" "$state/authorized_keys"
    chmod 600 "$state/authorized_keys"
    echo "warpscope-local-cluster $(cut -d' ' -f1,2 "$state/ssh_host_ed25519_key.pub")" >"$state/known_hosts"
    local port=2222
    [ "$uid" -eq 0 ] && port=22
    while port_busy "$port"; do port=$((port == 22 ? 2222 : port + 1)); done
    echo "$port" >"$state/sshd.port"
    # StrictModes off: the keys live in a folder under /tmp (world-writable with the sticky bit),
    # which sshd's ownership walk would refuse; the folder itself is 0700 and ours.
    cat >"$state/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $port
HostKey $state/ssh_host_ed25519_key
PidFile $state/sshd.pid
AuthorizedKeysFile $state/authorized_keys
AllowUsers $user
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PermitRootLogin prohibit-password
X11Forwarding no
AllowTcpForwarding no
PrintMotd no
AcceptEnv LANG LC_*
EOF
    [ "$uid" -eq 0 ] && mkdir -p /run/sshd && chmod 755 /run/sshd  # privilege separation chroot
    "$(command -v sshd || echo /usr/sbin/sshd)" -f "$state/sshd_config" -E "$state/sshd.log"
    wait_for 10 "sshd started (127.0.0.1:$port)" pid_alive "$state/sshd.pid" ||
      die "sshd did not start: $(tail -n 1 "$state/sshd.log" 2>/dev/null)"
  fi
  install_ssh_client_config
  wait_for 10 "ssh localhost works (key $state/id_ed25519)" ssh_works ||
    die "ssh localhost fails: $(ssh -o BatchMode=yes -o ConnectTimeout=5 localhost true 2>&1 | tail -n 1)"
}

# ---------------------------------------------------------------- Slurm

write_slurm_conf() {
  # The daemons bind the address `hostname` resolves to (NoInAddrAny, NoCtldInAddrAny): loopback on
  # most machines; where it is another address of this machine (a container's), that one alone; a
  # name that does not resolve leaves them on every address (munge still authenticates each message).
  local hw addr comm="CommunicationParameters=NoInAddrAny,NoCtldInAddrAny"
  addr=$(getent ahostsv4 "$node" 2>/dev/null | awk 'NR == 1 {print $1}')
  case "$addr" in
    127.*) ;;
    "") addr=127.0.0.1 comm=""
        say "$node does not resolve: Slurm's daemons listen on every address (reached at 127.0.0.1)" ;;
    *) say "$node resolves to $addr, not loopback: Slurm's daemons listen on $addr only" ;;
  esac
  # The node line as slurmd sees the hardware (a mismatch would drain the node).
  hw=$(slurmd -C 2>/dev/null | head -n 1 | sed -e "s/^NodeName=[^ ]*//")
  [ -n "$hw" ] || hw=" CPUs=$(nproc)"
  cat >"$slurm_conf" <<EOF
# One node, loopback only, written by scripts/local-cluster.sh.
ClusterName=warpscope
SlurmctldHost=$node($addr)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=6817
SlurmdPort=6818
$comm
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$state/munge.socket
StateSaveLocation=$state/slurmctld
SlurmdSpoolDir=$state/slurmd
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=10
KillWait=5
InactiveLimit=0
NodeName=$node NodeAddr=$addr$hw State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
}

slurm_works() {
  SLURM_CONF="$slurm_conf" timeout 20 srun --quiet -N1 -n1 true
}

node_ready() {
  SLURM_CONF="$slurm_conf" sinfo -h -n "$node" -o "%t" 2>/dev/null | grep -qE "^(idle|mix|alloc)"
}

start_slurm() {
  if [ "$uid" -ne 0 ]; then
    say "Slurm skipped: slurmd must run as root to start job steps (the remote tests' slurm cases need root)"
    return 1
  fi
  need_programs munged slurmctld slurmd srun sinfo scontrol
  if pid_alive "$state/munged.pid"; then
    say "munged runs (pid $(cat "$state/munged.pid"))"
  else
    [ -f "$state/munge.key" ] || { dd if=/dev/urandom of="$state/munge.key" bs=1024 count=1 status=none && chmod 400 "$state/munge.key"; }
    # --force: munged as root (a throwaway key; only this cluster's daemons use the socket).
    munged --force --key-file="$state/munge.key" --socket="$state/munge.socket" --pid-file="$state/munged.pid" \
      --log-file="$state/munged.log" --seed-file="$state/munged.seed" 2>>"$state/munged.log" ||
      die "munged did not start: $(tail -n 1 "$state/munged.log")"
    wait_for 10 "munged started" test -S "$state/munge.socket" || die "munged made no socket: $(tail -n 1 "$state/munged.log")"
  fi
  mkdir -p "$state/slurmctld" "$state/slurmd"
  [ -f "$slurm_conf" ] || write_slurm_conf
  if pid_alive "$state/slurmctld.pid"; then
    say "slurmctld runs (pid $(cat "$state/slurmctld.pid"))"
  else
    port_busy 6817 && die "port 6817 (slurmctld) is taken by another program"
    SLURM_CONF="$slurm_conf" slurmctld -f "$slurm_conf" 2>>"$state/slurmctld.log" || die "slurmctld did not start: $(tail -n 1 "$state/slurmctld.log")"
    wait_for 15 "slurmctld started" pid_alive "$state/slurmctld.pid" || die "slurmctld did not start: $(tail -n 1 "$state/slurmctld.log")"
  fi
  if pid_alive "$state/slurmd.pid"; then
    say "slurmd runs (pid $(cat "$state/slurmd.pid"))"
  else
    port_busy 6818 && die "port 6818 (slurmd) is taken by another program"
    SLURM_CONF="$slurm_conf" slurmd -f "$slurm_conf" -N "$node" 2>>"$state/slurmd.log" || die "slurmd did not start: $(tail -n 1 "$state/slurmd.log")"
    wait_for 15 "slurmd started" pid_alive "$state/slurmd.pid" || die "slurmd did not start: $(tail -n 1 "$state/slurmd.log")"
  fi
  if ! wait_for 20 "node $node is up" node_ready; then
    SLURM_CONF="$slurm_conf" scontrol update nodename="$node" state=resume >/dev/null 2>&1 || true
    wait_for 10 "node $node is up (resumed)" node_ready ||
      die "node $node is not up: $(SLURM_CONF="$slurm_conf" sinfo -h -R 2>&1 | tail -n 1); logs in $state"
  fi
  wait_for 30 "srun works (SLURM_CONF=$slurm_conf)" slurm_works ||
    die "srun fails: $(SLURM_CONF="$slurm_conf" timeout 20 srun -N1 -n1 true 2>&1 | tail -n 1)"
}

stop_pidfile() {  # NAME PIDFILE: SIGTERM, then SIGKILL after 5 s
  local name=$1 f=$2 pid i
  pid_alive "$f" || { rm -f "$f"; return 0; }
  pid=$(cat "$f")
  kill "$pid" 2>/dev/null || true
  for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
  rm -f "$f"
  say "$name stopped (pid $pid)"
}

status() {
  local ok=0
  pid_alive "$state/sshd.pid" && say "sshd: pid $(cat "$state/sshd.pid"), 127.0.0.1:$(ssh_port)" || { say "sshd: not running"; ok=1; }
  ssh_works 2>/dev/null && say "ssh localhost: works" || { say "ssh localhost: fails"; ok=1; }
  local d
  for d in munged slurmctld slurmd; do
    pid_alive "$state/$d.pid" && say "$d: pid $(cat "$state/$d.pid")" || { say "$d: not running"; ok=1; }
  done
  if [ -f "$slurm_conf" ] && slurm_works 2>/dev/null; then say "srun: works (SLURM_CONF=$slurm_conf)"; else say "srun: fails"; ok=1; fi
  return $ok
}

case "$cmd" in
  install) install_packages ;;
  up)
    mkdir -p "$state" && chmod 700 "$state"
    start_sshd
    if start_slurm; then say "up; for srun and the tests: export SLURM_CONF=$slurm_conf"; else say "up (ssh only)"; fi
    ;;
  env) echo "export SLURM_CONF=$slurm_conf" ;;
  status) status ;;
  down)
    stop_pidfile slurmd "$state/slurmd.pid"
    stop_pidfile slurmctld "$state/slurmctld.pid"
    stop_pidfile munged "$state/munged.pid"
    stop_pidfile sshd "$state/sshd.pid"
    remove_ssh_client_config
    [ -d "$state" ] && rm -rf "$state"
    say "down"
    ;;
  *) die "usage: local-cluster.sh install|up|status|env|down (got '$cmd')" ;;
esac
