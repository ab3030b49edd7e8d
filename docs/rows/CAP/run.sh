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
# a64-1200.txt and a32-1200.txt: seed 2203's run played out (c, 400 games), c with b and a:
#   learn selfplay --out /work/data22/c --games 400 --iterations 5000 --deep-iterations 20000 --deep-share 0.25 --nodes 400000 --seed 2203 --jobs 2
#   (data-sha256 f688ca0785e82f6c6dffbad92da627be9af6809b9a2c79d9ee3bda184ed88187)
# learn of 28ac0f3 (64 action units) and of 546f00a (32):
RAYON_NUM_THREADS=1 target/release/learn train-policy --data /work/data22/c --window-data /work/data22/b --window-data /work/data22/a --epochs 100 --seed 8 --action-inputs --min-visits 5001 --action-context --mirror --anneal --learning-rate 0.003 --out OUT
# policy-a64-1200.txt: a64-1200 exported and tempered to generation 7's spread:
target/release/learn export-policy --model OUT/policy.safetensors --out OUT/policy-trained.txt
target/release/learn temper-policy --policy OUT/policy-trained.txt --like learn/model/policy.txt --data /work/data22/c --window-data /work/data22/b --window-data /work/data22/a --min-visits 5001 --out OUT/policy.txt
