# Row CAP: is the policy short of half the gap for capacity, a warm start or regularisation?
# (1 December, evening; fixed work, two trainings at a time, one thread each.) Data: row WM's
# 960 games (c160 with b and a, docs/rows/WM/run.sh); every training is row WM's best
# (wide-21in-960.txt: 21 inputs, context, mirrored, annealed, 100 epochs, lr 0.003, seed 8),
# built from 546f00a with one or two constants changed and nothing else:
#   h128:     src/bot/policy_net/shape.rs          HIDDEN 64 -> 128
#   a64:      src/bot/policy_net/action_inputs.rs  ACTION_HIDDEN 32 -> 64
#   h128-a64: both
#   a64-value01-stopped: a64 with learn/src/policy/model.rs VALUE_LOSS_WEIGHT 1.0 -> 0.1
#             (stopped at epoch 52, behind a64 at every epoch)
#   *-wd1:    learn/src/policy/train.rs weight_decay 1e-2 -> 1e-1 (AdamW's decoupled decay)
# e.g.  git worktree add /work/wt-a64 546f00a && cd /work/wt-a64 &&
#       sed -i 's/^pub const ACTION_HIDDEN: usize = 32;/pub const ACTION_HIDDEN: usize = 64;/' src/bot/policy_net/action_inputs.rs &&
#       cargo build --release -p learn
COMMON="--data /work/data22/c160 --window-data /work/data22/b --window-data /work/data22/a --epochs 100 --seed 8 --action-inputs --min-visits 5001 --action-context --mirror --anneal --learning-rate 0.003"
RAYON_NUM_THREADS=1 target/release/learn train-policy $COMMON --out OUT   # h128.txt, a64.txt, h128-a64.txt, *-wd1.txt
# Warm from generation 8's policy (32 wide, 12 inputs, tempered; its missing units start cold):
RAYON_NUM_THREADS=1 target/release/learn train-policy $COMMON --init learn/generations/gen-008/policy.txt --out OUT   # a64-warm8.txt, h128-a64-warm8.txt
