#!/usr/bin/env python3
# A/B of two builds from Compare's JSON files, run alternately in one session:
#   python3 Benchmarks/compare-runs.py before1.json after1.json [before2.json after2.json …]
# Per row: the median over the runs of each side's median, after/before; a summary by row
# kind, and every row more than 10 % slower or whose allocations changed. Each side's
# Compare is run with --output (see the A/B section of Benchmarks/README.md).
import json, sys, statistics
def load(p):
    d=json.load(open(p)); return {(r['name'],r['signature'],r['fanout']):r for r in d['rows'] if r.get('ns_per_message')}
runs=[load(p) for p in sys.argv[1:]]
befores=runs[0::2]; afters=runs[1::2]
common=set(befores[0])&set(afters[0])
rows=[]
for k in sorted(common):
    b=statistics.median([r[k]['ns_per_message'] for r in befores if k in r])
    a=statistics.median([r[k]['ns_per_message'] for r in afters if k in r])
    ab=afters[0][k].get('allocs_per_message'); bb=befores[0][k].get('allocs_per_message')
    rows.append((k,b,a,a/b,bb,ab))
ratios=[r[3] for r in rows]
print(f"common rows {len(rows)}; median after/before {statistics.median(ratios):.3f}; geomean {statistics.geometric_mean(ratios):.3f}")
print(f"within ±10%: {sum(1 for x in ratios if 0.9<=x<=1.1)}; slower >10%: {sum(1 for x in ratios if x>1.1)}; faster >10%: {sum(1 for x in ratios if x<0.9)}")
fam={}
for k,b,a,r,bb,ab in rows:
    fam.setdefault(k[0],[]).append(r)
print("\nper row kind: median ratio (n)")
for f,v in sorted(fam.items()): print(f"  {f:45s} {statistics.median(v):.3f} ({len(v)})  min {min(v):.2f} max {max(v):.2f}")
print("\nrows >1.10 or allocs changed:")
for k,b,a,r,bb,ab in rows:
    if r>1.1 or bb!=ab: print(f"  {k[0]:40s} {k[1]:28s} x{k[2]:<5d} {b:9.1f} -> {a:9.1f}  {r:.2f}  allocs {bb} -> {ab}")
