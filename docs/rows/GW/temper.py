import sys
src, dst, factor = sys.argv[1], sys.argv[2], float(sys.argv[3])
lines = open(src).read().split("\n")
shape = lines[1].split()
inputs, hidden, outputs = int(shape[1]), int(shape[2]), int(shape[3])
actions = outputs - 2  # the last two outputs are the value heads
out = []
for line in lines:
    parts = line.split()
    if parts and parts[0] in ("heads.weight", "heads.bias"):
        values = parts[1:]
        scaled = [repr(float(v) * factor) if (i % outputs) < actions else v for i, v in enumerate(values)]
        line = parts[0] + " " + " ".join(scaled)
    out.append(line)
open(dst, "w").write("\n".join(out))
