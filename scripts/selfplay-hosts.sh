#!/usr/bin/env bash
# Self-play over several hosts with GNU parallel and ssh: shard I of N (`learn selfplay --shard
# I/N`) runs on one host (N = the hosts listed; list a host twice to give it two shards, one per
# core), in a checkout there, at nice 10; each shard's directory is returned with rsync and the
# shards are merged with `learn merge` into one data directory whose manifest is an unsharded
# run's (docs/learning.md, "Self-play on several machines").
#
#   scripts/selfplay-hosts.sh --hosts HOST[,HOST...] --out DIR [options] [-- selfplay flags]
#
#   --hosts H,H,...    ssh destinations (as ssh takes them: host, user@host, an alias of
#                      ~/.ssh/config), one shard each
#   --out DIR          the merged data directory (local)
#   --shards DIR       local copies of the shard directories (default DIR.shards)
#   --checkout PATH    the csb checkout on every host (default csb; relative to the login dir)
#   --remote-dir PATH  where the shards are played on the hosts (default
#                      data/shards/<DIR's name>, relative to the checkout)
#   --remote-learn CMD the `learn` command on the hosts, run in the checkout (default
#                      "cargo run --release --quiet -p learn --")
#   --local-learn CMD  the `learn` command here, for the merge (default: the same, in this
#                      script's checkout)
#   --ssh CMD          ssh command for parallel and rsync (default ssh with BatchMode, a
#                      connect timeout and keep-alives, so a dead host fails instead of hanging)
#   --nice N           niceness of self-play on the hosts (default 10)
#   after --            learn selfplay's flags (--games, --iterations, --seed, --nodes,
#                      --bot-args, --opponent-args); --out and --shard are this script's
#
# Each host's shard directory is first sent from --shards (so a rerun resumes there, on any
# host), played into (self-play skips games already written), and returned, also when the
# shard failed. A host that refuses the connection or disappears mid-shard: one line on stderr
# naming the shard, its host and the cause, exit 1, every finished game kept here or on the
# host; run the same command again to resume. A merge refused: learn's one line, exit 2.
# Usage errors: one line, exit 2. Needs GNU parallel and rsync here, rsync and perl on the
# hosts (scripts/install-ssh-tools.sh installs Debian's).
set -euo pipefail

me="selfplay-hosts.sh"
usage() {
    echo "$me: $1 (usage: $me --hosts HOST[,HOST...] --out DIR [options] [-- selfplay flags];" \
        "see the script's header)" >&2
    exit 2
}

hosts="" out="" shards="" checkout="csb" remote_dir="" nice_level=10
remote_learn="cargo run --release --quiet -p learn --"
local_learn=""
ssh_command="ssh -o BatchMode=yes -o ConnectTimeout=15 -o ServerAliveInterval=15 -o ServerAliveCountMax=4"
selfplay_flags=()
while [ $# -gt 0 ]; do
    case "$1" in
        --) shift; selfplay_flags=("$@"); break ;;
        --hosts|--out|--shards|--checkout|--remote-dir|--remote-learn|--local-learn|--ssh|--nice)
            [ $# -ge 2 ] || usage "$1 needs a value"
            case "$1" in
                --hosts) hosts="$2" ;;
                --out) out="$2" ;;
                --shards) shards="$2" ;;
                --checkout) checkout="$2" ;;
                --remote-dir) remote_dir="$2" ;;
                --remote-learn) remote_learn="$2" ;;
                --local-learn) local_learn="$2" ;;
                --ssh) ssh_command="$2" ;;
                --nice) nice_level="$2" ;;
            esac
            shift 2 ;;
        *) usage "unknown argument ${1@Q}" ;;
    esac
done
[ -n "$hosts" ] || usage "--hosts is required"
[ -n "$out" ] || usage "--out is required"
case "$nice_level" in ''|*[!0-9]*) usage "--nice must be a number, not ${nice_level@Q}" ;; esac
for flag in "${selfplay_flags[@]+"${selfplay_flags[@]}"}"; do
    case "$flag" in
        --out|--out=*|--shard|--shard=*) usage "selfplay's $flag is set by this script" ;;
    esac
done
for tool in parallel rsync; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "$me: $tool is not installed (run scripts/install-ssh-tools.sh as root, or" \
            "apt-get install parallel rsync openssh-client)" >&2
        exit 2
    }
done

# One shard per listed host; parallel takes each host once, with as many job slots as shards.
IFS=',' read -r -a host_list <<<"$hosts"
count=${#host_list[@]}
sshlogins=""
declare -A slots=()
order=()
for host in "${host_list[@]}"; do
    [ -n "$host" ] || usage "--hosts has an empty entry: ${hosts@Q}"
    case "$host" in *[[:space:]/]*) usage "a host must not hold spaces or '/': ${host@Q}" ;; esac
    if [ -z "${slots[$host]+set}" ]; then
        slots[$host]=0
        order+=("$host")
    fi
    slots[$host]=$((slots[$host] + 1))
