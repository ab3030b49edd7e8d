# Row DEEP: a second layer in the policy (1 December, night; fixed work, one thread a training).
# Data: row CAP's 1,200 games (c with b and a; its test split: uniform 2.3026, the visits'
# entropy 1.4491, half the gap 1.8759), the training of row CAP's a64-1200 (21 inputs, 64 / 64,
# context, mirrored, annealed, 100 epochs, lr 0.003, seed 8, deep turns) with one layer more.
#
# Screens (learn only, before the bot could play such a file): experiment.patch on 99cc445 adds
# a second position layer (64 -> 64, ReLU: heads and context read it) and/or a second action
# layer (ReLU, the action heads read it), chosen by CSB_DEEP=position|action|both, and computes
# the figures with candle's forward pass. ACTION_MIDDLE 32 in the patch's model.rs for
# action-middle32 and both, 64 for action-middle64.
#   git worktree add /work/wt-deep 99cc445 && cd /work/wt-deep && git apply docs/rows/DEEP/experiment.patch
#   cargo build --release -p learn
COMMON="--data /work/data22/c --window-data /work/data22/b --window-data /work/data22/a --epochs 100 --seed 8 --action-inputs --min-visits 5001 --action-context --mirror --anneal --learning-rate 0.003"
CSB_DEEP=position RAYON_NUM_THREADS=1 target/release/learn train-policy $COMMON --out OUT   # position-middle64-screen.txt
CSB_DEEP=action   RAYON_NUM_THREADS=1 target/release/learn train-policy $COMMON --out OUT   # action-middle32-screen.txt, action-middle64-screen.txt
CSB_DEEP=both     RAYON_NUM_THREADS=1 target/release/learn train-policy $COMMON --out OUT   # both-screen.txt
#
# The bot's second action layer (56be64f, ACTION_MIDDLE 64), trained by main's learn; its
# figures are the bot's network's:
RAYON_NUM_THREADS=1 target/release/learn train-policy $COMMON --action-middle --out OUT   # action-middle64.txt
target/release/learn export-policy --model OUT/policy.safetensors --out OUT/policy-trained.txt
target/release/learn temper-policy --policy OUT/policy-trained.txt --like learn/model/policy.txt --data /work/data22/c --window-data /work/data22/b --window-data /work/data22/a --min-visits 5001 --out OUT/policy.txt   # policy-middle64.txt
