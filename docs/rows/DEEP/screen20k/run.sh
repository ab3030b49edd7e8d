# Row DEEP's policy against the default at 20,000 fixed iterations a turn (about what both reach
# at the real control: row DEEP1's replays), the screen at 5,000's maps (seed 3901); one game at
# a time beside generation 9's policy training. Binaries: the build of db272f9 (decisions as
# 8f7f675's) in /work/runs/r47.
B=/work/runs/r47
cd /work/main && ARENA=$B/arena nice -n 19 scripts/row.sh docs/rows/DEEP/screen20k 4 --p1 "$B/csb --iterations 20000 --nodes 400000 --policy-net docs/rows/DEEP/policy-middle64.txt" --p2 "$B/csb --iterations 20000 --nodes 400000" --games 100 --seed 3901 --threads 1 --time-scale 20
