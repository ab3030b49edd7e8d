# Row R47: generation 9 (the second run of it, on its window with row CAP's games) against the
# first network at the real control, on R21's maps (seed 3622), as rows R35 and R40 played
# generations 7 and 8. Binaries: the build of db272f9 copied to /work/runs/r47 (decisions as
# 213e20a's: signature 3c29fb344e1ee266). Alone on the machine.
cd /work/main && SPRT="0 50" ARENA=/work/runs/r47/arena scripts/row.sh docs/rows/R47 8 --p1 "/work/runs/r47/csb --eval net --net-file learn/generations/gen-009/network.txt --policy-net learn/generations/gen-009/policy.txt" --p2 "/work/runs/r47/csb --net-file learn/model/generation1-16wide.txt" --games 200 --seed 3622 --threads 1 --time-scale 1
