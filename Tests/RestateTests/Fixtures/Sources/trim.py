"""Cuts a symbol graph down to what RestateTests reads, one symbol a line.

trim.py IN OUT [TOP]: with TOP, only the symbols under that top-level name and the
relationships between them are kept; the keys the restatement does not read are dropped.
"""
import json
import sys

source, out, top = sys.argv[1], sys.argv[2], sys.argv[3]
graph = json.load(open(source))
symbols = graph["symbols"]
if top:
    symbols = [s for s in symbols if s["pathComponents"][0] == top]
keep = {s["identifier"]["precise"] for s in symbols}
read = {"kind", "identifier", "pathComponents", "declarationFragments", "availability", "accessLevel"}
symbols = [{k: v for k, v in s.items() if k in read} for s in symbols]
relationships = [r for r in graph["relationships"] if not top or (r["source"] in keep and r["target"] in keep)]
with open(out, "w") as f:
    f.write('{"metadata": {"generator": "fixture"},\n "module": %s,\n "symbols": [\n' % json.dumps(graph["module"]["name"] and {"name": graph["module"]["name"]}))
    f.write(",\n".join("  " + json.dumps(s, sort_keys=True) for s in symbols))
    f.write('\n ],\n "relationships": [\n')
    f.write(",\n".join("  " + json.dumps(r, sort_keys=True) for r in relationships))
    f.write("\n ]}\n")
