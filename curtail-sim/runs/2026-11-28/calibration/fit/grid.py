# Fitted on the healthy (oracle) figures of runs/2026-11-28/bench-calibration, from the root:
# a first grid of product([0.55,0.62],[0.75,0.9],[2000,8000],[100,250,500],[0.25,0.5],[50,60]),
# then this one about its best (grid.log holds both, the first 96 lines the first).
import subprocess, math, itertools, sys
J='curtail-sim/target/curtail-sim.jar'  # run from the repository's root
target={'read-throttled':(54.6,90.2),'pread-throttled':(58.9,90.9),'write-slow-disk':(113.1,575.9)}
share_t=0.41
def ev(scale,wc,every,mean,sp,rep,seeds=11):
    out=subprocess.run(['java','-jar',J,'calibrate','--seeds',str(seeds),'--modes','oracle','--cost-scale',str(scale),'--write-cost',str(wc),'--spell-every-ms',str(every),'--spell-mean-ms',str(mean),'--spell-speed',str(sp),'--report-us',str(rep),'--out','/tmp/curtail-sim-fit'],capture_output=True,text=True).stdout
    err=0; got={}
    for line in out.splitlines():
        f=[x.strip() for x in line.split('|')]
        if len(f)>5 and f[0] in target:
            p50=float(f[2]); p99=float(f[5]); got[f[0]]=(p50,p99)
            err+=math.log(p50/target[f[0]][0])**2+math.log(p99/target[f[0]][1])**2
            if f[0]=='write-slow-disk':
                sh=float(f[8].rstrip('%'))/100; got['share']=sh
                err+=math.log(sh/share_t)**2
    return err,got
best=[]
for scale,wc,every,mean,sp,rep in itertools.product([0.7,0.75],[0.8,0.9],[1000,2000],[250,500],[0.5,0.7],[60,70]):
    e,g=ev(scale,wc,every,mean,sp,rep)
    best.append((e,(scale,wc,every,mean,sp,rep),g))
    print(round(e,4),(scale,wc,every,mean,sp,rep),g,flush=True)
best.sort(key=lambda x:x[0])
print("BEST")
for b in best[:10]: print(b)
