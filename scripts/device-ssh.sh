#!/usr/bin/env bash
# OpenSSH on the GPU machine, which has no sshd: for `--gpu ssh:localhost` there (issue 25's "through a
# worker over ssh" on a real GPU). Debian 12's openssh-server and -client, extracted with the libraries
# they link (glibc's own excepted), carried in the git-ignored build-ssh/ (about 6 MB).
#
#   bash scripts/device-ssh.sh prepare   here: apt-get download, extract, bundle into build-ssh/
#   carry ["build-ssh"], then there:
#   bash scripts/device-ssh.sh up        sshd on 127.0.0.1:2222 with a throwaway host and user key, and
#                                        `ssh localhost` of this user pointed at it (~/.ssh/config)
#   eval "$(bash scripts/device-ssh.sh env)"   PATH for ssh, WARPSCOPE_REMOTE_CLI for the far side
set -euo pipefail
cd "$(dirname "$0")/.."
B=$PWD/build-ssh
state=/tmp/ws-sshd
port=2222
case "${1:-}" in
  prepare)
    work=$(mktemp -d)
    (cd "$work" && apt-get download openssh-server openssh-client >/dev/null 2>&1)
    rm -rf "$B" && mkdir -p "$B/lib"
    for f in "$work"/*.deb; do dpkg -x "$f" "$B/root"; done
    for bin in "$B/root/usr/sbin/sshd" "$B/root/usr/bin/ssh" "$B/root/usr/bin/ssh-keygen"; do
      ldd "$bin" | awk '/=> \// {print $3}' | while read -r lib; do
        case "$(basename "$lib")" in
          libc.so.*|libm.so.*|libresolv.so.*|libpthread.so.*|libdl.so.*|ld-linux*) ;;
          *) cp -L "$lib" "$B/lib/" ;;
        esac
      done
    done
    rm -rf "$B/root/usr/share" "$B/root/etc" "$B/root/lib/systemd"
    du -sh "$B"
    ;;
  up)
    [ -x "$B/root/usr/sbin/sshd" ] || { echo "device-ssh.sh: carry build-ssh (bash scripts/device-ssh.sh prepare)" >&2; exit 2; }
    export LD_LIBRARY_PATH="$B/lib"
    mkdir -p "$state" /run/sshd ~/.ssh && chmod 700 "$state" ~/.ssh && chmod 755 /run/sshd
    id sshd >/dev/null 2>&1 || useradd -r -M -d /run/sshd -s /usr/sbin/nologin sshd  # privilege separation
    [ -f "$state/host_key" ] || "$B/root/usr/bin/ssh-keygen" -q -t ed25519 -N "" -f "$state/host_key"
    [ -f "$state/id_ed25519" ] || "$B/root/usr/bin/ssh-keygen" -q -t ed25519 -N "" -f "$state/id_ed25519"
    cp "$state/id_ed25519.pub" "$state/authorized_keys"
    cat >"$state/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $port
HostKey $state/host_key
AuthorizedKeysFile $state/authorized_keys
PidFile $state/sshd.pid
UsePAM no
PasswordAuthentication no
PermitRootLogin prohibit-password
StrictModes no
Subsystem sftp none
EOF
    cat >~/.ssh/config <<EOF
Host localhost
  Port $port
  IdentityFile $state/id_ed25519
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  LogLevel ERROR
EOF
    chmod 600 ~/.ssh/config
    "$B/root/usr/sbin/sshd" -f "$state/sshd_config" -E "$state/sshd.log"
    sleep 1
    PATH="$B/root/usr/bin:$PATH" ssh -o BatchMode=yes localhost true \
      && echo "sshd up on 127.0.0.1:$port; ssh localhost answers" \
      || { echo "device-ssh.sh: ssh localhost failed:"; tail -5 "$state/sshd.log"; exit 1; }
    ;;
  env)
    # ssh is a wrapper that finds its libraries: warpscope runs `ssh` from PATH.
    mkdir -p "$state/bin"
    printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' "$B/lib" "$B/root/usr/bin/ssh" >"$state/bin/ssh"
    chmod +x "$state/bin/ssh"
    echo "export PATH=$state/bin:\$PATH WARPSCOPE_REMOTE_CLI=$PWD/build/app/cli/warpscope-cli"
    ;;
  *)
    echo "usage: bash scripts/device-ssh.sh prepare|up|env" >&2
    exit 2
    ;;
esac
