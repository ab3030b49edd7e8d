# Row R48: generation 9's networks (second run: row DEEP's policy shape, learn/generations/gen-009)
# against the default (generation 7's networks embedded) at the real control, SPRT [0, 30],
# 200 games, alone on the machine. Binaries: the build of db272f9 (decisions as 8f7f675's:
# signature 3c29fb344e1ee266) in /work/runs/r47. Resumable: the same command goes on at the
# first shard not kept.
cd /work/main && SPRT="0 30" ARENA=/work/runs/r47/arena scripts/row.sh docs/rows/R48 8 --p1 "/work/runs/r47/csb --eval net --net-file learn/generations/gen-009/network.txt --policy-net learn/generations/gen-009/policy.txt" --p2 "/work/runs/r47/csb" --games 200 --seed 3814 --threads 1 --time-scale 1