done
for host in "${order[@]}"; do
    sshlogins="${sshlogins:+$sshlogins,}${slots[$host]}/$host"
done

out="${out%/}"
[ -n "$shards" ] || shards="$out.shards"
[ -n "$remote_dir" ] || remote_dir="data/shards/$(basename "$out")"
case "$remote_dir" in
    /*) workdir="$remote_dir" ;;
    *) workdir="${checkout%/}/$remote_dir" ;;
esac
repo="$(cd "$(dirname "$0")/.." && pwd)"
if [ -z "$local_learn" ]; then
    local_learn="cargo run --manifest-path $(printf %q "$repo/Cargo.toml") --release --quiet -p learn --"
fi

# Single-quoted for the hosts' shell (POSIX: ' becomes '\'').
quote() {
    local escaped=${1//\'/\'\\\'\'}
    printf "'%s'" "$escaped"
}
flags_quoted=""
for flag in "${selfplay_flags[@]+"${selfplay_flags[@]}"}"; do
    flags_quoted="$flags_quoted $(quote "$flag")"
done

mkdir -p "$shards"
shard_names=()
for ((index = 0; index < count; index++)); do
    name="shard-$index-of-$count"
    mkdir -p "$shards/$name"
    shard_names+=("$name")
done
shards="$(cd "$shards" && pwd)"
log="$shards/parallel.log"
joblog="$shards/parallel-joblog.tsv"
echo "$me: shards 0..$((count - 1)) of $count on ${order[*]}; played in $workdir on each host," \
    "returned to $shards; parallel's output in $log"

# On the host, in the shard's directory (parallel's --workdir): keep its path, go to the
# checkout (relative to the login dir, or absolute), play the shard into it.
command="shard_dir=\"\$PWD\"/shard-{}-of-$count && cd && cd $(quote "$checkout") && nice -n $nice_level $remote_learn selfplay --out \"\$shard_dir\" --shard {}/$count$flags_quoted"

status=0
rm -f "$joblog"
(
    cd "$shards"
    parallel --will-cite --joblog "$joblog" --tagstring '{}' -j 100% --sshlogin "$sshlogins" \
        --ssh "$ssh_command" --workdir "$workdir" \
        --transferfile "shard-{}-of-$count" --return "shard-{}-of-$count" \
        "$command" ::: $(seq 0 $((count - 1)))
) >"$log" 2>&1 || status=$?

# A shard's cause of failure: its first ssh or learn error line, else its last line.
cause() {
    local lines
    # parallel tags each job's lines; ssh ends its own with \r, after which a stray tag follows.
    lines="$(sed -n "s/^$1\t//p" "$log" | sed 's/\r.*$//; /^[[:space:]]*$/d' || true)"
    local line
    line="$(printf '%s\n' "$lines" | grep -m1 -E '^(ssh|learn|parallel): |closed by remote host' || true)"
    [ -n "$line" ] || line="$(printf '%s\n' "$lines" | tail -n 1 || true)"
    printf '%s' "${line:-no output}"
}

failures=""
for ((index = 0; index < count; index++)); do
    # The joblog's row of job index+1: Seq Host Starttime JobRuntime Send Receive Exitval Signal.
    row="$(awk -F'\t' -v seq=$((index + 1)) 'NR > 1 && $1 == seq' "$joblog" 2>/dev/null | tail -n 1 || true)"
    if [ -z "$row" ]; then
        failure="shard $index/$count did not run ($(cause "$index"))"
    else
        host="$(printf '%s' "$row" | cut -f2)"
        exit_value="$(printf '%s' "$row" | cut -f7)"
        signal="$(printf '%s' "$row" | cut -f8)"
        if [ "$exit_value" = 0 ] && [ "$signal" = 0 ]; then
            continue
        fi
        failure="shard $index/$count failed on ${host##* } (exit $exit_value"
        [ "$signal" = 0 ] || failure="$failure, signal $signal"
        failure="$failure: $(cause "$index"))"
    fi
    failures="${failures:+$failures; }$failure"
done
if [ -n "$failures" ] || [ "$status" -ne 0 ]; then
    [ -n "$failures" ] || failures="parallel exited with $status ($(tail -n 1 "$log"))"
    echo "$me: $failures; finished games are kept in $shards and on the hosts; run the same" \
        "command again to resume (log: $log)" >&2
    exit 1
fi

# Every shard's summary line, then the merge.
sed -n 's/^[0-9]*\t\(selfplay: [^\r]*\).*/\1/p' "$log"
shard_paths=()
for name in "${shard_names[@]}"; do
    shard_paths+=("$shards/$name")
done
# $local_learn is a command line (words); the paths are quoted.
eval "$local_learn merge --out $(printf %q "$out") $(printf '%q ' "${shard_paths[@]}")"
