# Row CX: the policy's context layer (1 December). Fixed work; every number is in the logs beside this file.
# Self-play of today's default (generation 7's networks at 0.6), 400 games each, deep turns as the loop plays them:
target/release/learn selfplay --out /work/data22/a --games 400 --iterations 5000 --deep-iterations 20000 --deep-share 0.25 --nodes 400000 --seed 2201 --jobs 2
target/release/learn selfplay --out /work/data22/b --games 400 --iterations 5000 --deep-iterations 20000 --deep-share 0.25 --nodes 400000 --seed 2202 --jobs 2
# Cold, on a (400 games): base.txt, ctx.txt (--action-context), ctx100.txt (--epochs 100), ctxlr01.txt (--learning-rate 0.01),
# ah32.txt (ACTION_HIDDEN 32), h64.txt (HIDDEN 64), both100.txt (both, 100 epochs; widths-64-32.patch), la.txt and la-ctx.txt (lookahead-input.patch):
RAYON_NUM_THREADS=1 target/release/learn train-policy --data /work/data22/a --out OUT --epochs 40 --learning-rate 0.003 --seed 7 --action-inputs --min-visits 5001 [--action-context]
# Warm from the embedded policy (generation 7's), on b with a (800 games): ab-warm.txt, ab-ctx-warm.txt (--action-context), ab-both100.txt (widths-64-32.patch, cold, 100 epochs):
RAYON_NUM_THREADS=1 target/release/learn train-policy --data /work/data22/b --window-data /work/data22/a --out OUT --epochs 40 --learning-rate 0.003 --seed 8 --action-inputs --min-visits 5001 --init learn/model/policy.txt [--action-context]
# The context policy as the bot plays it, tempered to generation 7's spread (policy-ctx.txt):
target/release/learn export-policy --model OUT/policy.safetensors --out OUT/policy-trained.txt
target/release/learn temper-policy --policy OUT/policy-trained.txt --like learn/model/policy.txt --data /work/data22/b --window-data /work/data22/a --min-visits 5001 --out OUT/policy.txt
