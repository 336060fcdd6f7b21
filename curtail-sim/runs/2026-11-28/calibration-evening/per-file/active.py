#!/usr/bin/env python3
"""Non-stuck stock files by how many OTHER clients were on a fast (non-stuck) file at the
file's midpoint: usage active.py SAMPLES.csv... (see split.py)."""
import sys; sys.path.insert(0, __import__('os').path.dirname(__import__('os').path.abspath(__file__)))
from split import load,q
from collections import defaultdict
for path in sys.argv[1:]:
  runs=load(path)
  for scen in ['read-throttled','pread-throttled']:
    by=defaultdict(list)
    for (s,m,seed,r),fs in runs.items():
      if s!=scen or m!='stock': continue
      iv=[(c,t,t+l/1000,l>=400) for c,f,t,l in fs]
      for c,f,t,l in fs:
        if l>=400: continue
        mid=t+l/2000
        act=len({c2 for c2,a,b,stk in iv if c2!=c and not stk and a<=mid<b})
        by[act].append(l)
    n=sum(len(v) for v in by.values())
    import os
    label=os.path.basename(os.path.dirname(path)) if path.endswith('samples.csv') else os.path.basename(path)
    print(label[:26].ljust(26), scen.ljust(16), "non-stuck by other clients on fast files:", "  ".join(f"{a}:{q(by[a],.5):.0f}ms({100*len(by[a])/n:.0f}%)" for a in sorted(by)))
