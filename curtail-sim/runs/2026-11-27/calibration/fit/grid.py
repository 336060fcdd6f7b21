import subprocess, math, itertools, sys
J='curtail-sim/target/curtail-sim.jar'  # run from the repository's root
target={'read-throttled':(73.931,345.141),'pread-throttled':(75.657,264.331),'write-slow-disk':(169.478,1038.985)}
share_t=36/96
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
for scale,wc,every,mean,sp,rep in itertools.product([0.8,0.85],[0.75,0.8],[500,1000,2000],[200,400,800],[0.1,0.15,0.25],[50,55]):
    e,g=ev(scale,wc,every,mean,sp,rep)
    best.append((e,(scale,wc,every,mean,sp,rep),g))
    print(round(e,4),(scale,wc,every,mean,sp,rep),g,flush=True)
best.sort(key=lambda x:x[0])
print("BEST")
for b in best[:10]: print(b)
