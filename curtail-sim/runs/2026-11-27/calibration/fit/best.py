exec(open('curtail-sim/runs/2026-11-27/calibration/fit/grid.py').read().split('best=[]')[0])
cands=[(0.85,0.8,500,200,0.1,55),(0.85,0.8,500,200,0.1,50),(0.85,0.75,500,200,0.1,50),(0.85,0.75,500,800,0.25,50),(0.85,0.75,1000,800,0.25,50)]
for c in cands:
    e,g=ev(*c,seeds=21)
    print(round(e,4),c,g,flush=True)
