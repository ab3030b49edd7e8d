# Generation 9, second run (2 December, a new root on a machine without generations 7 and 8's
# games): generation 8's settings with the policy of row DEEP (context, a second action layer,
# mirrored, annealed, 100 epochs) and row CAP's 1,200 games of generation 7's networks in the
# window (--window-data) where generations 7 and 8's own are not on this machine. The gate at
# fixed iterations (generation 8's), both cores.
#
# The root: the kept generations copied as `restore.rs` does (what `learn generation` does on a
# new root), then self-play by exactly the loop's command for generation 9 (seed 1009 = the
# loop's seed 1 x 1000 + 9, generation 8's files), started before --window-data existed; the
# loop's self-play step then finds the 400 games there and checks them against the manifest.
#   R=data/generations; for g in 001 003 005 007 008; do mkdir -p $R/gen-$g; cp learn/generations/gen-$g/{network,policy,state}.txt $R/gen-$g/; done
#   printf 'csb-best-generation 1\ngeneration: 8\nfolder: gen-008\n' > $R/best.txt
#   nice -n 15 target/release/learn selfplay --out data/generations/gen-009/data --jobs 2 --games 400 --iterations 5000 --nodes 400000 --seed 1009 --deep-iterations 20000 --deep-share 0.25 --bot-args "--eval net --net-file data/generations/gen-008/network.txt --policy-net data/generations/gen-008/policy.txt"
# Row CAP's games: docs/rows/CAP/run.sh (learn selfplay --games 400 --iterations 5000
# --deep-iterations 20000 --deep-share 0.25 --nodes 400000 --jobs 2, seeds 2201-2203, the
# embedded networks = generation 7's).
cd /work/main && make generation GEN_GAMES=400 GEN_ITERATIONS=5000 DEEP_ITERATIONS=20000 DEEP_SHARE=0.25 DEEP_NODES=400000 WINDOW=3 WINDOW_DATA="/work/data22/c /work/data22/b /work/data22/a" TD_ROUNDS=2 GEN_EPOCHS=4 GEN_LR=0.0005 POLICY_EPOCHS=100 POLICY_LR=0.003 WARM_START=1 TEMPER_POLICY=1 ACTION_INPUTS=1 ACTION_CONTEXT=1 ACTION_MIDDLE=1 POLICY_MIRROR=1 POLICY_ANNEAL=1 SELECT_VALUE=1 GATE_GAMES=200 GATE_SPRT="-25 25" PROMOTE_INCONCLUSIVE=1 JOBS=2
