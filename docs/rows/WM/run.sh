# Row WM: the policy wider (64 and 32), trained on mirrored games, its learning rate annealed,
# then with 21 inputs per action (1 December, afternoon). Fixed work; every figure is in the
# logs beside this file. Data: docs/rows/CX/run.sh's self-play (a: seed 2201, b: seed 2202),
# c: the same command with seed 2203; all three of today's default (generation 7's networks).
#   learn selfplay --out /work/data22/c --games 400 --iterations 5000 --deep-iterations 20000 --deep-share 0.25 --nodes 400000 --seed 2203 --jobs 2
# Baseline: docs/rows/CX/ab-both100.txt (the same widths by a patch of 25392aa, 12 inputs, no mirror, constant rate).
# wide-mirror.txt, wide-anneal.txt, wide-mirror-anneal.txt: learn of 8b3a863 (64/32, 12 inputs per action):
COMMON="--data /work/data22/b --window-data /work/data22/a --epochs 100 --learning-rate 0.003 --seed 8 --action-inputs --min-visits 5001 --action-context"
RAYON_NUM_THREADS=1 target/release/learn train-policy $COMMON --out OUT --mirror            # wide-mirror.txt
RAYON_NUM_THREADS=1 target/release/learn train-policy $COMMON --out OUT --anneal            # wide-anneal.txt
RAYON_NUM_THREADS=1 target/release/learn train-policy $COMMON --out OUT --mirror --anneal   # wide-mirror-anneal.txt
# wide-21in-mirror-anneal.txt: learn of 5fec91a (21 inputs per action), the same command with --mirror --anneal.
# policy-21in.txt: that model as the bot plays it, tempered to generation 7's spread:
target/release/learn export-policy --model OUT/policy.safetensors --out OUT/policy-trained.txt
target/release/learn temper-policy --policy OUT/policy-trained.txt --like learn/model/policy.txt --data /work/data22/b --window-data /work/data22/a --min-visits 5001 --out OUT/policy.txt
# c160: seed 2203's first 160 games (the run above stopped at 162 for time; the same games as):
#   learn selfplay --out /work/data22/c160 --games 160 --iterations 5000 --deep-iterations 20000 --deep-share 0.25 --nodes 400000 --seed 2203 --jobs 2
#   (data-sha256 911230058a412d307353a0aeee732061f217e69b8db8fc559d3d5910b9d4d9f6)
# wide-21in-960.txt (learning rate 0.003) and wide-21in-960-lr005.txt (0.005), learn of 5fec91a:
RAYON_NUM_THREADS=1 target/release/learn train-policy --data /work/data22/c160 --window-data /work/data22/b --window-data /work/data22/a --epochs 100 --seed 8 --action-inputs --min-visits 5001 --action-context --mirror --anneal --learning-rate 0.003 --out OUT
# policy-21in-960.txt: exported and tempered as above, on c160 with b and a.
