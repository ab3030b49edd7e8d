#!/bin/sh
# The value network by fitted TD(λ) on fixed self-play data: `scripts/td-chain.sh OUT DATA
# [WINDOW-DATA...]` trains a network on the games' results, then five more in a chain, each on
# TD(λ) targets bootstrapped from the network before it (`learn train --target td:LAMBDA
# --td-network PREVIOUS/network.txt`, the result's share 1: no hand evaluation in any target).
# Step I goes to OUT/step-I; the last step's model is the chain's. Every step is seeded (seed 3),
# so the same data give the same networks bit for bit, and `learn train` resumes a step that
# was cut short or returns at once from one that is done: running the same command again goes
# on where it stopped.
#
# The schedule (epochs; λ 0.7, then 0.9 three times, then 0.8) is the one whose steps lowered
# the validation split's log-loss on generations 2 and 3's 1,600 games (docs/learning.md,
# "Fitted TD on fixed data"). LEARN is the learn binary (default target/release/learn).
#
# example: scripts/td-chain.sh target/td-chain data/generations/gen-003/data \
#              data/generations/gen-002/data
set -eu

if [ $# -lt 2 ]; then
    echo "usage: scripts/td-chain.sh OUT DATA [WINDOW-DATA...]" >&2
    exit 2
fi
learn=${LEARN:-target/release/learn}
out=$1
data=$2
shift 2
window=""
for older in "$@"; do
    window="$window --window-data $older"
done

step() {
    index=$1
    shift
    echo "td-chain: step $index of 5: $*" >&2
    # shellcheck disable=SC2086 # the window's flags are words
    "$learn" train --data "$data" $window --out "$out/step-$index" --seed 3 --result-weight 1 "$@"
}

step 0 --epochs 12 --target result
step 1 --epochs 6 --target td:0.7 --td-network "$out/step-0/network.txt"
step 2 --epochs 6 --target td:0.9 --td-network "$out/step-1/network.txt"
step 3 --epochs 6 --target td:0.9 --td-network "$out/step-2/network.txt"
step 4 --epochs 6 --target td:0.9 --td-network "$out/step-3/network.txt"
step 5 --epochs 6 --target td:0.8 --td-network "$out/step-4/network.txt"
echo "td-chain: the chain's model is $out/step-5/model.safetensors" >&2
